// DLDataType <-> text, with upstream's spellings ("int32", "float16x4",
// "bool", "bfloat16", "float8_e4m3fn", "handle", "" / "void", and the
// short forms "i32", "u8", "f32", "bf16").
#ifndef FFI_CORE_DTYPE_H_
#define FFI_CORE_DTYPE_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>

namespace ffi_core {

// Longest canonical name, NUL included ("float8_e4m3b11fnuzx65535").
inline constexpr size_t kDataTypeNameCapacity = 32;

Status DataTypeFromString(const char* text, size_t size, DLDataType* out);
// Writes the canonical name (NUL-terminated) into buf; *size gets its length.
TVM_FFI_DLL Status DataTypeToString(DLDataType dtype, char (&buf)[kDataTypeNameCapacity],
                                    size_t* size);

}  // namespace ffi_core

#endif  // FFI_CORE_DTYPE_H_
