/* picolibc's system layer for the ffi-core RISC-V QEMU boards: stdio on
 * the UART, the heap bounded by the linker script, exit to the test
 * finisher. No files and no input. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "console.h"
#include "ffi_core_board/board.h"

void* sbrk(ptrdiff_t increment);

/* Heap limits from boards/riscv_common/ffi_core_sections.ld. */
extern char __heap_start[], __heap_end[];

static int console_put(char c, FILE* file) {
  (void)file;
  console_putc(c);
  return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE* const stdin = &console;
FILE* const stdout = &console;
FILE* const stderr = &console;

/* Grows the heap inside [__heap_start, __heap_end); running out returns
 * (void *)-1 with ENOMEM, so malloc() returns NULL instead of the heap
 * silently running into the stack. */
void* sbrk(ptrdiff_t increment) {
  static char* brk = __heap_start;
  if (increment > __heap_end - brk || increment < __heap_start - brk) {
    errno = ENOMEM;
    return (void*)-1;
  }
  char* previous = brk;
  brk += increment;
  return previous;
}

/* exit() and abort() (through raise) end here. */
void _exit(int status) { ffi_core_board_exit(status); }
