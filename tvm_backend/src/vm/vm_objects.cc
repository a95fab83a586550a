#include "vm_objects.h"

#include <ffi_core/allocator.h>
#include <ffi_core/error.h>

#include <new>

namespace ffi_core {
namespace tvm_vm {

AnyListObj::~AnyListObj() {
  for (size_t i = 0; i < size; ++i) items()[i].~Any();
}

Expected<ObjectPtr<AnyListObj>> NewAnyList(size_t size) {
  if (size > (SIZE_MAX - sizeof(AnyListObj)) / sizeof(Any)) {
    return RaiseError(ErrorKind::kMemoryError, {"any-list of ", size, " items"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(AnyListObj * list,
                            NewObject<AnyListObj>(kTVMFFIObject, size * sizeof(Any)));
  list->size = size;
  for (size_t i = 0; i < size; ++i) new (&list->items()[i]) Any();
  return ObjectPtr<AnyListObj>::Adopt(list);
}

StorageObj::~StorageObj() { FreeBuffer(data); }

VMStateObj::~VMStateObj() {
  RemoveLiveState(this);
  PoolRelease(this);
}

namespace {
// Storage is told apart from other objects by its deleter: it has no
// registered type of its own.
void StorageDeleter(void* self, int flags) { detail::ObjectDeleter<StorageObj>(self, flags); }
}  // namespace

Expected<ObjectPtr<StorageObj>> NewStorage(size_t size, size_t alignment) {
  if (size == 0) size = 1;
  void* data = AllocateBuffer(size, alignment);
  if (data == nullptr) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"vm.builtin.alloc_storage: cannot allocate ", size, " bytes"});
  }
  Expected<StorageObj*> obj = NewObject<StorageObj>(kTVMFFIObject, 0);
  if (!obj.ok()) {
    FreeBuffer(data);
    return obj.status();
  }
  (*obj)->data = data;
  (*obj)->size = size;
  (*obj)->pool = nullptr;
  (*obj)->header.deleter = &StorageDeleter;
  return ObjectPtr<StorageObj>::Adopt(*obj);
}

StorageObj* AsStorage(const TVMFFIAny& value) {
  if (value.type_index < kTVMFFIStaticObjectBegin || value.v_obj->deleter != &StorageDeleter) {
    return nullptr;
  }
  return reinterpret_cast<StorageObj*>(value.v_obj);
}

}  // namespace tvm_vm
}  // namespace ffi_core
