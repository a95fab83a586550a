// The injected allocator, the built-in TVMFFICustomAllocator on top of it,
// and object storage through whichever TVMFFICustomAllocator is installed.
#include <ffi_core/align.h>
#include <ffi_core/allocator.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/port.h>

#include <cstdint>

namespace ffi_core {
namespace {

Allocator* g_allocator = nullptr;
bool g_allocator_set = false;  // false: the port's default is in force
TVMFFICustomAllocator* g_custom = nullptr;

// Bookkeeping the built-in object allocator keeps in front of each block's
// TVMFFIObjectAllocHeader, so delete_space can find what to give back even
// after another allocator has been installed.
// Kept small: it costs every object on an MCU.
struct BlockPrefix {
  Allocator* allocator;
  uint32_t total;        // bytes allocated
  uint16_t body_offset;  // from the start of the block to the body
  uint16_t alignment;
};

TVMFFIObjectAllocHeader* AllocHeaderOf(void* body) {
  return reinterpret_cast<TVMFFIObjectAllocHeader*>(static_cast<char*>(body) -
                                                    sizeof(TVMFFIObjectAllocHeader));
}

void BuiltinDeleteSpace(void* body) {
  BlockPrefix* prefix = reinterpret_cast<BlockPrefix*>(
      reinterpret_cast<char*>(AllocHeaderOf(body)) - sizeof(BlockPrefix));
  BlockPrefix p = *prefix;
  Deallocate(*p.allocator, static_cast<char*>(body) - p.body_offset, p.total, p.alignment);
}

// The allocator contract reports failure as NULL; the raised error carries
// the reason, so its Status has nothing more to say. The raising helpers are
// cold and out of line so the allocation path needs no large stack frame.
void* RaiseNull(Status /*raised*/) { return nullptr; }

[[gnu::cold, gnu::noinline]] void* RaiseNoAllocator(size_t size, int32_t type_index) {
  // Type indices stay numeric here: naming them would pull the whole name
  // table into every firmware that allocates.
  return RaiseNull(
      RaiseError(ErrorKind::kMemoryError,
                 {"no allocator installed (see ffi_core::SetAllocator): cannot allocate ", size,
                  " bytes for type index ", type_index}));
}

[[gnu::cold, gnu::noinline]] void* RaiseBadRequest(size_t size, size_t alignment) {
  return RaiseNull(
      RaiseError(ErrorKind::kMemoryError, {"bad object request: ", size, " bytes aligned to ",
                                           alignment, " (alignment: a power of two up to 4096)"}));
}

[[gnu::cold, gnu::noinline]] void* RaiseExhausted(size_t total, int32_t type_index) {
  return RaiseNull(RaiseError(ErrorKind::kMemoryError,
                              {"allocator exhausted (bare metal has no system heap: see "
                               "ffi_core::SetAllocator): cannot allocate ",
                               total, " bytes for type index ", type_index}));
}

void* BuiltinAllocate(size_t size, size_t alignment, int32_t type_index, void* /*context*/) {
  Allocator* a = GetAllocator();
  if (a == nullptr) return RaiseNoAllocator(size, type_index);
  if (alignment < alignof(BlockPrefix)) alignment = alignof(BlockPrefix);
  const size_t body_offset =
      AlignUp(sizeof(BlockPrefix) + sizeof(TVMFFIObjectAllocHeader), alignment);
  if (!IsPowerOfTwo(alignment) || alignment > 4096 || size > UINT32_MAX - body_offset) {
    return RaiseBadRequest(size, alignment);
  }
  const size_t total = body_offset + size;
  void* base = Allocate(*a, total, alignment);
  if (base == nullptr) return RaiseExhausted(total, type_index);
  char* body = static_cast<char*>(base) + body_offset;
  AllocHeaderOf(body)->delete_space = &BuiltinDeleteSpace;
  BlockPrefix* prefix = reinterpret_cast<BlockPrefix*>(
      reinterpret_cast<char*>(AllocHeaderOf(body)) - sizeof(BlockPrefix));
  *prefix = BlockPrefix{a, static_cast<uint32_t>(total), static_cast<uint16_t>(body_offset),
                        static_cast<uint16_t>(alignment)};
  return body;
}

TVMFFICustomAllocator g_builtin = {&BuiltinAllocate, nullptr};

// The port's system heap (none on bare metal: every request gets NULL).
void* SystemHeapAllocate(void*, size_t size, size_t alignment) {
  return port::SystemAllocate(size, alignment);
}
void SystemHeapDeallocate(void*, void* ptr, size_t, size_t) { port::SystemFree(ptr); }
// Constant, so it stays in flash: nothing writes through an Allocator*.
constexpr Allocator kSystem = {&SystemHeapAllocate, &SystemHeapDeallocate, nullptr};

}  // namespace

void SetAllocator(Allocator* allocator) {
  g_allocator = allocator;
  g_allocator_set = true;
}
Allocator* SystemAllocator() { return const_cast<Allocator*>(&kSystem); }
Allocator* GetAllocator() { return g_allocator_set ? g_allocator : SystemAllocator(); }

TVMFFICustomAllocator* CurrentCustomAllocator() {
  return g_custom != nullptr ? g_custom : &g_builtin;
}
void SetCustomAllocator(TVMFFICustomAllocator* allocator) { g_custom = allocator; }

namespace {
// The contract says the allocator raised (a MemoryError); make sure something
// is there. Cold: kept off the allocation path.
[[gnu::cold, gnu::noinline]] Status AllocatorReturnedNull(size_t size) {
  if (!HasPendingError()) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"custom allocator returned NULL for ", size, " bytes"});
  }
  return Status(ErrorKind::kMemoryError);
}
}  // namespace

Expected<void*> AllocateObjectStorage(size_t size, size_t alignment, int32_t type_index) {
  TVMFFICustomAllocator* custom = CurrentCustomAllocator();
  void* body = custom->allocate(size, alignment, type_index, custom->context);
  if (body == nullptr) return AllocatorReturnedNull(size);
  return body;
}

void FreeObjectStorage(void* body) {
  TVMFFIObjectAllocHeader* header = AllocHeaderOf(body);
  if (header->delete_space != nullptr) header->delete_space(body);
}

}  // namespace ffi_core
