// The global function table: a fixed number of name -> Function entries
// (FFI_CORE_GLOBAL_FUNCTION_CAPACITY), behind TVMFFIFunctionSetGlobal and
// TVMFFIFunctionGetGlobal. Names are copied into String values, so long
// names take memory from the installed allocator.
#ifndef FFI_CORE_REGISTRY_H_
#define FFI_CORE_REGISTRY_H_

#include <ffi_core/function.h>
#include <ffi_core/string.h>

#include <cstddef>

namespace ffi_core {

Status RegisterGlobalFunction(const char* name, size_t name_size, const Function& f,
                              bool allow_override);
// An empty Function (and success) when no entry has that name.
TVM_FFI_DLL Expected<Function> GetGlobalFunction(const char* name, size_t name_size);
// Drops the entry `name`; false when there is none.
bool RemoveGlobalFunction(const char* name, size_t name_size);
size_t GlobalFunctionCount();
// The name of the index-th registered function (table order); an empty
// String past the end.
Expected<String> GlobalFunctionName(size_t index);
// The metadata (JSON) the function `name` was registered with through
// TVMFFIFunctionSetGlobalFromMethodInfo; empty when it had none.
Expected<String> GlobalFunctionMetadata(const char* name, size_t name_size);
// Releases every entry (for tests and orderly shutdown).
void ClearGlobalFunctions();

}  // namespace ffi_core

#endif  // FFI_CORE_REGISTRY_H_
