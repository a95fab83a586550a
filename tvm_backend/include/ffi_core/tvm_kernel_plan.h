/*
 * ffi-core: a model's kernels run as one table over one workspace.
 *
 * The compile path (ffi_core_tvm/single_call.py) turns a Relax main that is
 * a straight line of kernels into one kernel call: generated C holding a
 * plan (the kernels in order and, for each argument of each, the pointer
 * it lies in: an input, a constant, an output or the workspace; its byte
 * offset there, its shape and type) and a function of those pointers that
 * runs it. The VM then makes one call an inference instead of several
 * builtin calls a layer. The same plan is the model's direct entry,
 * ffi_core_<model>_run(buffers), for a firmware that runs it without the VM
 * (docs/run-a-model.md). C99 and C++.
 */
#ifndef FFI_CORE_TVM_KERNEL_PLAN_H_
#define FFI_CORE_TVM_KERNEL_PLAN_H_

#include <stdint.h>
#include <tvm/ffi/c_api.h>
#include <tvm/runtime/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where each buffer of a direct entry starts: the plan's workspace regions
 * and the C kernels' vector loads assume it. */
#define FFI_CORE_TVM_KERNEL_PLAN_ALIGNMENT 16

/* The most arguments of one step: their DLTensors are on the stack of every
 * inference. The compile path keeps to it; the runner refuses more. */
#define FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS 6

/* One tensor of a plan: a view into pointer `base`. ndim, dtype and shape
 * lie as in a DLTensor, so that the three are copied as one. */
typedef struct {
  int32_t ndim;
  DLDataType dtype;
  const int64_t* shape;
  uint32_t offset; /* bytes from the pointer */
  uint32_t base;   /* index into the table function's pointers */
} FFICoreTVMKernelArg;

/* One kernel call (its packed entry) and its num_args arguments, each an
 * index into the plan's tensors. */
typedef struct {
  TVMFFISafeCallType kernel;
  const uint16_t* args;
  uint32_t num_args;
} FFICoreTVMKernelStep;

typedef struct {
  const FFICoreTVMKernelArg* tensors; /* each view the steps take, once */
  const FFICoreTVMKernelStep* steps;
  uint16_t num_tensors;
  uint16_t num_steps;
  uint16_t max_args; /* the most arguments of one step */
  /* The first tensors are those into the inputs (pointers below
   * FFICoreTVMPlannedMain's num_inputs): a kept plan refreshes only them. */
  uint16_t num_input_tensors;
} FFICoreTVMKernelPlan;

/* Runs `plan` over its pointers. A plan over FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS
 * arguments a step is a ValueError; a kernel's failure is passed on (its
 * non-zero return, its error raised). */
TVM_DLL int FFICoreTVMRunKernelPlan(const FFICoreTVMKernelPlan* plan, void* const* bases);

/* What TVM's main does around a plan whose main returns one new tensor,
 * for the VM to do without it (tvm_backend/src/vm/vm_planned.cc): the
 * table function's pointers are the inputs, the constants (each an index
 * into the executable's constant pool), the workspace and the output; the
 * output and the workspace share one storage of storage_bytes, the output
 * at its start. The compile path registers it as the system library's
 * packed function ffi_core_planned_<function>, which returns its address. */
typedef struct {
  const FFICoreTVMKernelPlan* plan;
  const FFICoreTVMKernelArg* inputs; /* main's parameters: ndim, dtype, shape */
  const uint32_t* constants;
  FFICoreTVMKernelArg output;
  uint32_t num_inputs;
  uint32_t num_constants;
  uint32_t storage_bytes;
  uint32_t workspace_offset;
} FFICoreTVMPlannedMain;

/* A plan kept from call to call: its tensors as num_tensors DLTensors at
 * `views`, made once over `bases` by Prepare; Run then refreshes only the
 * views into the inputs from `bases` (the other pointers must not have
 * moved) and runs the steps on them. Errors as FFICoreTVMRunKernelPlan's. */
TVM_DLL void FFICoreTVMPrepareKernelPlan(const FFICoreTVMKernelPlan* plan, void* const* bases,
                                         DLTensor* views);
TVM_DLL int FFICoreTVMRunPreparedKernelPlan(const FFICoreTVMKernelPlan* plan, void* const* bases,
                                            DLTensor* views);

/* A direct entry's check of its caller's buffers: each of the num_buffers
 * pointers non-NULL and on FFI_CORE_TVM_KERNEL_PLAN_ALIGNMENT. Otherwise a
 * ValueError naming `entry` and the buffer, and -1. Their sizes are the
 * caller's to keep (model.json lists them). */
TVM_DLL int FFICoreTVMCheckBuffers(const char* entry, void* const* buffers, uint32_t num_buffers);

#ifdef __cplusplus
}
#endif

#endif  // FFI_CORE_TVM_KERNEL_PLAN_H_
