#include <ffi_core/object.h>
#include <ffi_core/port.h>

namespace ffi_core {

// Out of line, so the common release needs no stack frame.
void ObjectReleaseLastStrong(TVMFFIObject* obj) {
  if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
  ObjectDecWeakRef(obj);
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
