// Internal: holds the port's global table lock for one scope. The lock
// nests on every port, so a guarded section may call code that takes it.
#ifndef FFI_CORE_SRC_SUPPORT_GLOBAL_LOCK_GUARD_H_
#define FFI_CORE_SRC_SUPPORT_GLOBAL_LOCK_GUARD_H_

#include <ffi_core/port.h>

namespace ffi_core {
namespace detail {

class GlobalLockGuard {
 public:
  GlobalLockGuard() { port::GlobalLock(); }
  ~GlobalLockGuard() { port::GlobalUnlock(); }
  GlobalLockGuard(const GlobalLockGuard&) = delete;
  GlobalLockGuard& operator=(const GlobalLockGuard&) = delete;
};

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_SUPPORT_GLOBAL_LOCK_GUARD_H_
