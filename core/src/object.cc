#include <ffi_core/object.h>
#include <ffi_core/port.h>

namespace ffi_core {

int ObjectReleaseLast(TVMFFIObject* obj, uint32_t strong_before) {
  if (port::RefAfterLastStrong(obj, strong_before) == port::StrongRelease::kLastBoth) {
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
    return 0;
  }
  // Weak references remain: destroy the payload now, free the storage when
  // the last weak reference (possibly this one) goes.
  if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
  ObjectDecWeakRef(obj);
  return 0;
}

void ObjectDecRef(TVMFFIObject* obj) {
  const uint32_t strong_before = port::RefDecStrong(obj);
  if (__builtin_expect(strong_before > 1, 1)) return;
  static_cast<void>(ObjectReleaseLast(obj, strong_before));
}

void ObjectIncWeakRef(TVMFFIObject* obj) { port::RefIncWeak(obj); }

void ObjectDecWeakRef(TVMFFIObject* obj) {
  if (port::RefDecWeak(obj) && obj->deleter != nullptr) {
    obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
  }
}

bool ObjectTryPromoteWeak(TVMFFIObject* obj) { return port::RefTryPromoteWeak(obj); }
uint32_t ObjectStrongCount(const TVMFFIObject* obj) { return port::RefStrongCount(obj); }
uint32_t ObjectWeakCount(const TVMFFIObject* obj) { return port::RefWeakCount(obj); }

}  // namespace ffi_core
