// FFICoreTVMRunKernelPlan: each step's kernel sees its arguments as DLTensors
// at the plan's pointers, offsets, shapes and types, in order; a kernel's
// failure stops the plan and comes back with its error; a plan over the
// argument limit is refused before any kernel runs; a prepared plan runs
// the same, reading only its input's pointer again. Host only: the runner's
// code is the same on every board (the models' tests run it there).
#include <ffi_core/error.h>
#include <ffi_core/tvm_kernel_plan.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace {

int g_failed = 0;
int g_calls = 0;
int64_t g_first_output_dims[2] = {};  // the first call's y: ndim, shape[0]

void Check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  if (!ok) ++g_failed;
}

const DLTensor* Arg(const TVMFFIAny* args, int i) {
  return args[i].type_index == kTVMFFIDLTensorPtr ? static_cast<const DLTensor*>(args[i].v_ptr)
                                                  : nullptr;
}

// y[i] = x[i] + 1 over int8 tensors of equal size.
int AddOne(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny*) {
  const DLTensor* x = Arg(args, 0);
  const DLTensor* y = Arg(args, 1);
  if (num_args != 2 || x == nullptr || y == nullptr || x->dtype.bits != 8 || y->dtype.bits != 8 ||
      x->byte_offset != 0 || y->strides != nullptr) {
    return -2;
  }
  if (g_calls++ == 0) {
    g_first_output_dims[0] = y->ndim;
    g_first_output_dims[1] = y->shape[0];
  }
  int64_t n = 1;
  for (int d = 0; d < x->ndim; ++d) n *= x->shape[d];
  for (int64_t i = 0; i < n; ++i) {
    static_cast<int8_t*>(y->data)[i] = static_cast<int8_t>(static_cast<int8_t*>(x->data)[i] + 1);
  }
  return 0;
}

// A kernel failing as TVM's do: its error raised, a non-zero return.
int Fails(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) {
  ++g_calls;
  static_cast<void>(ffi_core::RaiseError(ffi_core::ErrorKind::kMemoryError, {"no workspace"}));
  return -1;
}

bool RaisedIs(const char* kind, const char* text) {
  ffi_core::Error e = ffi_core::Error::MoveFromRaised();
  const TVMFFIByteArray k = e ? e.kind() : TVMFFIByteArray{"", 0};
  const TVMFFIByteArray m = e ? e.message() : TVMFFIByteArray{"", 0};
  std::printf("  -> %.*s: %.*s\n", static_cast<int>(k.size), k.data, static_cast<int>(m.size),
              m.data);
  return std::string_view(k.data, k.size) == kind &&
         std::string_view(m.data, m.size).find(text) != std::string_view::npos;
}

constexpr DLDataType kInt8{kDLInt, 8, 1};
const int64_t kFlat[] = {6};
const int64_t kGrid[] = {2, 3};

}  // namespace

int main() {
  // input (pointer 0) -> workspace at 16 (as 2x3) -> output (pointer 2),
  // through a view of the workspace as 6.
  const FFICoreTVMKernelArg tensors[] = {
      {1, kInt8, kFlat, 0, 0},
      {2, kInt8, kGrid, 16, 1},
      {1, kInt8, kFlat, 16, 1},
      {1, kInt8, kFlat, 0, 2},
  };
  const uint16_t args[] = {0, 1, 2, 3};
  const FFICoreTVMKernelStep steps[] = {{&AddOne, &args[0], 2}, {&AddOne, &args[2], 2}};
  const FFICoreTVMKernelPlan plan = {tensors, steps, 4, 2, 2, 1};
  int8_t in[6] = {0, 1, 2, 3, -128, 126};
  int8_t ws[32] = {};
  int8_t out[6] = {};
  void* bases[] = {in, ws, out};
  Check(FFICoreTVMRunKernelPlan(&plan, bases) == 0 && g_calls == 2, "two steps run");
  const int8_t want[6] = {2, 3, 4, 5, -126, -128};
  Check(std::memcmp(out, want, sizeof(out)) == 0, "each step at its pointer and offset");
  Check(ws[15] == 0 && ws[16] == in[0] + 1 && ws[22] == 0, "the workspace region at offset 16");
  Check(g_first_output_dims[0] == 2 && g_first_output_dims[1] == 2, "each view's shape");

  // Kept: the views made once, the input's refreshed on each run.
  DLTensor views[4];
  FFICoreTVMPrepareKernelPlan(&plan, bases, views);
  std::memset(out, 0, sizeof(out));
  g_calls = 0;
  Check(FFICoreTVMRunPreparedKernelPlan(&plan, bases, views) == 0 && g_calls == 2 &&
            std::memcmp(out, want, sizeof(out)) == 0,
        "a prepared plan runs as the plan");
  int8_t in2[6] = {10, 11, 12, 13, 14, 15};
  bases[0] = in2;
  Check(FFICoreTVMRunPreparedKernelPlan(&plan, bases, views) == 0 && out[0] == 12 && out[5] == 17,
        "a prepared plan reads the input's new pointer");
  bases[0] = in;

  // A failure stops the plan: the step after it does not run.
  const FFICoreTVMKernelStep failing[] = {
      {&AddOne, &args[0], 2}, {&Fails, &args[2], 2}, {&AddOne, &args[2], 2}};
  const FFICoreTVMKernelPlan failing_plan = {tensors, failing, 4, 3, 2, 1};
  g_calls = 0;
  Check(FFICoreTVMRunKernelPlan(&failing_plan, bases) == -1 && g_calls == 2 &&
            RaisedIs("MemoryError", "no workspace"),
        "a kernel's failure passed on");
  g_calls = 0;
  Check(FFICoreTVMRunPreparedKernelPlan(&failing_plan, bases, views) == -1 && g_calls == 2 &&
            RaisedIs("MemoryError", "no workspace"),
        "a kernel's failure passed on by a prepared plan");

  // More arguments a step than the runner's DLTensors: refused, nothing run.
  const FFICoreTVMKernelPlan wide = {tensors, steps, 4, 2, FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS + 1,
                                     1};
  g_calls = 0;
  Check(FFICoreTVMRunKernelPlan(&wide, bases) != 0 && g_calls == 0 &&
            RaisedIs("ValueError", "over FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS"),
        "a plan over the argument limit refused");
  Check(FFICoreTVMRunPreparedKernelPlan(&wide, bases, views) != 0 && g_calls == 0 &&
            RaisedIs("ValueError", "over FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS"),
        "a prepared plan over the argument limit refused");

  // A direct entry's buffers: each there and on the alignment, or a
  // ValueError naming the entry and the buffer.
  alignas(16) static int8_t aligned[32];
  void* good[] = {aligned, aligned + 16};
  Check(FFICoreTVMCheckBuffers("entry", good, 2) == 0, "aligned buffers taken");
  void* missing[] = {aligned, nullptr};
  Check(FFICoreTVMCheckBuffers("entry", missing, 2) == -1 &&
            RaisedIs("ValueError", "entry: buffer 1 is NULL"),
        "a NULL buffer refused");
  void* skewed[] = {aligned + 4, aligned};
  Check(FFICoreTVMCheckBuffers("entry", skewed, 2) == -1 &&
            RaisedIs("ValueError", "entry: buffer 0 is not on"),
        "a misaligned buffer refused");
  std::printf("%s\n", g_failed == 0 ? "kernel_plan: OK" : "kernel_plan: FAILED");
  return g_failed == 0 ? 0 : 1;
}
