// What every bare-metal port shares: the error slot and environment context,
// the default allocator (none), no dynamic libraries, and fatal errors and
// logging, behind weak hooks the firmware may override (ffi_core/port_hooks.h).
#include <ffi_core/allocator.h>
#include <ffi_core/env_context.h>
#include <ffi_core/error.h>
#include <ffi_core/error_slot.h>
#include <ffi_core/port.h>
#include <ffi_core/port_hooks.h>

namespace {

// Zero-filled in .bss: empty and valid, so no constructor runs at startup.
ffi_core::ErrorSlot g_error_slot;
ffi_core::EnvContext g_env_context;

}  // namespace

// Weak defaults: a firmware's own definition replaces each at link time.
// GCC never inlines a weak function into its callers, so the override is
// seen everywhere.
extern "C" {

__attribute__((weak)) ffi_core::ErrorSlot* ffi_core_port_error_slot(void) { return &g_error_slot; }

__attribute__((weak)) ffi_core::EnvContext* ffi_core_port_env_context(void) {
  return &g_env_context;
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
EnvContext* CurrentEnvContext() { return ffi_core_port_env_context(); }

// No heap is assumed; core reports allocations as MemoryError until the
// firmware installs an allocator (SetAllocator).
Allocator* DefaultAllocator() { return nullptr; }

// No loader on bare metal: kernels are linked in (the system library).
void* LibraryOpen(const char* path) {
  // The port contract is NULL plus a raised error; the Status adds nothing.
  static_cast<void>(RaiseError(
      ErrorKind::kNotImplementedError,
      {"cannot load '", path != nullptr ? path : "(null)",
       "': no dynamic libraries on bare metal; link the module in as a system library"}));
  return nullptr;
}
void* LibrarySymbol(void* /*library*/, const char* /*name*/) { return nullptr; }
void LibraryClose(void* /*library*/) {}

void Fatal(const char* message) {
  ffi_core_fatal(message);
  // A user hook that returns must not let the broken invariant go on. The
  // empty asm makes the loop observable so it is never optimized out.
  for (;;) __asm__ volatile("" ::: "memory");
}

void Log(const char* message) { ffi_core_log(message); }

}  // namespace port
}  // namespace ffi_core
