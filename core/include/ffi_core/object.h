// The object header protocol: creating objects whose storage comes from the
// installed TVMFFICustomAllocator, and the strong/weak reference rules that
// every runtime speaking the ABI follows (see TVMFFIObject in c_api.h).
//
// ffi-core object types are standard-layout structs whose first member is
// `TVMFFIObject header`, so a pointer to one is a pointer to its header.
#ifndef FFI_CORE_OBJECT_H_
#define FFI_CORE_OBJECT_H_

#include <ffi_core/align.h>
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
// prescribes when counts reach zero. Out of line, for code size.
TVM_FFI_DLL void ObjectDecRef(TVMFFIObject* obj);
// The last strong reference went while weak ones remain: destroy the
// payload; the storage goes with the last weak reference.
void ObjectReleaseLastStrong(TVMFFIObject* obj);
// ObjectDecRef inline, for the C entry point whose whole job it is. When both
// counts reach zero, the deleter is called from here: one call fewer.
inline void ObjectDecRefInline(TVMFFIObject* obj) {
  const port::StrongRelease left = port::RefDecStrong(obj);
  if (left == port::StrongRelease::kAlive) return;
  if (left == port::StrongRelease::kLastStrongOnly) return ObjectReleaseLastStrong(obj);
  if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
}
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
  obj->deleter = deleter;
  // A 4-byte pointer leaves the union's other half, whatever the byte
  // order, to be zeroed: one 32-bit store (a 64-bit zero first takes two).
  constexpr size_t kRest = sizeof(obj->__ensure_align) - sizeof(obj->deleter);
  if constexpr (kRest == sizeof(uint32_t)) {
    // memcpy would be a library call on ARMv6-M at -Os.
    using Word [[gnu::may_alias]] = uint32_t;
    *reinterpret_cast<Word*>(reinterpret_cast<char*>(&obj->deleter) + sizeof(obj->deleter)) = 0;
  }
}

namespace detail {
// The object body, or NULL with a MemoryError raised: at the header's own
// alignment (nearly every object), then at any alignment. The inline
// dispatch folds at a call site that names its alignment.
TVM_FFI_DLL void* AllocateObjectBodyAtHeaderAlign(size_t size, int32_t type_index);
TVM_FFI_DLL void* AllocateObjectBodyAligned(size_t size, size_t alignment, int32_t type_index);
inline void* AllocateObjectBody(size_t size, size_t alignment, int32_t type_index) {
  if (alignment == alignof(TVMFFIObject)) return AllocateObjectBodyAtHeaderAlign(size, type_index);
  return AllocateObjectBodyAligned(size, alignment, type_index);
}
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
TVM_FFI_DLL void FreeObjectStorage(void* body);

namespace detail {
// Deleter shared by ffi-core's own object types: the strong flag runs the
// C++ destructor (which releases children); the weak flag frees storage.
template <typename T>
void ObjectDeleter(void* self, int flags) {
  T* obj = static_cast<T*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->~T();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectStorage(self);
}
// The same for every trivially destructible type at once (nothing to
// destroy): one function instead of one per type, and no call in between.
void TrivialObjectDeleter(void* self, int flags);
// The deleter for a T.
template <typename T>
constexpr auto DeleterOf() {
  if constexpr (std::is_trivially_destructible_v<T>) {
    return &TrivialObjectDeleter;
  } else {
    return &ObjectDeleter<T>;
  }
}
}  // namespace detail

// Trailing storage: an object of `head_size` bytes followed by a tail
// aligned to `tail_align`. One rule for where the tail starts, used both to
// size the allocation and to find the tail again.
constexpr size_t TrailingOffset(size_t head_size, size_t tail_align) {
  return AlignUp(head_size, tail_align);
}
// The tail after a T, as a Tail (at TrailingOffset(sizeof(T), alignof(Tail))).
template <typename Tail, typename T>
Tail* TrailingOf(T* obj) {
  using Byte = std::conditional_t<std::is_const_v<T>, const char, char>;
  return reinterpret_cast<Tail*>(reinterpret_cast<Byte*>(obj) +
                                 TrailingOffset(sizeof(T), alignof(Tail)));
}
namespace detail {
// Storage for `head_size` bytes (aligned to head_align) and then `tail_size`
// bytes aligned to tail_align, or NULL with a MemoryError raised. An
// impossible size saturates; the allocator then refuses it.
inline void* AllocateBodyWithTrailing(size_t head_size, size_t head_align, size_t tail_size,
                                      size_t tail_align, int32_t type_index) {
  const size_t offset = TrailingOffset(head_size, tail_align);
  size_t size = offset + tail_size;
  if (size < offset) size = SIZE_MAX;  // wrapped
  return AllocateObjectBody(size, head_align > tail_align ? head_align : tail_align, type_index);
}
}  // namespace detail
// The same as an Expected.
inline Expected<void*> AllocateWithTrailing(size_t head_size, size_t head_align, size_t tail_size,
                                            size_t tail_align, int32_t type_index) {
  void* body =
      detail::AllocateBodyWithTrailing(head_size, head_align, tail_size, tail_align, type_index);
  if (body == nullptr) return Status(ErrorKind::kMemoryError);
  return body;
}

// Allocates and constructs a T followed by `extra_bytes` of trailing storage
// (TrailingOf finds it for any tail type no more aligned than T).
template <typename T, typename... Args>
Expected<T*> NewObject(int32_t type_index, size_t extra_bytes, Args&&... args) {
  static_assert(std::is_standard_layout_v<T>, "objects must be standard-layout");
  static_assert(offsetof(T, header) == 0, "the header must come first");
  FFI_CORE_ASSIGN_OR_RETURN(
      void* mem, AllocateWithTrailing(sizeof(T), alignof(T), extra_bytes, alignof(T), type_index));
  T* obj = new (mem) T(std::forward<Args>(args)...);
  InitObjectHeader(&obj->header, type_index, detail::DeleterOf<T>());
  return obj;
}

}  // namespace ffi_core

#endif  // FFI_CORE_OBJECT_H_
