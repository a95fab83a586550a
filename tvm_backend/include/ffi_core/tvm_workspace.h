/*
 * ffi-core: where TVMBackendAllocWorkspace takes its memory from.
 *
 * By default the workspace is carved from the allocator installed in
 * ffi-core (ffi_core::SetAllocator): malloc on the host unless replaced,
 * nothing on bare metal until the firmware installs one. A firmware may
 * instead hand over a buffer, or build with FFI_CORE_TVM_WORKSPACE_BYTES
 * > 0 for a static one. Blocks come and go in stack order, as TVM's kernels
 * allocate and free them. C99 and C++.
 */
#ifndef FFI_CORE_TVM_WORKSPACE_H_
#define FFI_CORE_TVM_WORKSPACE_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every block's alignment (enough for any vector unit of the targets). */
#define FFI_CORE_TVM_WORKSPACE_ALIGNMENT 16

/* Uses `buffer` (size bytes, any alignment) for every later workspace block;
 * NULL goes back to the default. Fails (non-zero, ValueError) while blocks
 * are live. The buffer must outlive its use. */
TVM_DLL int FFICoreTVMSetWorkspace(void* buffer, size_t size);

typedef struct {
  size_t capacity;    /* bytes of the workspace buffer; 0 when none is set */
  size_t in_use;      /* bytes held by live blocks, headers and padding included */
  size_t peak;        /* most bytes in use at once since the last reset */
  size_t live_blocks; /* blocks allocated and not yet freed */
  size_t failed;      /* allocations refused */
} FFICoreTVMWorkspaceStats;

TVM_DLL void FFICoreTVMGetWorkspaceStats(FFICoreTVMWorkspaceStats* out);
/* Starts peak and failed over from the current state. */
TVM_DLL void FFICoreTVMResetWorkspaceStats(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FFI_CORE_TVM_WORKSPACE_H_ */
