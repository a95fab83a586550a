// What every bare-metal port shares: the error slot, the default allocator
// (none) and fatal errors/logging, each behind a weak hook the firmware may
// override (see ffi_core/port_hooks.h).
#include <ffi_core/allocator.h>
#include <ffi_core/error_slot.h>
#include <ffi_core/port.h>
#include <ffi_core/port_hooks.h>

namespace {

// Zero-filled in .bss: an empty slot, so no constructor runs at startup.
ffi_core::ErrorSlot g_error_slot;

}  // namespace

// Weak defaults: a firmware's own definition replaces each at link time.
// GCC never inlines a weak function into its callers, so the override is
// seen everywhere.
extern "C" {

__attribute__((weak)) ffi_core::ErrorSlot* ffi_core_port_error_slot(void) {
  return &g_error_slot;
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

ErrorSlot* CurrentErrorSlot() { return ffi_core_port_error_slot(); }

// No heap is assumed; core reports allocations as MemoryError until the
// firmware installs an allocator (SetAllocator).
Allocator* DefaultAllocator() { return nullptr; }

void Fatal(const char* message) {
  ffi_core_fatal(message);
  // A user hook that returns must not let the broken invariant go on. The
  // empty asm makes the loop observable so it is never optimized out.
  for (;;) __asm__ volatile("" ::: "memory");
}

void Log(const char* message) { ffi_core_log(message); }

}  // namespace port
}  // namespace ffi_core
