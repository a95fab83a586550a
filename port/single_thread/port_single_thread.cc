// Single-thread port: plain, non-atomic reference counts and no table lock.
// Opt-in for firmware where only one context ever touches ffi-core: no
// interrupt handler, second task or second core may create, copy or release
// objects or use the global tables, or counts get corrupted. In exchange it
// runs on any CPU (including hosts, for tests) with the smallest code.
#include <ffi_core/port.h>

#include "../bare_metal/ref_count_halves.h"

namespace ffi_core {
namespace port {
namespace {

using bare_metal::Word;

struct PlainWordOps {
  static uint32_t Load(const Word* w) { return *w; }
  static void Increment(Word* w) { *w = *w + 1; }
  static uint32_t DecrementRelease(Word* w) {
    const uint32_t old = *w;
    *w = old - 1;
    return old;
  }
  static bool IncrementIfNonZero(Word* w) {
    if (*w == 0) return false;
    *w = *w + 1;
    return true;
  }
  static void StoreRelease(Word* w, uint32_t v) { *w = v; }
  static void AcquireFence() {}
};

using Counts = bare_metal::HalfWordRefCount<PlainWordOps>;

}  // namespace

void RefIncStrong(TVMFFIObject* obj) { Counts::IncStrong(obj); }
void RefIncWeak(TVMFFIObject* obj) { Counts::IncWeak(obj); }
bool RefTryPromoteWeak(TVMFFIObject* obj) { return Counts::TryPromoteWeak(obj); }
StrongRelease RefDecStrong(TVMFFIObject* obj) { return Counts::DecStrong(obj); }
bool RefDecWeak(TVMFFIObject* obj) { return Counts::DecWeak(obj); }
void RefClear(TVMFFIObject* obj) { Counts::Clear(obj); }
uint32_t RefStrongCount(const TVMFFIObject* obj) { return Counts::StrongCount(obj); }
uint32_t RefWeakCount(const TVMFFIObject* obj) { return Counts::WeakCount(obj); }

// Nothing to exclude with a single context.
void GlobalLock() {}
void GlobalUnlock() {}

}  // namespace port
}  // namespace ffi_core
