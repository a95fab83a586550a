/*
 * ffi-core: TVM's backend C API, the runtime functions that TVM-generated
 * kernels call (same names and signatures as Apache TVM's
 * tvm/runtime/c_backend_api.h). Implemented by the ffi_core_tvm library.
 */
#ifndef TVM_RUNTIME_C_BACKEND_API_H_
#define TVM_RUNTIME_C_BACKEND_API_H_

#include <tvm/runtime/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch memory for one kernel invocation, freed before it returns (in
 * reverse order). NULL with a MemoryError raised when none is left. */
TVM_RUNTIME_DLL void* TVMBackendAllocWorkspace(int device_type, int device_id, uint64_t nbytes,
                                               int dtype_code_hint, int dtype_bits_hint);
/* Gives back a block from TVMBackendAllocWorkspace; non-zero with a
 * ValueError raised for a pointer that is not one. */
TVM_RUNTIME_DLL int TVMBackendFreeWorkspace(int device_type, int device_id, void* ptr);

/* What a parallel task sees: sync_handle is runtime-private. */
typedef struct {
  void* sync_handle;
  int32_t num_task;
} TVMParallelGroupEnv;

typedef int (*FTVMParallelLambda)(int task_id, TVMParallelGroupEnv* penv, void* cdata);

/* Runs flambda over the tasks of a parallel loop and returns its result.
 * ffi-core runs them serially: one task (task_id 0, num_task 1) does the
 * whole loop, on every target. */
TVM_RUNTIME_DLL int TVMBackendParallelLaunch(FTVMParallelLambda flambda, void* cdata, int num_task);
/* Synchronises the tasks of a launch; a no-op for a single task. */
TVM_RUNTIME_DLL int TVMBackendParallelBarrier(int task_id, TVMParallelGroupEnv* penv);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_C_BACKEND_API_H_ */
