// LockGuard: holds the port's global-table lock for one scope. The lock is
// not recursive, so a guarded section must not call back into another table.
#ifndef FFI_CORE_LOCK_GUARD_H_
#define FFI_CORE_LOCK_GUARD_H_

#include <ffi_core/port.h>

namespace ffi_core {

class LockGuard {
 public:
  LockGuard() { port::GlobalLock(); }
  ~LockGuard() { port::GlobalUnlock(); }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;
};

}  // namespace ffi_core

#endif  // FFI_CORE_LOCK_GUARD_H_
