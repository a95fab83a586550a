/* newlib system-call layer for the ffi-core QEMU boards: console through
 * semihosting, heap bounded by the linker script, exit status to QEMU.
 * Files are not supported; those calls fail cleanly with errno set. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "ffi_core_board/board.h"
#include "semihost.h"

/* newlib's reentrant wrappers (_write_r, _sbrk_r, ...) read this global
 * after each call and copy it to the caller's errno; libc only references
 * it, the system-call layer has to define it. */
#undef errno
int errno;

/* newlib's <unistd.h> only declares some of these; declare all of them so
 * the file stays clean under -Wmissing-prototypes. */
int _write(int fd, const void* buffer, size_t length);
int _read(int fd, void* buffer, size_t length);
void* _sbrk(ptrdiff_t increment);
int _kill(pid_t pid, int signal);
pid_t _getpid(void);
int _close(int fd);
int _fstat(int fd, struct stat* status);
int _isatty(int fd);
off_t _lseek(int fd, off_t offset, int whence);
int _open(const char* path, int flags, ...);
int _gettimeofday(struct timeval* time, void* zone);
int getentropy(void* buffer, size_t length);

/* Heap limits from boards/common/ffi_core_sections.ld. */
extern char __heap_start[], __heap_end[];

/* Host console handles, opened lazily (":tt" is the semihosting console;
 * open mode "w" = 4 is stdout, "a" = 8 is stderr). */
static int console_handle(int fd) {
  static int handles[2] = {-1, -1};
  int* slot = &handles[fd == 2];
  if (*slot < 0) {
    const uintptr_t block[3] = {(uintptr_t) ":tt", fd == 2 ? 8u : 4u, 3u};
    *slot = (int)sh_call(SH_SYS_OPEN, block);
  }
  return *slot;
}

int _write(int fd, const void* buffer, size_t length) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  const int handle = console_handle(fd);
  if (handle < 0) {
    errno = EIO;
    return -1;
  }
  const uintptr_t block[3] = {(uintptr_t)handle, (uintptr_t)buffer, length};
  /* SYS_WRITE returns the number of bytes NOT written. */
  const uintptr_t left = sh_call(SH_SYS_WRITE, block);
  return (int)(length - left);
}

int _read(int fd, void* buffer, size_t length) {
  (void)fd;
  (void)buffer;
  (void)length;
  return 0; /* no console input: immediate end of file */
}

/* Grows the heap inside [__heap_start, __heap_end). Running out returns
 * (void *)-1 with ENOMEM, so malloc() returns NULL instead of the heap
 * silently running into the stack. */
void* _sbrk(ptrdiff_t increment) {
  static char* brk = __heap_start;
  if (increment > __heap_end - brk || increment < __heap_start - brk) {
    errno = ENOMEM;
    return (void*)-1;
  }
  char* previous = brk;
  brk += increment;
  return previous;
}

void _exit(int status) { ffi_core_board_exit(status); }

/* abort() and raise() end up here: report the signal like a host shell. */
int _kill(pid_t pid, int signal) {
  (void)pid;
  char text[] = "\n*** ffi-core: raised signal 00 (abort = 6), exiting\n";
  text[29] = (char)('0' + signal / 10 % 10);
  text[30] = (char)('0' + signal % 10);
  sh_write0(text);
  ffi_core_board_exit(128 + signal);
}

pid_t _getpid(void) { return 1; }

int _close(int fd) {
  (void)fd;
  errno = EBADF;
  return -1;
}

int _fstat(int fd, struct stat* status) {
  if (fd < 0 || fd > 2) {
    errno = EBADF;
    return -1;
  }
  /* A character device: newlib then line-buffers stdout. */
  status->st_mode = S_IFCHR;
  return 0;
}

int _isatty(int fd) {
  if (fd >= 0 && fd <= 2) {
    return 1;
  }
  errno = EBADF;
  return 0;
}

off_t _lseek(int fd, off_t offset, int whence) {
  (void)fd;
  (void)offset;
  (void)whence;
  errno = ESPIPE;
  return -1;
}

int _open(const char* path, int flags, ...) {
  (void)path;
  (void)flags;
  errno = ENOSYS;
  return -1;
}

/* No real-time clock: time starts at the epoch and stands still. */
int _gettimeofday(struct timeval* time, void* zone) {
  (void)zone;
  if (time != NULL) {
    time->tv_sec = 0;
    time->tv_usec = 0;
  }
  return 0;
}

/* No entropy source (std::random_device, arc4random): fail, don't fake it. */
int getentropy(void* buffer, size_t length) {
  (void)buffer;
  (void)length;
  errno = ENOSYS;
  return -1;
}
