// The type table behind TVMFFITypeKeyToIndex, TVMFFITypeGetOrAllocIndex and
// TVMFFIGetTypeInfo. Static types are read-only data under upstream's keys;
// dynamic types take one of FFI_CORE_TYPE_CAPACITY fixed entries, so type
// information never moves once handed out. Nothing here is linked into a
// firmware that never asks about types.
#ifndef FFI_CORE_TYPE_TABLE_H_
#define FFI_CORE_TYPE_TABLE_H_

#include <ffi_core/expected.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace ffi_core {

// Returns the index registered under type_key, allocating one for a new
// dynamic type (see TVMFFITypeGetOrAllocIndex in c_api.h).
Expected<int32_t> GetOrAllocTypeIndex(const TVMFFIByteArray& type_key, int32_t static_type_index,
                                      int32_t type_depth, int32_t num_child_slots,
                                      bool child_slots_can_overflow, int32_t parent_type_index);
// The index registered under type_key, or -1.
int32_t FindTypeIndex(const TVMFFIByteArray& type_key);
// The type's information, or NULL when not registered.
const TVMFFITypeInfo* FindTypeInfo(int32_t type_index);
// The i-th registered type (static ones first, then dynamic ones in the
// order they were registered), or NULL past the last: for listing them all.
const TVMFFITypeInfo* RegisteredTypeInfo(size_t i);
// What reflection updates in place (under the global lock) for a type. A
// static type's information is read-only data: the first time it takes
// reflection it moves to a writable copy (FindTypeInfo answers with the copy
// from then on), or, past FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY of them,
// a MemoryError is raised; an unknown index raises a KeyError naming function.
struct DynamicTypeInfo {
  TVMFFITypeInfo* info;
  TVMFFITypeMetadata* metadata;
};
Expected<DynamicTypeInfo> FindDynamicTypeInfo(const char* function, int32_t type_index);
// Copies bytes into the registry's text pool (FFI_CORE_TYPE_TEXT_CAPACITY),
// NUL-terminated; raises a MemoryError when it is full. Never freed: types
// are never unregistered.
Expected<TVMFFIByteArray> CopyTypeText(const TVMFFIByteArray& text);

}  // namespace ffi_core

#endif  // FFI_CORE_TYPE_TABLE_H_
