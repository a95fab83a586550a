// EnvContext: what the environment API keeps per calling context (a thread
// on the host, the program or an RTOS task on bare metal; see port.h).
// Fixed-size and all-zero-valid, so it needs neither heap nor constructor.
#ifndef FFI_CORE_ENV_CONTEXT_H_
#define FFI_CORE_ENV_CONTEXT_H_

#include <ffi_core/config.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {

struct StreamEntry {
  int32_t device_type;
  int32_t device_id;
  void* stream;  // NULL: the entry is free
};

struct EnvContext {
  StreamEntry streams[FFI_CORE_STREAM_TABLE_CAPACITY];
  // This context's tensor allocator, or NULL to use the process-wide one.
  DLPackManagedTensorAllocator dlpack_allocator;
};

}  // namespace ffi_core

#endif  // FFI_CORE_ENV_CONTEXT_H_
