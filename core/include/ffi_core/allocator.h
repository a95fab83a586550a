// Allocator: where ffi-core's memory comes from. Core never calls malloc:
// every object and buffer is carved from a TVMFFICustomAllocator installed
// through the C API, else from the allocator the user injected
// (SetAllocator), else from the port's system heap. A plain C struct, so C
// firmware can provide one too.
#ifndef FFI_CORE_ALLOCATOR_H_
#define FFI_CORE_ALLOCATOR_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>

namespace ffi_core {

struct Allocator {
  // Returns `size` bytes aligned to `alignment` (a power of two), or NULL.
  // Must not raise errors itself: callers turn NULL into a MemoryError.
  void* (*allocate)(void* context, size_t size, size_t alignment);
  // Gives back a block with the size and alignment it was allocated with.
  void (*deallocate)(void* context, void* ptr, size_t size, size_t alignment);
  void* context;
};

inline void* Allocate(const Allocator& a, size_t size, size_t alignment) {
  return a.allocate(a.context, size, alignment);
}
inline void Deallocate(const Allocator& a, void* ptr, size_t size, size_t alignment) {
  a.deallocate(a.context, ptr, size, alignment);
}

// Base of the allocators that keep state (arena, pool, heap, counting): the
// Allocator view of the object. Derived provides the view's two functions
// as static AllocateBlock and DeallocateBlock (the contract above), which
// turn their context back into the object with Self. Not copyable: the
// view points at the object.
template <typename Derived>
class AllocatorBase {
 public:
  AllocatorBase(const AllocatorBase&) = delete;
  AllocatorBase& operator=(const AllocatorBase&) = delete;

  // The Allocator view to pass to SetAllocator and friends.
  Allocator* allocator() { return &allocator_; }

 protected:
  AllocatorBase() : allocator_{&Derived::AllocateBlock, &Derived::DeallocateBlock, this} {}
  ~AllocatorBase() = default;
  static Derived* Self(void* context) {
    return static_cast<Derived*>(static_cast<AllocatorBase*>(context));
  }

 private:
  Allocator allocator_;
};

// A `Base` allocator over a buffer of its own, kBytes aligned to kAlign, in
// static storage when the object is static (StaticArena, StaticHeap,
// StaticPool). `args` follow the buffer in Base's constructor.
template <typename Base, size_t kBytes, size_t kAlign>
class BufferOwner : public Base {
 public:
  template <typename... Args>
  explicit BufferOwner(Args... args) : Base(buffer_, kBytes, args...) {}

 private:
  alignas(kAlign) unsigned char buffer_[kBytes];
};

// Installs the allocator behind ffi-core's built-in object allocator. NULL
// installs none: every allocation then fails with a MemoryError. The
// allocator must outlive every object allocated from it. Until the first
// call the port's system heap is in force (SystemAllocator).
TVM_FFI_DLL void SetAllocator(Allocator* allocator);
// The allocator in force, or NULL when there is none.
TVM_FFI_DLL Allocator* GetAllocator();

// The port's system heap (port::SystemAllocate), the default until one is
// installed: the C library's heap on the host. Bare metal has none: every
// request gets NULL, so firmware installs an allocator of its own.
Allocator* SystemAllocator();

// Memory that is not an object (container items, VM storage, workspace and
// scratch blocks) comes from where objects come from: the
// TVMFFICustomAllocator installed through the C API (asked with type index
// kTVMFFINone), else the installed Allocator. A firmware that installs
// either one alone gets every byte ffi-core allocates from it. Alignment: a
// power of two up to 4096. NULL on failure, with a MemoryError raised.
TVM_FFI_DLL void* AllocateBuffer(size_t size, size_t alignment);
// Needs only the pointer: the block's TVMFFIObjectAllocHeader says how to
// give it back, whatever was installed since. NULL is ignored.
TVM_FFI_DLL void FreeBuffer(void* buffer);

// The TVMFFICustomAllocator objects are created with (never NULL): the one
// installed by TVMFFISetCustomAllocator, else the built-in one, which
// carves objects from GetAllocator().
TVMFFICustomAllocator* CurrentCustomAllocator();
void SetCustomAllocator(TVMFFICustomAllocator* allocator);

}  // namespace ffi_core

#endif  // FFI_CORE_ALLOCATOR_H_
