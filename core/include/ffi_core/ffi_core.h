// Everything a C++ user of ffi-core needs, in one include.
#ifndef FFI_CORE_FFI_CORE_H_
#define FFI_CORE_FFI_CORE_H_

#include <ffi_core/align.h>
#include <ffi_core/allocator.h>
#include <ffi_core/any.h>
#include <ffi_core/arena_allocator.h>
#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/container/shape.h>
#include <ffi_core/counting_allocator.h>
#include <ffi_core/device.h>
#include <ffi_core/dtype.h>
#include <ffi_core/error.h>
#include <ffi_core/expected.h>
#include <ffi_core/export.h>
#include <ffi_core/function.h>
#include <ffi_core/heap_allocator.h>
#include <ffi_core/module.h>
#include <ffi_core/object.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>
#include <ffi_core/padding_check.h>
#include <ffi_core/pool_allocator.h>
#include <ffi_core/registry.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/status.h>
#include <ffi_core/string.h>
#include <ffi_core/tensor.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#endif  // FFI_CORE_FFI_CORE_H_
