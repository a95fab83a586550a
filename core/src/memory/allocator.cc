// The injected allocator, the built-in TVMFFICustomAllocator on top of it,
// and object and buffer storage through whichever TVMFFICustomAllocator is
// installed.
#include <ffi_core/align.h>
#include <ffi_core/allocator.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/port.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace {

TVMFFICustomAllocator* g_custom = nullptr;

// Bookkeeping the built-in object allocator keeps in front of each block's
// TVMFFIObjectAllocHeader, so delete_space can find what to give back even
// after another allocator has been installed. An object from the system
// heap at the common alignment keeps only `total` (SystemObjectDeleteSpace).
// Kept small: it costs every object on an MCU.
struct BlockPrefix {
  Allocator* allocator;
  uint32_t total;        // bytes allocated
  uint16_t body_offset;  // from the start of the block to the body
  uint16_t alignment;
};

// The port's system heap (none on bare metal: every request gets NULL).
void* SystemHeapAllocate(void*, size_t size, size_t alignment) {
  return port::SystemAllocate(size, alignment);
}
void SystemHeapDeallocate(void*, void* ptr, size_t size, size_t alignment) {
  port::SystemFree(ptr, size, alignment);
}
// Constant, so it stays in flash: nothing writes through an Allocator*.
constexpr Allocator kSystem = {&SystemHeapAllocate, &SystemHeapDeallocate, nullptr};

// The allocator in force: the port's system heap until SetAllocator. One
// load on the allocation path.
Allocator* g_allocator = const_cast<Allocator*>(&kSystem);

TVMFFIObjectAllocHeader* AllocHeaderOf(void* body) {
  return reinterpret_cast<TVMFFIObjectAllocHeader*>(static_cast<char*>(body) -
                                                    sizeof(TVMFFIObjectAllocHeader));
}
BlockPrefix* PrefixOf(void* body) {
  return reinterpret_cast<BlockPrefix*>(reinterpret_cast<char*>(AllocHeaderOf(body)) -
                                        sizeof(BlockPrefix));
}

// Every ffi-core object asks for its header's alignment: that request needs
// no arithmetic and no checks, and its body sits at a fixed offset.
constexpr size_t kObjectAlign = alignof(TVMFFIObject);
constexpr size_t kHead = sizeof(BlockPrefix) + sizeof(TVMFFIObjectAllocHeader);
constexpr size_t kObjectOffset = AlignUp(kHead, kObjectAlign);
static_assert(IsPowerOfTwo(kObjectAlign) && kObjectAlign >= alignof(BlockPrefix),
              "the common request must pass the checks it skips");

void BuiltinDeleteSpace(void* body) {
  BlockPrefix p = *PrefixOf(body);
  Deallocate(*p.allocator, static_cast<char*>(body) - p.body_offset, p.total, p.alignment);
}
// An object from the system heap at the common alignment: only the size is
// kept, and the port's inline SystemFree sees the alignment as a constant.
void SystemObjectDeleteSpace(void* body) {
  port::SystemFree(static_cast<char*>(body) - kObjectOffset, PrefixOf(body)->total, kObjectAlign);
}

// The allocator contract reports failure as NULL, with the reason raised.
// One cold raiser for every refusal: the allocation path needs no stack
// frame, and a firmware carries one message routine. Type indices stay
// numeric: naming them would pull the whole name table into every firmware
// that allocates.
[[gnu::cold, gnu::noinline]] void* RaiseCannotAllocate(const char* why, size_t size,
                                                       size_t alignment, int32_t type_index) {
  static_cast<void>(
      RaiseError(ErrorKind::kMemoryError, {why, ": cannot allocate ", size, " bytes aligned to ",
                                           alignment, " for type index ", type_index}));
  return nullptr;
}
// Bare metal's system heap is absent: say so, briefly (it is flash).
constexpr char kNoSystemHeap[] = "system heap exhausted or absent (see ffi_core::SetAllocator)";

// Any allocator, any alignment. Out of line, so the system heap's inline
// path (AllocateSystemObject) needs no stack frame.
[[gnu::noinline]] void* AllocateBlock(Allocator* a, size_t size, size_t alignment,
                                      int32_t type_index) {
  if (a == nullptr) {
    return RaiseCannotAllocate("no allocator installed (see ffi_core::SetAllocator)", size,
                               alignment, type_index);
  }
  size_t body_offset = kObjectOffset;
  bool bad = false;
  if (alignment != kObjectAlign) {
    if (alignment < alignof(BlockPrefix)) alignment = alignof(BlockPrefix);
    bad = !IsPowerOfTwo(alignment) || alignment > 4096;
    body_offset = AlignUp(kHead, alignment);
  }
  if (bad || size > UINT32_MAX - body_offset) {
    return RaiseCannotAllocate("bad object request (alignment: a power of two up to 4096)", size,
                               alignment, type_index);
  }
  const size_t total = body_offset + size;
  void* base = Allocate(*a, total, alignment);
  if (base == nullptr) {
    return RaiseCannotAllocate(a == &kSystem ? kNoSystemHeap : "allocator exhausted", total,
                               alignment, type_index);
  }
  char* body = static_cast<char*>(base) + body_offset;
  AllocHeaderOf(body)->delete_space = &BuiltinDeleteSpace;
  // Filled in after the call from the values already at hand (the narrow
  // fields' stores truncate; no conversions kept live across it).
  BlockPrefix* prefix = PrefixOf(body);
  prefix->allocator = a;
  prefix->total = static_cast<uint32_t>(total);
  prefix->body_offset = static_cast<uint16_t>(body_offset);
  prefix->alignment = static_cast<uint16_t>(alignment);
  return body;
}

// An object from the system heap at its header's alignment: the host's
// common case, with the port's heap inline and no indirect call.
inline bool IsSystemObject(const Allocator* a, size_t size) {
  return port::kSystemHeap && a == &kSystem && size <= UINT32_MAX - kObjectOffset;
}
inline void* AllocateSystemObject(size_t size, int32_t type_index) {
  const size_t total = kObjectOffset + size;
  void* base = port::SystemAllocate(total, kObjectAlign);
  if (base == nullptr) return RaiseCannotAllocate(kNoSystemHeap, total, kObjectAlign, type_index);
  char* body = static_cast<char*>(base) + kObjectOffset;
  AllocHeaderOf(body)->delete_space = &SystemObjectDeleteSpace;
  PrefixOf(body)->total = static_cast<uint32_t>(total);
  return body;
}

void* BuiltinAllocate(size_t size, size_t alignment, int32_t type_index, void* /*context*/) {
  Allocator* const a = g_allocator;
  if (alignment == kObjectAlign && IsSystemObject(a, size)) {
    return AllocateSystemObject(size, type_index);
  }
  return AllocateBlock(a, size, alignment, type_index);
}

TVMFFICustomAllocator g_builtin = {&BuiltinAllocate, nullptr};

}  // namespace

void SetAllocator(Allocator* allocator) { g_allocator = allocator; }
Allocator* SystemAllocator() { return const_cast<Allocator*>(&kSystem); }
Allocator* GetAllocator() { return g_allocator; }

TVMFFICustomAllocator* CurrentCustomAllocator() {
  return g_custom != nullptr ? g_custom : &g_builtin;
}
void SetCustomAllocator(TVMFFICustomAllocator* allocator) { g_custom = allocator; }

namespace {
// Out of line, so the built-in path is a tail call with no frame.
[[gnu::noinline]] void* CustomAllocate(size_t size, size_t alignment, int32_t type_index) {
  void* body = g_custom->allocate(size, alignment, type_index, g_custom->context);
  // The contract says the allocator raised (a MemoryError); make sure
  // something is there.
  if (body == nullptr && !HasPendingError()) {
    return RaiseCannotAllocate("custom allocator returned NULL", size, alignment, type_index);
  }
  return body;
}
}  // namespace

namespace detail {
// The built-in allocator is called directly: no indirect call.
void* AllocateObjectBodyAtHeaderAlign(size_t size, int32_t type_index) {
  if (g_custom != nullptr) return CustomAllocate(size, kObjectAlign, type_index);
  Allocator* const a = g_allocator;
  if (IsSystemObject(a, size)) return AllocateSystemObject(size, type_index);
  return AllocateBlock(a, size, kObjectAlign, type_index);
}
void* AllocateObjectBodyAligned(size_t size, size_t alignment, int32_t type_index) {
  if (g_custom != nullptr) return CustomAllocate(size, alignment, type_index);
  return BuiltinAllocate(size, alignment, type_index, nullptr);
}
}  // namespace detail

void* AllocateBuffer(size_t size, size_t alignment) {
  return detail::AllocateObjectBodyAligned(size, alignment, kTVMFFINone);
}

namespace {
// FreeObjectStorage, inlined into the trivial deleter: one jump fewer.
[[gnu::always_inline]] inline void FreeThroughAllocHeader(void* body) {
  TVMFFIObjectAllocHeader* header = AllocHeaderOf(body);
  if (header->delete_space != nullptr) header->delete_space(body);
}
}  // namespace

void FreeObjectStorage(void* body) { FreeThroughAllocHeader(body); }

void FreeBuffer(void* buffer) {
  if (buffer != nullptr) FreeThroughAllocHeader(buffer);
}

namespace detail {
void TrivialObjectDeleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeThroughAllocHeader(self);
}
}  // namespace detail

}  // namespace ffi_core
