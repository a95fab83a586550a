// Internal: what the global function table tells the metadata store
// (global_metadata.cc). Weak, so a firmware that registers no function with
// metadata links no store; the table calls it only when it is there.
#ifndef FFI_CORE_SRC_FUNCTION_GLOBAL_METADATA_H_
#define FFI_CORE_SRC_FUNCTION_GLOBAL_METADATA_H_

#include <cstddef>

// The function registered as `name` was replaced or removed: its metadata goes with it.
extern "C" __attribute__((weak)) void ffi_core_global_function_dropped(const char* name,
                                                                       size_t size);

#endif  // FFI_CORE_SRC_FUNCTION_GLOBAL_METADATA_H_
