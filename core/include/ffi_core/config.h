// Build-time capacities and switches, each overridable with -D. CMake passes
// most of them from cache options whose defaults differ between boards and
// the host (scripts/capacities.sh prints them); the values below hold only
// where a build passes none.
#ifndef FFI_CORE_CONFIG_H_
#define FFI_CORE_CONFIG_H_

// Bytes kept for an error's kind ("TypeError"), including the terminator.
#ifndef FFI_CORE_ERROR_KIND_CAPACITY
#define FFI_CORE_ERROR_KIND_CAPACITY 24
#endif

// Bytes kept for an error's message, including the terminator. Longer
// messages are cut and end with FFI_CORE_TRUNCATION_MARKER.
#ifndef FFI_CORE_ERROR_MESSAGE_CAPACITY
#define FFI_CORE_ERROR_MESSAGE_CAPACITY 320
#endif

// Error objects in the pool shared by every calling context (error.cc):
// each pending error, and each error a caller holds, takes one until its last
// reference goes. When all are taken a static MemoryError stands in.
#ifndef FFI_CORE_ERROR_POOL_SIZE
#define FFI_CORE_ERROR_POOL_SIZE 2
#endif

// When 1, errors keep backtraces (TVMFFIBacktrace's lines, and what
// update_backtrace adds), in storage from the installed allocator; when 0
// they keep none and updates are dropped.
#ifndef FFI_CORE_ERROR_BACKTRACES
#define FFI_CORE_ERROR_BACKTRACES 0
#endif

// Entries in the global function table.
#ifndef FFI_CORE_GLOBAL_FUNCTION_CAPACITY
#define FFI_CORE_GLOBAL_FUNCTION_CAPACITY 32
#endif

// When 1, TVMFFIFunctionCall verifies the zero-padding invariants of every
// argument and fails with a ValueError instead of passing garbage on.
#ifndef FFI_CORE_CHECK_PADDING
#define FFI_CORE_CHECK_PADDING 0
#endif

// When 1, checking mode lets a container argument (Array, List, Map, Dict)
// carry a non-zero zero_padding word: upstream's Python package builds such
// an argument on its stack, writing only the type index and the pointer,
// when it asks ffi.ContainerFindFirstNonCPUDevice for a tagged container's
// device. On for the host runtime that stands in for upstream's, off for
// boards, where every writer is the project's own.
#ifndef FFI_CORE_ACCEPT_UPSTREAM_PADDING
#define FFI_CORE_ACCEPT_UPSTREAM_PADDING 0
#endif

// Largest tensor rank accepted from callers (DLPack imports, views, allocs).
#ifndef FFI_CORE_TENSOR_MAX_NDIM
#define FFI_CORE_TENSOR_MAX_NDIM 16
#endif

// (device type, device id) -> stream entries per calling context.
#ifndef FFI_CORE_STREAM_TABLE_CAPACITY
#define FFI_CORE_STREAM_TABLE_CAPACITY 8
#endif

// Symbols in the system library table (TVMFFIEnvModRegisterSystemLibSymbol).
#ifndef FFI_CORE_SYSTEM_LIB_CAPACITY
#define FFI_CORE_SYSTEM_LIB_CAPACITY 32
#endif

// The type registry (type_table.h, reflection.cc, type_attr.cc). Static
// types are always registered; these bound what callers add.
// Dynamic types (indices from kTVMFFIDynObjectBegin).
#ifndef FFI_CORE_TYPE_CAPACITY
#define FFI_CORE_TYPE_CAPACITY 16
#endif

// Deepest inheritance chain of a dynamic type (ffi.Object is depth 0).
#ifndef FFI_CORE_TYPE_MAX_DEPTH
#define FFI_CORE_TYPE_MAX_DEPTH 4
#endif

// Reflected fields and methods over all types.
#ifndef FFI_CORE_TYPE_FIELD_CAPACITY
#define FFI_CORE_TYPE_FIELD_CAPACITY 16
#endif
#ifndef FFI_CORE_TYPE_METHOD_CAPACITY
#define FFI_CORE_TYPE_METHOD_CAPACITY 16
#endif

// Static types that may take reflection (fields, methods, metadata): each
// one's information moves, the first time, from the read-only table to a
// writable copy. Upstream's runtime reflects ffi.Module's `imports_`, which
// the host registers; a board registers none.
#ifndef FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY
#define FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY 0
#endif

// Bytes for copied type keys, names, docs and metadata.
#ifndef FFI_CORE_TYPE_TEXT_CAPACITY
#define FFI_CORE_TYPE_TEXT_CAPACITY 1024
#endif

// Type attribute columns, and the TVMFFIAny cells their data is cut from.
#ifndef FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY
#define FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY 4
#endif
#ifndef FFI_CORE_TYPE_ATTR_CELL_CAPACITY
#define FFI_CORE_TYPE_ATTR_CELL_CAPACITY 64
#endif

// Distinct prefixes ("ffi.SystemLib" arguments) with a system library module.
#ifndef FFI_CORE_SYSTEM_LIB_PREFIX_CAPACITY
#define FFI_CORE_SYSTEM_LIB_PREFIX_CAPACITY 2
#endif

// Context symbols (TVMFFIEnvModRegisterContextSymbol) written into every
// library the host loads, e.g. TVM's "__TVMBackendAllocWorkspace".
#ifndef FFI_CORE_CONTEXT_SYMBOL_CAPACITY
#define FFI_CORE_CONTEXT_SYMBOL_CAPACITY 12
#endif

// Modules one module may import (e.g. the executable a library embeds).
#ifndef FFI_CORE_MODULE_IMPORT_CAPACITY
#define FFI_CORE_MODULE_IMPORT_CAPACITY 2
#endif

// Kinds of module a library may embed in __tvm_ffi__library_bin with a
// loader (RegisterLibraryBinLoader), e.g. "relax.VMExecutable".
#ifndef FFI_CORE_LIBRARY_BIN_LOADER_CAPACITY
#define FFI_CORE_LIBRARY_BIN_LOADER_CAPACITY 2
#endif

#define FFI_CORE_TRUNCATION_MARKER "...[truncated]"

#endif  // FFI_CORE_CONFIG_H_
