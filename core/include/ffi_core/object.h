// The object header protocol: creating objects whose storage comes from the
// installed TVMFFICustomAllocator, and the strong/weak reference rules that
// every runtime speaking the ABI follows (see TVMFFIObject in c_api.h).
//
// ffi-core object types are standard-layout structs whose first member is
// `TVMFFIObject header`, so a pointer to one is a pointer to its header.
#ifndef FFI_CORE_OBJECT_H_
#define FFI_CORE_OBJECT_H_

#include <ffi_core/expected.h>
#include <ffi_core/port.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace ffi_core {

// Strong and weak count of a new object: one strong reference, plus the one
// weak reference that all strong references hold together.
inline constexpr uint64_t kRefCountBothOne = (uint64_t{1} << 32) | 1u;

// Inline: on a port with inline reference counts (host) no call at all.
inline void ObjectIncRef(TVMFFIObject* obj) { port::RefIncStrong(obj); }
// Drops a strong reference, running the deleter with the flags the ABI
// prescribes when counts reach zero.
void ObjectDecRef(TVMFFIObject* obj);
void ObjectIncWeakRef(TVMFFIObject* obj);
void ObjectDecWeakRef(TVMFFIObject* obj);
// Takes a strong reference from a weak one if the object is still alive.
bool ObjectTryPromoteWeak(TVMFFIObject* obj);

uint32_t ObjectStrongCount(const TVMFFIObject* obj);
uint32_t ObjectWeakCount(const TVMFFIObject* obj);

// Inline: the stores merge with the ones that construct the object.
inline void InitObjectHeader(TVMFFIObject* obj, int32_t type_index, void (*deleter)(void*, int)) {
  obj->combined_ref_count = kRefCountBothOne;
  obj->type_index = type_index;
  obj->__padding = 0;
  obj->__ensure_align = 0;  // clears the high word of a 4-byte deleter pointer
  obj->deleter = deleter;
}

namespace detail {
// The object body, or NULL with a MemoryError raised.
void* AllocateObjectBody(size_t size, size_t alignment, int32_t type_index);
}  // namespace detail

// Storage for an object body from the installed TVMFFICustomAllocator. On
// failure a MemoryError is raised. Inline: the Expected costs nothing once
// the caller tests it.
inline Expected<void*> AllocateObjectStorage(size_t size, size_t alignment, int32_t type_index) {
  void* body = detail::AllocateObjectBody(size, alignment, type_index);
  if (body == nullptr) return Status(ErrorKind::kMemoryError);
  return body;
}
// Gives storage back through the TVMFFIObjectAllocHeader before `body`.
void FreeObjectStorage(void* body);

namespace detail {
// Deleter shared by ffi-core's own object types: the strong flag runs the
// C++ destructor (which releases children); the weak flag frees storage.
template <typename T>
void ObjectDeleter(void* self, int flags) {
  T* obj = static_cast<T*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->~T();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectStorage(self);
}
}  // namespace detail

// Allocates and constructs a T followed by `extra_bytes` of trailing storage.
template <typename T, typename... Args>
Expected<T*> NewObject(int32_t type_index, size_t extra_bytes, Args&&... args) {
  static_assert(std::is_standard_layout_v<T>, "objects must be standard-layout");
  static_assert(offsetof(T, header) == 0, "the header must come first");
  // An impossible size saturates; the allocator then refuses it.
  const size_t size = extra_bytes <= SIZE_MAX - sizeof(T) ? sizeof(T) + extra_bytes : SIZE_MAX;
  void* mem = detail::AllocateObjectBody(size, alignof(T), type_index);
  if (mem == nullptr) return Status(ErrorKind::kMemoryError);
  T* obj = new (mem) T(std::forward<Args>(args)...);
  InitObjectHeader(&obj->header, type_index, &detail::ObjectDeleter<T>);
  return obj;
}

}  // namespace ffi_core

#endif  // FFI_CORE_OBJECT_H_
