// What every bare-metal port shares: the calling context's storage, no
// dynamic libraries, and fatal errors and logging, behind weak hooks the
// firmware may override (ffi_core/port_hooks.h). No system heap either:
// include/ffi_core/port_heap.h.
#include <ffi_core/port.h>
#include <ffi_core/port_hooks.h>

#include <cstring>

namespace {

// Zero-filled in .bss: an empty context, so no constructor runs at startup.
ffi_core::port::ContextStorage g_context;

}  // namespace

// Weak defaults: a firmware's own definition replaces each at link time.
// GCC never inlines a weak function into its callers, so the override is
// seen everywhere.
extern "C" {

__attribute__((weak)) ffi_core::port::ContextStorage* ffi_core_port_context(void) {
  return &g_context;
}

__attribute__((weak)) void ffi_core_log(const char* /*message*/) {}

__attribute__((weak)) void ffi_core_fatal(const char* message) {
  ffi_core_log(message);
  // UDF: a fault the board's HardFault handler reports; a debugger stops here.
  __builtin_trap();
}

}  // extern "C"

namespace ffi_core {
namespace port {

// No loader on bare metal: kernels are linked in (the system library).
void* LibraryOpen(const char* /*path*/, char* why, size_t why_size) {
  static constexpr char kWhy[] =
      "no dynamic libraries on bare metal; link the module in as a system library";
  if (why_size != 0) {
    const size_t n = sizeof(kWhy) - 1 < why_size - 1 ? sizeof(kWhy) - 1 : why_size - 1;
    std::memcpy(why, kWhy, n);
    why[n] = '\0';
  }
  return nullptr;
}
void* LibrarySymbol(void* /*library*/, const char* /*name*/) { return nullptr; }
void LibraryClose(void* /*library*/) {}

// Boards keep no backtraces (FFI_CORE_ERROR_BACKTRACES is 0): no unwinder.
void VisitNativeFrames(NativeFrameVisitor /*visit*/, void* /*context*/) {}

void Fatal(const char* message) {
  ffi_core_fatal(message);
  // A user hook that returns must not let the broken invariant go on. The
  // empty asm makes the loop observable so it is never optimized out.
  for (;;) __asm__ volatile("" ::: "memory");
}

void Log(const char* message) { ffi_core_log(message); }

}  // namespace port
}  // namespace ffi_core
