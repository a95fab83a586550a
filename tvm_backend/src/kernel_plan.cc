// FFICoreTVMRunKernelPlan: each step's arguments as DLTensors on the stack,
// views into the table function's pointers, then the kernel's packed call;
// or, for a plan kept from call to call, the views made once.
// TVM's main checked the model's inputs and made the outputs and the
// workspace to the plan's sizes, or a direct entry's caller passed buffers
// FFICoreTVMCheckBuffers took; the kernels check nothing again.
#include <ffi_core/error.h>
#include <ffi_core/tvm_kernel_plan.h>

#include <cstddef>
#include <cstring>

namespace {

// ndim, dtype and shape, copied as one, lie as in a DLTensor.
constexpr size_t kLayoutBytes = offsetof(DLTensor, strides) - offsetof(DLTensor, ndim);
static_assert(offsetof(FFICoreTVMKernelArg, ndim) == 0 &&
                  offsetof(FFICoreTVMKernelArg, dtype) ==
                      offsetof(DLTensor, dtype) - offsetof(DLTensor, ndim) &&
                  offsetof(FFICoreTVMKernelArg, shape) ==
                      offsetof(DLTensor, shape) - offsetof(DLTensor, ndim) &&
                  offsetof(FFICoreTVMKernelArg, offset) == kLayoutBytes,
              "ndim, dtype and shape lie as in a DLTensor");

constexpr int kMaxArgs = FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS;
static_assert(kMaxArgs == 6, "FFICoreTVMRunKernelPlan's switch fills up to 6 views");

__attribute__((always_inline)) inline void Fill(DLTensor* v, const FFICoreTVMKernelArg& a,
                                                void* const* bases) {
  v->data = static_cast<char*>(bases[a.base]) + a.offset;
  std::memcpy(&v->ndim, &a, kLayoutBytes);
}

// The fields no plan sets: a CPU tensor, compact, no offset.
void Clear(DLTensor* v) {
  v->device = DLDevice{kDLCPU, 0};
  v->strides = nullptr;
  v->byte_offset = 0;
}

// Each argument a DLTensor pointer, views[i] for the i-th.
void PointAt(TVMFFIAny* args, DLTensor* views) {
  for (int i = 0; i < kMaxArgs; ++i) {
    args[i].type_index = kTVMFFIDLTensorPtr;
    args[i].zero_padding = 0;
    args[i].v_ptr = &views[i];
  }
}

// TVM's kernels return nothing: the result stays None.
TVMFFIAny NoResult() {
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  return result;
}

__attribute__((noinline, cold)) int RefuseArgs(int n) {
  static_cast<void>(ffi_core::RaiseError(
      ffi_core::ErrorKind::kValueError,
      {"kernel plan: a step of ", n, " arguments, over FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS"}));
  return -1;
}

__attribute__((noinline, cold)) int RefuseBuffer(const char* entry, uint32_t k, const void* p) {
  static_cast<void>(ffi_core::RaiseError(
      ffi_core::ErrorKind::kValueError,
      {entry, ": buffer ", static_cast<int64_t>(k),
       p == nullptr ? " is NULL" : " is not on FFI_CORE_TVM_KERNEL_PLAN_ALIGNMENT (16 bytes)"}));
  return -1;
}

// Runs each step: ready(i, t) makes argument i the plan's tensor t, then
// the kernel is called on call_args.
template <typename Ready>
__attribute__((always_inline)) inline int RunSteps(const FFICoreTVMKernelPlan* plan,
                                                   const TVMFFIAny* call_args, Ready ready) {
  TVMFFIAny result = NoResult();
  const FFICoreTVMKernelStep* end = plan->steps + plan->num_steps;
  for (const FFICoreTVMKernelStep* s = plan->steps; s != end; ++s) {
    const uint16_t* a = s->args;
    // Unrolled: a loop's count and end cost a division a step at -Os.
    switch (s->num_args) {
      case 6:
        ready(5, a[5]);
        [[fallthrough]];
      case 5:
        ready(4, a[4]);
        [[fallthrough]];
      case 4:
        ready(3, a[3]);
        [[fallthrough]];
      case 3:
        ready(2, a[2]);
        [[fallthrough]];
      case 2:
        ready(1, a[1]);
        [[fallthrough]];
      case 1:
        ready(0, a[0]);
        break;
      default:
        break;
    }
    const int rc = s->kernel(nullptr, call_args, static_cast<int32_t>(s->num_args), &result);
    if (rc != 0) return rc;
  }
  return 0;
}

}  // namespace

extern "C" int FFICoreTVMCheckBuffers(const char* entry, void* const* buffers,
                                      uint32_t num_buffers) {
  for (uint32_t k = 0; k < num_buffers; ++k) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(buffers[k]);
    if (at == 0 || at % FFI_CORE_TVM_KERNEL_PLAN_ALIGNMENT != 0) {
      return RefuseBuffer(entry, k, buffers[k]);
    }
  }
  return 0;
}

extern "C" int FFICoreTVMRunKernelPlan(const FFICoreTVMKernelPlan* plan, void* const* bases) {
  if (plan->max_args > kMaxArgs) return RefuseArgs(plan->max_args);
  DLTensor views[kMaxArgs];
  TVMFFIAny call_args[kMaxArgs];
  for (DLTensor& v : views) Clear(&v);
  PointAt(call_args, views);
  const FFICoreTVMKernelArg* tensors = plan->tensors;
  return RunSteps(
      plan, call_args, [&](int i, uint16_t t) __attribute__((always_inline)) {
        Fill(&views[i], tensors[t], bases);
      });
}

extern "C" void FFICoreTVMPrepareKernelPlan(const FFICoreTVMKernelPlan* plan, void* const* bases,
                                            DLTensor* views) {
  for (uint32_t v = 0; v < plan->num_tensors; ++v) {
    Clear(&views[v]);
    Fill(&views[v], plan->tensors[v], bases);
  }
}

extern "C" int FFICoreTVMRunPreparedKernelPlan(const FFICoreTVMKernelPlan* plan, void* const* bases,
                                               DLTensor* views) {
  if (plan->max_args > kMaxArgs) return RefuseArgs(plan->max_args);
  for (uint32_t v = 0; v < plan->num_input_tensors; ++v) {
    const FFICoreTVMKernelArg& t = plan->tensors[v];
    views[v].data = static_cast<char*>(bases[t.base]) + t.offset;
  }
  TVMFFIAny call_args[kMaxArgs];
  PointAt(call_args, views);
  return RunSteps(
      plan, call_args, [&](int i, uint16_t t) __attribute__((always_inline)) {
        call_args[i].v_ptr = &views[t];
      });
}
