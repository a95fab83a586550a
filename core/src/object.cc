#include <ffi_core/object.h>
#include <ffi_core/port.h>

namespace ffi_core {

namespace {
// Weak references remain: destroy the payload now, free the storage when
// the last weak reference (possibly this one) goes. Out of line, so the
// common case below needs no stack frame.
[[gnu::noinline]] void ReleaseLastStrong(TVMFFIObject* obj) {
  if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
  ObjectDecWeakRef(obj);
}
}  // namespace

void ObjectReleaseLast(TVMFFIObject* obj, port::StrongRelease left) {
  if (left != port::StrongRelease::kLastBoth) return ReleaseLastStrong(obj);
  if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
}

void ObjectDecRef(TVMFFIObject* obj) { ObjectDecRefInline(obj); }

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
