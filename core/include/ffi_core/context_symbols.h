// The context symbols registered so far (TVMFFIEnvModRegisterContextSymbol),
// for code that cannot include the rest of ffi-core's headers: the C++ API
// layer built with upstream's headers (extra/cxx_api) reads them for
// tvm::ffi::Module::VisitContextSymbols.
#ifndef FFI_CORE_CONTEXT_SYMBOLS_H_
#define FFI_CORE_CONTEXT_SYMBOLS_H_

#include <cstddef>

namespace ffi_core {

// Copies up to `capacity` registered (name, symbol) pairs into `names` and
// `symbols` and returns how many there are; a copy, so the caller may run
// anything over them without holding the table's lock.
size_t CopyContextSymbols(const char** names, void** symbols, size_t capacity);

}  // namespace ffi_core

#endif  // FFI_CORE_CONTEXT_SYMBOLS_H_
