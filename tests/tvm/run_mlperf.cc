// Runs one MLPerf Tiny model that ffi-core's compile path built
// (gen_mlperf.py writes MLPERF_DATA): its `main` from the system library,
// each seeded input twice (a DLTensor, then a Tensor object). Every output
// must equal TVM's own VirtualMachine's on the host, be within 1 LSB of
// LiteRT's with the same argmax, and be the same both times; a wrong dtype
// or shape must give TVM's kind and message. Memory comes from one static
// heap sized by the compile path's figure plus the runtime's; the firmware
// prints its peak and, on boards, the instructions per inference
// (SysTick clock counts: instructions under QEMU -icount shift=0).
#include <ffi_core/heap_allocator.h>
#include <ffi_core/tvm_vm.h>
#include <tvm/ffi/c_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tvm_test_support.h"

// One kernel call of the model: its arguments' shapes (int8), output last.
struct MlperfKernelCall {
  const char* name;
  int num_args;
  int64_t shapes[4][4];
  int ndims[4];
};

#include MLPERF_DATA

#ifdef MLPERF_NS_PER_COUNT_X100
#include <ffi_core_board/systick.h>
#endif

using namespace tvm_test;

namespace {

constexpr int kInputBytes = sizeof(kInputs[0]);
constexpr int kOutputBytes = sizeof(kLiteRT[0]);
// What the runtime itself takes beside the planned storage: the register
// file, tensor and shape objects.
constexpr size_t kRuntimeBytes = 8192;
ffi_core::StaticHeap<MLPERF_RAM_BYTES + kRuntimeBytes> g_heap;

DLTensor Input(const void* data, DLDataType dtype, const int64_t* shape, int ndim) {
  DLTensor t;
  std::memset(&t, 0, sizeof(t));  // the short-enum policy: zero every byte
  t.data = const_cast<void*>(data);
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype = dtype;
  t.shape = const_cast<int64_t*>(shape);
  return t;
}

struct Borrowed {
  static void Free(DLManagedTensor*) {}
};

int ArgMax(const int8_t* v) {
  int best = 0;
  for (int i = 1; i < kOutputBytes; ++i) best = v[i] > v[best] ? i : best;
  return best;
}

// The output's bytes, checked for shape and dtype; NULL when they are wrong.
const int8_t* OutputBytes(const TVMFFIAny& result) {
  if (result.type_index != kTVMFFITensor) return nullptr;
  const DLTensor* t = TVMFFITensorGetDLTensorPtr(result.v_obj);
  constexpr int kNdim = sizeof(kOutputShape) / sizeof(kOutputShape[0]);
  if (t->ndim != kNdim || t->dtype.code != kDLInt || t->dtype.bits != 8) return nullptr;
  for (int i = 0; i < kNdim; ++i) {
    if (t->shape[i] != kOutputShape[i]) return nullptr;
  }
  return static_cast<const int8_t*>(t->data) + t->byte_offset;
}

#ifdef MLPERF_NS_PER_COUNT_X100
// The cycle model (tools/cycle-model, scripts/mlperf-tiny.sh) counts from
// the entry of the first to the entry of the second, one region for each
// call Infer measures; noipa keeps both real calls to functions of their own.
extern "C" __attribute__((noipa)) void ffi_core_cycles_begin() {}
extern "C" __attribute__((noipa)) void ffi_core_cycles_end() {}
#endif

// Calls fn (main on one input, or a kernel); on boards puts its
// instructions under QEMU -icount shift=0 into *clock (SysTick counts times
// virtual ns per count).
int Infer(TVMFFIObjectHandle fn, TVMFFIAny* in, TVMFFIAny* result, uint64_t* clock,
          int num_args = 1) {
#ifdef MLPERF_NS_PER_COUNT_X100
  constexpr uint32_t kReload = 999;  // an interrupt every 1000 counts
  ffi_core_systick_start(kReload);
  while (ffi_core_systick_count() == 0) {
  }  // the counter loads kReload on the clock after start
  const uint32_t ticks0 = ffi_core_systick_ticks();
  const uint32_t val0 = ffi_core_systick_count();
  ffi_core_cycles_begin();
  const int rc = TVMFFIFunctionCall(fn, in, num_args, result);
  ffi_core_cycles_end();
  const uint32_t val1 = ffi_core_systick_count();
  const uint32_t ticks1 = ffi_core_systick_ticks();
  ffi_core_systick_stop();
  const uint64_t counts = uint64_t{ticks1 - ticks0} * (kReload + 1) + val0 - val1;
  *clock = counts * MLPERF_NS_PER_COUNT_X100 / 100;
  return rc;
#else
  *clock = 0;
  return TVMFFIFunctionCall(fn, in, num_args, result);
#endif
}

#ifdef MLPERF_NS_PER_COUNT_X100
int8_t g_scratch[MLPERF_SCRATCH_BYTES];

// Instructions in the model's kernels: each call of main's again, alone, on
// scratch data (their work does not depend on the values), through the
// system library.
uint64_t KernelInstructions(TVMFFIAny module) {
  uint64_t total = 0;
  for (const MlperfKernelCall& k : kKernelCalls) {
    TVMFFIAny args[2] = {module, None()};
    args[1].type_index = kTVMFFIRawStr;
    args[1].v_c_str = k.name;
    TVMFFIAny fn = None();
    if (CallGlobal("ffi.ModuleGetFunction", args, 2, &fn) != 0 ||
        fn.type_index != kTVMFFIFunction) {
      std::printf("FAIL kernel %s not found\n", k.name);
      ++g_failed;
      return 0;
    }
    DLTensor tensors[4];
    TVMFFIAny call_args[4];
    int8_t* at = g_scratch;
    for (int i = 0; i < k.num_args; ++i) {
      tensors[i] = Input(at, DLDataType{kDLInt, 8, 1}, k.shapes[i], k.ndims[i]);
      int64_t n = 1;
      for (int d = 0; d < k.ndims[i]; ++d) n *= k.shapes[i][d];
      at += n;
      call_args[i] = None();
      call_args[i].type_index = kTVMFFIDLTensorPtr;
      call_args[i].v_ptr = &tensors[i];
    }
    TVMFFIAny result = None();
    uint64_t clock = 0;
    TVMFFIAny* first = call_args;
    if (Infer(fn.v_obj, first, &result, &clock, k.num_args) != 0) {
      Taken t = TakeError();
      std::printf("FAIL kernel %s: %s: %s\n", k.name, t.kind, t.message);
      ++g_failed;
    }
    total += clock;
    Release(&result);
    Release(&fn);
  }
  return total;
}
#endif

void BadInput(TVMFFIObjectHandle fn, const DLTensor& t, const char* what, const char* kind,
              const char* message) {
  TVMFFIAny in = None();
  in.type_index = kTVMFFIDLTensorPtr;
  in.v_ptr = const_cast<DLTensor*>(&t);
  TVMFFIAny result = None();
  const int rc = TVMFFIFunctionCall(fn, &in, 1, &result);
  Taken e = TakeError();
  const size_t n = std::strlen(e.message);
  const size_t m = std::strlen(message);
  // TVM's message adds its check's text in front of what ffi-core's says.
  const bool ok = rc != 0 && std::strcmp(e.kind, kind) == 0 && n > 0 && n <= m &&
                  std::strcmp(message + (m - n), e.message) == 0;
  std::printf("%s bad %s -> %s: %s\n", MLPERF_NAME, what, e.kind, e.message);
  Check(ok, "a bad input gives TVM's kind and message");
}

}  // namespace

int main() {
  ffi_core::SetAllocator(g_heap.allocator());
  TVMFFIAny module = None();
  TVMFFIAny fn = None();
  TVMFFIAny args[2] = {None(), None()};
  if (CallGlobal("ffi.SystemLib", nullptr, 0, &module) == 0) {
    args[0] = module;
    args[1].type_index = kTVMFFIRawStr;
    args[1].v_c_str = "main";
    CallGlobal("ffi.ModuleGetFunction", args, 2, &fn);
  }
  if (fn.type_index != kTVMFFIFunction) {
    Taken t = TakeError();
    std::printf("FAIL %s: main not found (%s: %s)\n", MLPERF_NAME, t.kind, t.message);
    return 1;
  }
  constexpr int kInNdim = sizeof(kInputShape) / sizeof(kInputShape[0]);
  const size_t heap_at_start = g_heap.used_bytes();
  size_t peak = 0;
  size_t after_first = 0;  // the first input also caches the VM's look-ups
  uint64_t last_clock = 0;
  for (int i = 0; i < MLPERF_INPUTS; ++i) {
    DLTensor input = Input(kInputs[i], DLDataType{kDLInt, 8, 1}, kInputShape, kInNdim);
    DLManagedTensor managed{input, nullptr, &Borrowed::Free};
    TVMFFIObjectHandle input_tensor = nullptr;
    Check(TVMFFITensorFromDLPack(&managed, 0, 0, &input_tensor) == 0, "input as a Tensor");
    int8_t first[kOutputBytes];
    for (int run = 0; run < 2; ++run) {
      TVMFFIAny in = None();
      in.type_index = run == 0 ? kTVMFFIDLTensorPtr : kTVMFFITensor;
      in.v_ptr = run == 0 ? static_cast<void*>(&input) : input_tensor;
      TVMFFIAny result = None();
      g_heap.ResetPeak();
      const size_t before = g_heap.used_bytes();
      uint64_t clock = 0;
      if (Infer(fn.v_obj, &in, &result, &clock) != 0) {
        Taken t = TakeError();
        std::printf("FAIL %s input %d run %d: %s: %s\n", MLPERF_NAME, i, run + 1, t.kind,
                    t.message);
        ++g_failed;
        continue;
      }
      if (g_heap.peak_bytes() - before > peak) peak = g_heap.peak_bytes() - before;
      const int8_t* out = OutputBytes(result);
      Check(out != nullptr, "output shape and dtype");
      if (out == nullptr) {
        Release(&result);
        continue;
      }
      int worst = 0;
      for (int k = 0; k < kOutputBytes; ++k) {
        const int d = std::abs(out[k] - kLiteRT[i][k]);
        worst = d > worst ? d : worst;
      }
      const bool same_as_host = std::memcmp(out, kTvmHost[i], kOutputBytes) == 0;
      const bool same_argmax = ArgMax(out) == ArgMax(kLiteRT[i]);
      if (run == 0) std::memcpy(first, out, kOutputBytes);
      const bool same_twice = std::memcmp(out, first, kOutputBytes) == 0;
      std::printf(
          "%s input %d run %d: max |ffi-core - LiteRT| = %d LSB, argmax %d (LiteRT %d), "
          "%s TVM's VM on the host%s\n",
          MLPERF_NAME, i, run + 1, worst, ArgMax(out), ArgMax(kLiteRT[i]),
          same_as_host ? "equal to" : "DIFFERENT from",
          run == 1 ? (same_twice ? ", equal to run 1" : ", DIFFERENT from run 1") : "");
#ifdef MLPERF_NS_PER_COUNT_X100
      std::printf("%s instructions per inference: %lu\n", MLPERF_NAME,
                  static_cast<unsigned long>(clock));
#endif
      last_clock = clock;
      Check(worst <= 1 && same_argmax, "within 1 LSB of LiteRT, same argmax");
      Check(same_as_host, "equal to TVM's VM on the host");
      Check(same_twice, "the same twice");
      Release(&result);
    }
    TVMFFIObjectDecRef(input_tensor);
    if (i == 0) after_first = g_heap.used_bytes();
  }
#ifdef MLPERF_NS_PER_COUNT_X100
  const uint64_t kernels = KernelInstructions(module);
  const uint64_t runtime = last_clock > kernels ? last_clock - kernels : 0;
  std::printf(
      "%s kernels: %lu instructions in %d calls; runtime: %lu instructions, %lu.%02lu %% "
      "of an inference\n",
      MLPERF_NAME, static_cast<unsigned long>(kernels),
      static_cast<int>(sizeof(kKernelCalls) / sizeof(kKernelCalls[0])),
      static_cast<unsigned long>(runtime), static_cast<unsigned long>(runtime * 100 / last_clock),
      static_cast<unsigned long>(runtime * 10000 / last_clock % 100));
#else
  (void)last_clock;
#endif
  FFICoreTVMVMStats stats;
  FFICoreTVMGetVMStats(&stats);
  std::printf(
      "%s memory: compile path's plan %d bytes; heap after load %lu bytes, after the first "
      "input %lu, peak per inference %lu bytes more (heap %lu); "
      "constants %lu bytes in flash, %lu in place, %lu bytes copied\n",
      MLPERF_NAME, MLPERF_RAM_BYTES, static_cast<unsigned long>(heap_at_start),
      static_cast<unsigned long>(after_first), static_cast<unsigned long>(peak),
      static_cast<unsigned long>(sizeof(g_heap)), static_cast<unsigned long>(MLPERF_CONSTANT_BYTES),
      static_cast<unsigned long>(stats.constants_in_place),
      static_cast<unsigned long>(stats.constant_bytes_copied));
  Check(stats.constant_bytes_copied == 0, "no constant copied to RAM");
  Check(g_heap.used_bytes() == after_first, "every inference gave its memory back");

  BadInput(fn.v_obj, Input(kInputs[0], DLDataType{kDLFloat, 32, 1}, kInputShape, kInNdim), "dtype",
           MLPERF_BAD_DTYPE_KIND, MLPERF_BAD_DTYPE_MESSAGE);
  int64_t flat[1] = {kInputBytes - 1};
  BadInput(fn.v_obj, Input(kInputs[0], DLDataType{kDLInt, 8, 1}, flat, 1), "shape",
           MLPERF_BAD_SHAPE_KIND, MLPERF_BAD_SHAPE_MESSAGE);

  Release(&fn);
  Release(&module);
  std::printf("mlperf %s: %d passed, %d failed\n", MLPERF_NAME, g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
