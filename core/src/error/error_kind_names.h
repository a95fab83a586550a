// Internal: the error kinds' names with their lengths (status.cc's table),
// so raising by kind needs no strlen.
#ifndef FFI_CORE_SRC_ERROR_ERROR_KIND_NAMES_H_
#define FFI_CORE_SRC_ERROR_ERROR_KIND_NAMES_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {

// ErrorKindName's text and its length.
const TVMFFIByteArray& ErrorKindNameBytes(ErrorKind kind);

}  // namespace ffi_core

#endif  // FFI_CORE_SRC_ERROR_ERROR_KIND_NAMES_H_
