// FFICoreTVMRunKernelPlan: each step's arguments as DLTensors on the stack,
// views into the table function's pointers, then the kernel's packed call.
// TVM's main checked the model's inputs and made the outputs and the
// workspace to the plan's sizes; the kernels check nothing again.
#include <ffi_core/error.h>
#include <ffi_core/tvm_kernel_plan.h>

namespace {

constexpr int kMaxArgs = FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS;

__attribute__((noinline, cold)) int RefuseArgs(int n) {
  static_cast<void>(ffi_core::RaiseError(
      ffi_core::ErrorKind::kValueError,
      {"kernel plan: a step of ", n, " arguments, over FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS"}));
  return -1;
}

}  // namespace

extern "C" int FFICoreTVMRunKernelPlan(const FFICoreTVMKernelPlan* plan, void* const* bases) {
  if (plan->max_args > kMaxArgs) return RefuseArgs(plan->max_args);
  DLTensor views[kMaxArgs];
  TVMFFIAny call_args[kMaxArgs];
  for (int i = 0; i < kMaxArgs; ++i) {
    views[i].device = DLDevice{kDLCPU, 0};
    views[i].strides = nullptr;
    views[i].byte_offset = 0;
    call_args[i].type_index = kTVMFFIDLTensorPtr;
    call_args[i].zero_padding = 0;
    call_args[i].v_ptr = &views[i];
  }
  const FFICoreTVMKernelStep* end = plan->steps + plan->num_steps;
  for (const FFICoreTVMKernelStep* s = plan->steps; s != end; ++s) {
    const FFICoreTVMKernelArg* a = plan->args + s->first_arg;
    for (int i = 0; i < s->num_args; ++i, ++a) {
      views[i].data = static_cast<char*>(bases[a->base]) + a->offset;
      views[i].ndim = a->ndim;
      views[i].dtype = a->dtype;
      views[i].shape = const_cast<int64_t*>(a->shape);
    }
    TVMFFIAny result;
    result.type_index = kTVMFFINone;
    result.zero_padding = 0;
    result.v_int64 = 0;
    const int rc = s->kernel(nullptr, call_args, s->num_args, &result);
    if (rc != 0) return rc;
  }
  return 0;
}
