// GlobalLock for the RISC-V ports: an mstatus.MIE critical section, as the
// Cortex-M ports mask PRIMASK (primask_lock.cc): short table look-ups, no
// deadlock against a handler that uses the tables.
#include <ffi_core/port.h>
#include <ffi_core/port_mstatus.h>

namespace ffi_core {
namespace port {
namespace {

// Touched only with interrupts masked; only the outermost pair saves and
// restores mstatus, so an accidental nested GlobalLock is harmless.
uint32_t g_saved_mstatus;
uint32_t g_lock_depth;

}  // namespace

void GlobalLock() {
  const uint32_t mstatus = bare_metal::IrqSaveAndDisable();
  if (g_lock_depth++ == 0) g_saved_mstatus = mstatus;
}

void GlobalUnlock() {
  if (g_lock_depth == 0) Fatal("ffi-core: GlobalUnlock without GlobalLock");
  if (--g_lock_depth == 0) bare_metal::IrqRestore(g_saved_mstatus);
}

}  // namespace port
}  // namespace ffi_core
