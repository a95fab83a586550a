// Hash pieces shared by the recursive and the structural hash: a type's key
// hash, and a shape's hash (its type, rank and dimensions).
#ifndef FFI_CORE_EXTRA_FRONTEND_VALUE_HASH_H_
#define FFI_CORE_EXTRA_FRONTEND_VALUE_HASH_H_

#include <ffi_core/container/any_hash.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace frontend {

inline uint64_t TypeKeyHash(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info != nullptr ? info->type_key_hash : static_cast<uint64_t>(type_index);
}

inline uint64_t ShapeHash(TVMFFIObject* shape) {
  const TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(shape);
  uint64_t h = HashCombine(TypeKeyHash(kTVMFFIShape), cell->size);
  for (size_t i = 0; i < cell->size; ++i) h = HashCombine(h, static_cast<uint64_t>(cell->data[i]));
  return h;
}

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_VALUE_HASH_H_
