// Reference counting on the two 32-bit halves of combined_ref_count, shared
// by the bare-metal ports. 32-bit cores have no 64-bit atomics (and
// arm-none-eabi has no libatomic), so the strong word and the weak word are
// updated separately; `Ops` says how one word is updated (exclusive access,
// an interrupt-masked section, or plain code).
//
// Ops provides, on a `Word*`:
//   uint32_t Load(const Word*)             relaxed read
//   void Increment(Word*)                  relaxed +1
//   uint32_t DecrementRelease(Word*)       -1 with release order; old value
//   bool IncrementIfNonZero(Word*)         +1 unless 0 (acquire on success)
//   bool SetIfZero(Word*)                  0 -> 1, false if not 0 (acquire)
//   void StoreRelease(Word*, uint32_t)     store with release order
//   void AcquireFence()
// Each operation must be atomic with respect to interrupts on the same core.
//
// Why two separate words are enough (also with an interrupt handler running
// ObjectIncRef/ObjectDecRef on the same object at any point):
//  * Every step is one atomic operation on one word, so an interrupt between
//    two steps is just another interleaving of whole operations; the
//    argument below covers every interleaving.
//  * A strong reference is only created by a holder of a strong reference
//    (strong >= 1 already) or by IncrementIfNonZero, which refuses 0. So once
//    a decrement takes strong from 1 to 0, strong stays 0 forever and that
//    decrement alone owns the destruction.
//  * The weak word counts weak references plus one held jointly by all strong
//    references, now owned by the thread that took strong to 0. If that
//    thread then reads weak == 1, nobody else holds any reference, and a new
//    weak reference needs an existing strong or weak one, so none can appear:
//    destroying and freeing at once (kLastBoth) is safe. If it reads
//    weak > 1, weak holders may still drop theirs concurrently; the caller
//    destroys the payload and then drops the joint weak reference with
//    DecWeak, and whichever decrement takes weak from 1 to 0 frees the
//    storage, exactly once. (A weak holder dropping out between our two
//    steps only turns kLastStrongOnly into kLastBoth; it cannot free since
//    its own decrement did not reach 0.)
//  * Release on each decrement plus an acquire fence before destruction
//    makes every write through any reference visible to the deleter.
#ifndef FFI_CORE_PORT_REF_COUNT_HALVES_H_
#define FFI_CORE_PORT_REF_COUNT_HALVES_H_

#include <ffi_core/port.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace port {
namespace bare_metal {

// combined_ref_count is declared uint64_t; may_alias makes accessing its
// halves as 32-bit words well-defined for the optimizer.
typedef uint32_t Word __attribute__((may_alias));

// The strong count is the low 32 bits: the first word on little-endian
// cores, the second on big-endian ones.
constexpr size_t kStrongIndex = (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? 1 : 0;
constexpr size_t kWeakIndex = 1 - kStrongIndex;

static_assert(offsetof(TVMFFIObject, combined_ref_count) % alignof(uint32_t) == 0,
              "exclusive access needs word-aligned counts");

inline Word* CountWord(TVMFFIObject* obj, size_t index) {
  return reinterpret_cast<Word*>(&obj->combined_ref_count) + index;
}
inline const Word* CountWord(const TVMFFIObject* obj, size_t index) {
  return reinterpret_cast<const Word*>(&obj->combined_ref_count) + index;
}

// One message for every underflow: a double release either way.
inline constexpr char kUnderflow[] = "ffi-core: reference count underflow (double release)";

template <typename Ops>
struct HalfWordRefCount {
  static void IncStrong(TVMFFIObject* obj) { Ops::Increment(CountWord(obj, kStrongIndex)); }

  static void IncWeak(TVMFFIObject* obj) { Ops::Increment(CountWord(obj, kWeakIndex)); }

  static bool TryPromoteWeak(TVMFFIObject* obj) {
    return Ops::IncrementIfNonZero(CountWord(obj, kStrongIndex));
  }

  static StrongRelease DecStrong(TVMFFIObject* obj) {
    const uint32_t strong_before = Ops::DecrementRelease(CountWord(obj, kStrongIndex));
    // One compare on the common path; 0 (a double release) and 1 (the last
    // reference) are told apart after it.
    if (__builtin_expect(strong_before > 1, 1)) return StrongRelease::kAlive;
    if (strong_before == 0) Fatal(kUnderflow);
    // Strong is now 0 for good (see above); order the weak read and the
    // destruction after every other holder's release.
    Ops::AcquireFence();
    const uint32_t weak = Ops::Load(CountWord(obj, kWeakIndex));
    if (weak == 0) Fatal(kUnderflow);
    return weak == 1 ? StrongRelease::kLastBoth : StrongRelease::kLastStrongOnly;
  }

  static bool DecWeak(TVMFFIObject* obj) {
    const uint32_t weak_before = Ops::DecrementRelease(CountWord(obj, kWeakIndex));
    if (weak_before == 0) Fatal(kUnderflow);
    if (weak_before != 1) return false;
    Ops::AcquireFence();
    return true;
  }

  static uint32_t StrongCount(const TVMFFIObject* obj) {
    return Ops::Load(CountWord(obj, kStrongIndex));
  }

  static uint32_t WeakCount(const TVMFFIObject* obj) {
    return Ops::Load(CountWord(obj, kWeakIndex));
  }
};

}  // namespace bare_metal
}  // namespace port
}  // namespace ffi_core

// Defines the port's inline reference-count, flag and handle functions
// (port.h) over HalfWordRefCount<Ops>; each port supplies only its word
// operations.
#define FFI_CORE_BARE_METAL_REF_COUNTS(Ops)                                                       \
  using RefCounts = ::ffi_core::port::bare_metal::HalfWordRefCount<Ops>;                          \
  inline void RefIncStrong(TVMFFIObject* obj) { RefCounts::IncStrong(obj); }                      \
  inline void RefIncWeak(TVMFFIObject* obj) { RefCounts::IncWeak(obj); }                          \
  inline bool RefTryPromoteWeak(TVMFFIObject* obj) { return RefCounts::TryPromoteWeak(obj); }     \
  inline StrongRelease RefDecStrong(TVMFFIObject* obj) { return RefCounts::DecStrong(obj); }      \
  inline bool RefDecWeak(TVMFFIObject* obj) { return RefCounts::DecWeak(obj); }                   \
  inline bool FlagTryClaim(uint32_t* flag) { return Ops::SetIfZero(flag); }                       \
  inline void FlagRelease(uint32_t* flag) { Ops::StoreRelease(flag, 0); }                         \
  inline uint32_t RefStrongCount(const TVMFFIObject* obj) { return RefCounts::StrongCount(obj); } \
  inline uint32_t RefWeakCount(const TVMFFIObject* obj) { return RefCounts::WeakCount(obj); }     \
  /* A pointer load or store is atomic here; each barrier is one DMB on Cortex-M. */              \
  inline void* LoadHandle(void* const* slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }  \
  inline void PublishHandle(void** slot, void* handle) {                                          \
    __atomic_store_n(slot, handle, __ATOMIC_RELEASE);                                             \
  }

#endif  // FFI_CORE_PORT_REF_COUNT_HALVES_H_
