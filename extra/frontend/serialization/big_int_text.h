// Big integers (kTVMFFIBigInt: two's complement 64-bit words, least
// significant first) to and from decimal text, for repr and JSON graphs.
#ifndef FFI_CORE_EXTRA_FRONTEND_SERIALIZATION_BIG_INT_TEXT_H_
#define FFI_CORE_EXTRA_FRONTEND_SERIALIZATION_BIG_INT_TEXT_H_

#include <ffi_core/any.h>
#include <ffi_core/expected.h>
#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include "text_builder.h"

namespace ffi_core {
namespace frontend {

Status AppendBigIntDecimal(TextBuilder& out, TVMFFIByteArray words);
// An integer from optional '-' and decimal digits: an Int when it fits in
// int64, else a BigInt. Anything else is a ValueError.
Expected<Any> IntegerFromDecimal(const char* text, size_t size);

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_SERIALIZATION_BIG_INT_TEXT_H_
