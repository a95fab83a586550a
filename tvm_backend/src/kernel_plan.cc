// FFICoreTVMRunKernelPlan: each step's arguments as DLTensors on the stack,
// views into the table function's pointers, then the kernel's packed call.
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
  for (int i = 0; i < kMaxArgs; ++i) {
    views[i].device = DLDevice{kDLCPU, 0};
    views[i].strides = nullptr;
    views[i].byte_offset = 0;
    call_args[i].type_index = kTVMFFIDLTensorPtr;
    call_args[i].zero_padding = 0;
    call_args[i].v_ptr = &views[i];
  }
  // TVM's kernels return nothing: the result stays None.
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  const FFICoreTVMKernelStep* end = plan->steps + plan->num_steps;
  for (const FFICoreTVMKernelStep* s = plan->steps; s != end; ++s) {
    const FFICoreTVMKernelArg* a = s->args;
    // Unrolled: a loop's count and end cost a division a step at -Os.
    switch (s->num_args) {
      case 6:
        Fill(&views[5], a[5], bases);
        [[fallthrough]];
      case 5:
        Fill(&views[4], a[4], bases);
        [[fallthrough]];
      case 4:
        Fill(&views[3], a[3], bases);
        [[fallthrough]];
      case 3:
        Fill(&views[2], a[2], bases);
        [[fallthrough]];
      case 2:
        Fill(&views[1], a[1], bases);
        [[fallthrough]];
      case 1:
        Fill(&views[0], a[0], bases);
        break;
      default:
        break;
    }
    const int rc = s->kernel(nullptr, call_args, static_cast<int32_t>(s->num_args), &result);
    if (rc != 0) return rc;
  }
  return 0;
}
