// Host port: the reference counts and claim flags of port.h, inline. 64-bit
// atomics on the whole combined count, in the same way upstream's runtime
// updates it, so objects can cross between the two runtimes in one process;
// an incref is one locked add at the call site.
#ifndef FFI_CORE_PORT_HOST_PORT_ATOMICS_H_
#define FFI_CORE_PORT_HOST_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace ffi_core {
namespace port {

namespace host {
constexpr uint64_t kStrongOne = 1;
constexpr uint64_t kWeakOne = uint64_t{1} << 32;
constexpr uint64_t kStrongMask = kWeakOne - 1;

// A decrement publishes the holder's writes (release); the one that drops the
// last reference must also see every other holder's before destroying
// (acquire). Normally an acquire fence on that path only, as upstream does;
// ThreadSanitizer cannot see fences, so its build orders every decrement
// acq_rel instead (FFI_CORE_TSAN_ORDERING, port/host/CMakeLists.txt).
#if FFI_CORE_TSAN_ORDERING
constexpr int kDecrementOrder = __ATOMIC_ACQ_REL;
inline void AcquireAfterLastDecrement() {}
#else
constexpr int kDecrementOrder = __ATOMIC_RELEASE;
inline void AcquireAfterLastDecrement() { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
#endif
}  // namespace host

inline void RefIncStrong(TVMFFIObject* obj) {
  __atomic_fetch_add(&obj->combined_ref_count, host::kStrongOne, __ATOMIC_RELAXED);
}

inline void RefIncWeak(TVMFFIObject* obj) {
  __atomic_fetch_add(&obj->combined_ref_count, host::kWeakOne, __ATOMIC_RELAXED);
}

inline bool RefTryPromoteWeak(TVMFFIObject* obj) {
  uint64_t old = __atomic_load_n(&obj->combined_ref_count, __ATOMIC_RELAXED);
  while ((old & host::kStrongMask) != 0) {
    if (__atomic_compare_exchange_n(&obj->combined_ref_count, &old, old + host::kStrongOne, true,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      return true;
    }
  }
  return false;
}

inline StrongRelease RefDecStrong(TVMFFIObject* obj) {
  const uint64_t before =
      __atomic_fetch_sub(&obj->combined_ref_count, host::kStrongOne, host::kDecrementOrder);
  // One compare on the common path: strong was above one.
  if (__builtin_expect((before & host::kStrongMask) > host::kStrongOne, 1)) {
    return StrongRelease::kAlive;
  }
  if ((before & host::kStrongMask) == 0) Fatal("ffi-core: strong reference count underflow");
  host::AcquireAfterLastDecrement();
  return before == (host::kWeakOne | host::kStrongOne) ? StrongRelease::kLastBoth
                                                       : StrongRelease::kLastStrongOnly;
}

inline bool RefDecWeak(TVMFFIObject* obj) {
  const uint64_t before =
      __atomic_fetch_sub(&obj->combined_ref_count, host::kWeakOne, host::kDecrementOrder);
  if (__builtin_expect((before >> 32) == 0, 0)) Fatal("ffi-core: weak reference count underflow");
  if (before == host::kWeakOne) {
    host::AcquireAfterLastDecrement();
    return true;
  }
  return false;
}

inline uint32_t RefStrongCount(const TVMFFIObject* obj) {
  return static_cast<uint32_t>(__atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) &
                               host::kStrongMask);
}

inline uint32_t RefWeakCount(const TVMFFIObject* obj) {
  return static_cast<uint32_t>(__atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) >> 32);
}

inline bool FlagTryClaim(uint32_t* flag) {
  uint32_t expected = 0;
  return __atomic_compare_exchange_n(flag, &expected, 1u, /*weak=*/false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

inline void FlagRelease(uint32_t* flag) { __atomic_store_n(flag, 0u, __ATOMIC_RELEASE); }

inline void* LoadHandle(void* const* slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }
inline void PublishHandle(void** slot, void* handle) {
  __atomic_store_n(slot, handle, __ATOMIC_RELEASE);
}

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_HOST_PORT_ATOMICS_H_
