// GlobalLock for the Cortex-M ports: a PRIMASK critical section. Table
// updates and look-ups are short, so masking interrupts is cheaper than any
// lock and cannot deadlock against an interrupt handler using the tables.
#include <ffi_core/port.h>
#include <ffi_core/port_primask.h>

namespace ffi_core {
namespace port {
namespace {

// Only touched with interrupts masked, so no handler can interleave. The
// depth makes an accidental nested GlobalLock harmless: only the outermost
// pair saves and restores PRIMASK.
uint32_t g_saved_primask;
uint32_t g_lock_depth;

}  // namespace

void GlobalLock() {
  const uint32_t primask = bare_metal::IrqSaveAndDisable();
  if (g_lock_depth++ == 0) g_saved_primask = primask;
}

void GlobalUnlock() {
  if (g_lock_depth == 0) Fatal("ffi-core: GlobalUnlock without GlobalLock");
  if (--g_lock_depth == 0) bare_metal::IrqRestore(g_saved_primask);
}

}  // namespace port
}  // namespace ffi_core
