// Runs one TFLite model that ffi-core's compile path built (MLPerf Tiny's,
// TFLite Micro's examples; gen_tflite_test.py writes MODEL_DATA): its `main`
// from the system library over each sequence of calls, twice (arguments as
// DLTensors, then as Tensor objects), from the reset state: the module's
// `reset` fills each state tensor (SVDF's, LSTM's) with its zero point, in
// the firmware's one buffer per state, which each call of main updates in
// place (the state tensors main returns are those). Every result must equal TVM's own
// VirtualMachine's on the host, every output be within 1 LSB of LiteRT's where LiteRT runs the
// model (the first int8 output with the same argmax), and both runs agree; a
// wrong dtype or shape must give TVM's kind and message. Memory comes from
// one static heap sized by the compile path's figure (or the kernel share's
// scratch, where larger) plus the runtime's; the firmware prints its peak
// and, on boards, the instructions per call (SysTick clock counts:
// instructions under QEMU -icount shift=0) and the stack's high-water.
#include <ffi_core/heap_allocator.h>
#include <ffi_core/tvm_vm.h>
#include <tvm/ffi/c_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tflite_test_common.h"
#include "tvm_test_support.h"

#include MODEL_DATA

#ifdef MODEL_NS_PER_COUNT_X100
// ffi_core_tvm says what a VM keeps between calls (tvm_backend/CMakeLists.txt).
#ifndef FFI_CORE_TVM_VM_KEPT_STORAGES
#error "FFI_CORE_TVM_VM_KEPT_STORAGES comes with ffi_core_tvm"
#endif
#endif

using namespace tflite_test;
using namespace tvm_test;

namespace {

constexpr int kNumArgs = MODEL_NUM_INPUTS + MODEL_NUM_STATES;
constexpr int kNumResults = MODEL_NUM_OUTPUTS + MODEL_NUM_STATES;
// What the runtime itself takes beside the planned storage: the register
// file, tensor and shape objects (kept between calls: up to 16 tensors).
#ifndef MODEL_RUNTIME_BYTES
#define MODEL_RUNTIME_BYTES 12288
#endif
// The state is not on the heap (main writes it in place, in g_state);
// between inferences the heap holds the kernel share's scratch, which for a
// kernel that reads a large model input (micro_speech_lstm's) is more than
// the plan.
constexpr int kPlanBytes = MODEL_RAM_BYTES;
ffi_core::StaticHeap<(kPlanBytes > MODEL_SCRATCH_BYTES ? kPlanBytes : MODEL_SCRATCH_BYTES) +
                     MODEL_RUNTIME_BYTES>
    g_heap;
// The state the firmware carries from one call to the next: its only copy.
constexpr int kStateStorage = MODEL_STATE_BYTES + MODEL_NUM_STATES * kAlignment + 1;
alignas(kAlignment) uint8_t g_state[kStateStorage];

struct Borrowed {
  static void Free(DLManagedTensor*) {}
};

uint8_t* State(int s) { return Slot(g_state, kArgs + MODEL_NUM_INPUTS, s); }

// The module's `reset`, for a model with state.
TVMFFIObjectHandle g_reset = nullptr;

// Ends the FAIL line the caller began with the pending error's kind and
// message, taken from its slot, and counts the failure.
void FailWithRaised() {
  const RaisedError e;
  const TVMFFIByteArray kind = e.kind();
  const TVMFFIByteArray message = e.message();
  std::printf(": %.*s: %.*s\n", static_cast<int>(kind.size), kind.data,
              static_cast<int>(message.size), message.data);
  ++g_failed;
}

// The reset: the module's `reset` on the state buffers, which must then
// hold each state's zero point. Each step of main's run is a function of its
// own, not inlined: only the one running has its frame on the stack (the
// micro:bit's is 2 KB).
__attribute__((noinline)) void Reset() {
#if MODEL_NUM_STATES > 0
  DLTensor dl[MODEL_NUM_STATES];
  TVMFFIAny in[MODEL_NUM_STATES];
  for (int s = 0; s < MODEL_NUM_STATES; ++s) {
    const ModelTensor& t = kArgs[MODEL_NUM_INPUTS + s];
    std::memset(State(s), 0x55, t.bytes);  // so that the check below sees reset's work
    dl[s] = Input(State(s), t.dtype, t.shape, t.ndim);
    in[s] = None();
    in[s].type_index = kTVMFFIDLTensorPtr;
    in[s].v_ptr = &dl[s];
  }
  TVMFFIAny result = None();
  if (TVMFFIFunctionCall(g_reset, in, MODEL_NUM_STATES, &result) != 0) {
    std::printf("FAIL %s reset", MODEL_NAME);
    FailWithRaised();
  }
  Release(&result);
  bool zero = true;
  for (int s = 0; s < MODEL_NUM_STATES; ++s) {
    const ModelTensor& t = kArgs[MODEL_NUM_INPUTS + s];
    for (int i = 0; i < Count(t); ++i) zero = zero && At(State(s), t.dtype, i) == t.zero_point;
  }
  if (!zero) {
    std::printf("FAIL %s reset: a state is not its zero point\n", MODEL_NAME);
    ++g_failed;
  }
#endif
}

// Result k's bytes, checked for shape and dtype; NULL when they are wrong.
const void* ResultBytes(const TVMFFIAny& result, int k) {
  const TVMFFIAny* item = &result;
  if (kNumResults > 1) {
    if (result.type_index != kTVMFFIArray) return nullptr;
    const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(result.v_obj + 1);
    if (cell->size != kNumResults) return nullptr;
    item = static_cast<const TVMFFIAny*>(cell->data) + k;
  }
  // A state comes back as main was given it: a Tensor, or the DLTensor*
  // itself (ffi-core's VM borrows a DLTensor* argument; main's outputs are
  // Tensors).
  const bool borrowed = k >= MODEL_NUM_OUTPUTS && item->type_index == kTVMFFIDLTensorPtr;
  if (item->type_index != kTVMFFITensor && !borrowed) return nullptr;
  const DLTensor* t = borrowed ? static_cast<const DLTensor*>(item->v_ptr)
                               : TVMFFITensorGetDLTensorPtr(item->v_obj);
  const ModelTensor& want = kResults[k];
  if (t->ndim != want.ndim || t->dtype.code != want.dtype.code ||
      t->dtype.bits != want.dtype.bits) {
    return nullptr;
  }
  for (int i = 0; i < want.ndim; ++i) {
    if (t->shape[i] != want.shape[i]) return nullptr;
  }
  return static_cast<const uint8_t*>(t->data) + t->byte_offset;
}

// FNV-1a, for comparing the two runs without keeping the first's results.
uint32_t Hash(uint32_t h, const void* data, int n) {
  for (int i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(data)[i]) * 16777619u;
  return h;
}

// Calls fn (main on one call's arguments, or a kernel), its instructions
// into *clock on boards.
int Infer(TVMFFIObjectHandle fn, TVMFFIAny* in, int num_args, TVMFFIAny* result, uint64_t* clock) {
  return Timed([&] { return TVMFFIFunctionCall(fn, in, num_args, result); }, clock);
}

#ifdef MODEL_NS_PER_COUNT_X100
extern "C" const uint8_t MODEL_CONSTANTS[];

// Instructions in the model's kernels: each call of main's again, alone,
// through the system library, on KernelArguments' scratch activations and
// the weight blob in place. The scratch comes from the heap, free between
// inferences (the micro:bit has no RAM for more).
__attribute__((noinline)) uint64_t KernelInstructions(TVMFFIAny module) {
  uint64_t total = 0;
  auto* scratch =
      static_cast<uint8_t*>(ffi_core::Allocate(*g_heap.allocator(), MODEL_SCRATCH_BYTES + 1, 8));
  if (scratch == nullptr) {
    std::printf("FAIL no heap for the kernels' %d bytes of scratch\n", MODEL_SCRATCH_BYTES);
    ++g_failed;
    return 0;
  }
  for (const ModelKernelCall& k : kKernelCalls) {
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
    DLTensor tensors[kKernelMaxArgs];
    TVMFFIAny call_args[kKernelMaxArgs];
    KernelArguments(k, MODEL_CONSTANTS, scratch, tensors, call_args);
    TVMFFIAny result = None();
    uint64_t clock = 0;
    if (Infer(fn.v_obj, call_args, k.num_args, &result, &clock) != 0) {
      std::printf("FAIL kernel %s", k.name);
      FailWithRaised();
    }
    total += clock;
    Release(&result);
    Release(&fn);
  }
  ffi_core::Deallocate(*g_heap.allocator(), scratch, MODEL_SCRATCH_BYTES + 1, 8);
  return total;
}
#endif

// One call's arguments: the inputs of call `call` and the carried state, as
// DLTensors (tensors == nullptr), each managed[k].dl_tensor, or Tensor objects
// made over those (put in tensors, released by the caller; each keeps its
// `managed` until then).
void Arguments(int call, DLManagedTensor* managed, TVMFFIAny* in,
               TVMFFIObjectHandle* tensors = nullptr) {
  for (int k = 0; k < kNumArgs; ++k) {
    const ModelTensor& t = kArgs[k];
    const void* data =
        k < MODEL_NUM_INPUTS ? Values(kInputData, k, t, call) : State(k - MODEL_NUM_INPUTS);
    managed[k] = DLManagedTensor{Input(data, t.dtype, t.shape, t.ndim), nullptr, &Borrowed::Free};
    in[k] = None();
    if (tensors == nullptr) {
      in[k].type_index = kTVMFFIDLTensorPtr;
      in[k].v_ptr = &managed[k].dl_tensor;
    } else {
      tensors[k] = nullptr;
      Check(TVMFFITensorFromDLPack(&managed[k], 0, 0, &tensors[k]) == 0, "an argument as a Tensor");
      in[k].type_index = kTVMFFITensor;
      in[k].v_ptr = tensors[k];
    }
  }
}

__attribute__((noinline)) void BadInput(TVMFFIObjectHandle fn, const DLTensor& t, const char* what,
                                        const char* kind, const char* message) {
  // The state's values do not matter: main stops at the input's check.
  DLManagedTensor managed[kNumArgs];
  TVMFFIAny in[kNumArgs];
  Arguments(0, managed, in);
  managed[0].dl_tensor = t;
  TVMFFIAny result = None();
  const int rc = TVMFFIFunctionCall(fn, in, kNumArgs, &result);
  const RaisedError e;
  const TVMFFIByteArray got_kind = e.kind();
  const TVMFFIByteArray got = e.message();
  const size_t n = got.size;
  const size_t m = std::strlen(message);
  // TVM's message adds its check's text in front of what ffi-core's says.
  const bool ok = rc != 0 && got_kind.size == std::strlen(kind) &&
                  std::memcmp(got_kind.data, kind, got_kind.size) == 0 && n > 0 && n <= m &&
                  std::memcmp(message + (m - n), got.data, n) == 0;
  std::printf("%s bad %s -> %.*s: %.*s\n", MODEL_NAME, what, static_cast<int>(got_kind.size),
              got_kind.data, static_cast<int>(n), got.data);
  Check(ok, "a bad input gives TVM's kind and message");
}

// Checks one call's results; returns their hash, 0 when missing.
__attribute__((noinline)) uint32_t CheckCall(const TVMFFIAny& result, int seq, int step, int run,
                                             int call) {
  uint32_t hash = 2166136261u;
  bool same_as_host = true;
  // Float32 results may differ from the host's in their last bits: for the
  // Cortex-M55 TVM's LLVM backend fuses multiply-adds (VFMA), which the
  // host's generic x86-64 has not.
  bool near_host = true;
#if MODEL_HAS_LITERT
  bool within = true;
  double worst = 0;
  int argmax = -1;
  int argmax_litert = -1;
#endif
  for (int k = 0; k < kNumResults; ++k) {
    const void* out = ResultBytes(result, k);
    Check(out != nullptr, "result shape and dtype");
    if (out == nullptr) return 0;
    const ModelTensor& t = kResults[k];
    hash = Hash(hash, out, t.bytes);
    const void* host = Values(kTvmHostData, k, t, call);
    const bool equal = std::memcmp(out, host, t.bytes) == 0;
    same_as_host = same_as_host && equal;
    near_host = near_host && (equal || CloseFloats(out, host, t));
#if MODEL_HAS_LITERT
    if (k < MODEL_NUM_OUTPUTS) {
      const void* ref = Values(kLiteRTData, k, t, call);
      for (int i = 0; i < Count(t); ++i) {
        const double a = At(out, t.dtype, i);
        const double b = At(ref, t.dtype, i);
        const double d = std::fabs(a - b);
        worst = d > worst ? d : worst;
        within = within && Close(a, b, t.dtype);
      }
      if (argmax < 0 && t.dtype.code == kDLInt && t.dtype.bits == 8 && Count(t) > 1) {
        argmax = ArgMax(out, t);
        argmax_litert = ArgMax(ref, t);
      }
    }
#endif
  }
  std::printf("%s input %d", MODEL_NAME, seq);
  if (MODEL_STEPS > 1) std::printf(" call %d", step);
  std::printf(" run %d: ", run + 1);
#if MODEL_HAS_LITERT
  // Integer outputs in LSB, float32 in millionths (printf without floats).
  if (kResults[0].dtype.code == kDLFloat) {
    std::printf("max |ffi-core - LiteRT| = %ld e-6", static_cast<long>(worst * 1e6));
  } else {
    std::printf("max |ffi-core - LiteRT| = %ld LSB", static_cast<long>(worst));
  }
  if (argmax >= 0) std::printf(", argmax %d (LiteRT %d)", argmax, argmax_litert);
  std::printf(", ");
  Check(within && argmax == argmax_litert, "within 1 LSB of LiteRT, same argmax");
#endif
  std::printf("%s TVM's VM on the host\n", same_as_host ? "equal to"
                                           : near_host  ? "within float32's tolerance of"
                                                        : "DIFFERENT from");
  Check(near_host, "equal to TVM's VM on the host (float32: within its tolerance)");
  // The next call's state: this one's, written in place.
  for (int s = 0; s < MODEL_NUM_STATES; ++s) {
    Check(ResultBytes(result, MODEL_NUM_OUTPUTS + s) == State(s), "the state updated in place");
  }
  return hash;
}

// Call `step` of input `seq`, run `run` (arguments as DLTensors in the
// first, Tensor objects in the second): its results checked into *hash, its
// instructions into *clock. False when the call failed.
__attribute__((noinline)) bool RunCall(TVMFFIObjectHandle fn, int seq, int step, int run,
                                       uint32_t* hash, uint64_t* clock) {
  const int call = seq * MODEL_STEPS + step;
  DLManagedTensor managed[kNumArgs];
  TVMFFIAny in[kNumArgs];
  TVMFFIObjectHandle tensors[kNumArgs];
  Arguments(call, managed, in, run == 0 ? nullptr : tensors);
  TVMFFIAny result = None();
  const int rc = Infer(fn, in, kNumArgs, &result, clock);
  if (run == 1) {
    for (TVMFFIObjectHandle t : tensors) TVMFFIObjectDecRef(t);
  }
  if (rc != 0) {
    std::printf("FAIL %s input %d call %d run %d", MODEL_NAME, seq, step, run + 1);
    FailWithRaised();
    return false;
  }
  *hash = CheckCall(result, seq, step, run, call);
#ifdef MODEL_NS_PER_COUNT_X100
  std::printf("%s instructions per inference: %lu\n", MODEL_NAME,
              static_cast<unsigned long>(*clock));
#endif
  Release(&result);
  return true;
}

// A result the caller still holds is not written by the next call (where
// main is planned, the VM's kept output is free only once it is dropped):
// the next makes its own, or, on this heap sized for one inference, fails
// for want of memory.
__attribute__((noinline)) void HeldResult(TVMFFIObjectHandle fn) {
  DLManagedTensor managed[kNumArgs];
  TVMFFIAny in[kNumArgs];
  TVMFFIAny held = None();
  TVMFFIAny next = None();
  Reset();
  Arguments(0, managed, in);
  const bool ran = TVMFFIFunctionCall(fn, in, kNumArgs, &held) == 0;
  const void* a = ran ? ResultBytes(held, 0) : nullptr;
  uint8_t kept[64] = {};
  const size_t n = kResults[0].bytes < 64 ? kResults[0].bytes : 64;
  if (a != nullptr) std::memcpy(kept, a, n);
  Arguments(MODEL_SEQUENCES * MODEL_STEPS > 1 ? 1 : 0, managed, in);
  const int rc = TVMFFIFunctionCall(fn, in, kNumArgs, &next);
  const void* b = rc == 0 ? ResultBytes(next, 0) : nullptr;
  bool own = rc == 0 && b != nullptr && b != a;
  if (rc != 0) {
    const RaisedError e;
    own = e.kind().size == 11 && std::memcmp(e.kind().data, "MemoryError", 11) == 0;
  }
  Check(a != nullptr && own && std::memcmp(kept, a, n) == 0,
        "a result still held is not written by the next call");
  Release(&held);
  Release(&next);
  FFICoreTVMReleaseKept();  // the kernels' scratch needs the heap
}

// The memory figures (out of line: main's frame is under every call).
__attribute__((noinline)) void ReportMemory(size_t heap_at_start, size_t after_first, size_t peak) {
  FFICoreTVMVMStats stats;
  FFICoreTVMGetVMStats(&stats);
  std::printf(
      "%s memory: compile path's plan %d bytes; heap after load %lu bytes, after the first "
      "input %lu, peak per inference %lu bytes more (heap %lu); "
      "constants %lu bytes in flash, %lu in place, %lu bytes copied; state %d bytes between "
      "calls\n",
      MODEL_NAME, MODEL_RAM_BYTES, static_cast<unsigned long>(heap_at_start),
      static_cast<unsigned long>(after_first),
      static_cast<unsigned long>(peak > after_first ? peak - after_first : 0),
      static_cast<unsigned long>(sizeof(g_heap)), static_cast<unsigned long>(MODEL_CONSTANT_BYTES),
      static_cast<unsigned long>(stats.constants_in_place),
      static_cast<unsigned long>(stats.constant_bytes_copied), MODEL_STATE_BYTES);
  Check(stats.constant_bytes_copied == 0, "no constant copied to RAM");
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
    std::printf("FAIL %s: main not found", MODEL_NAME);
    FailWithRaised();
    return 1;
  }
  TVMFFIAny reset = None();
  if (MODEL_NUM_STATES > 0) {
    args[1].v_c_str = "reset";
    if (CallGlobal("ffi.ModuleGetFunction", args, 2, &reset) != 0 ||
        reset.type_index != kTVMFFIFunction) {
      std::printf("FAIL %s: reset not found", MODEL_NAME);
      FailWithRaised();
      return 1;
    }
    g_reset = reset.v_obj;
  }
  const size_t heap_at_start = g_heap.used_bytes();
  size_t peak = 0;         // the heap's high-water mark over every call
  size_t after_first = 0;  // the first sequence also caches the VM's look-ups
  uint64_t last_clock = 0;
  for (int seq = 0; seq < MODEL_SEQUENCES; ++seq) {
    uint32_t first[MODEL_STEPS] = {};
    for (int run = 0; run < 2; ++run) {
      Reset();
      for (int step = 0; step < MODEL_STEPS; ++step) {
        uint32_t hash = 0;
        if (!RunCall(fn.v_obj, seq, step, run, &hash, &last_clock)) break;
        if (g_heap.peak_bytes() > peak) peak = g_heap.peak_bytes();
        if (run == 0) {
          first[step] = hash;
        } else {
          Check(hash != 0 && hash == first[step], "the same both runs");
        }
      }
    }
    if (seq == 0) after_first = g_heap.used_bytes();
  }
  Check(g_heap.used_bytes() == after_first, "every inference gave its memory back");
  // What the executable keeps between calls goes back: the kernels' scratch needs it.
  FFICoreTVMReleaseKept();
#if FFI_CORE_TVM_VM_KEPT_STORAGES > 0
  Check(g_heap.used_bytes() < after_first, "what the calls kept is given back");
#else
  Check(g_heap.used_bytes() == after_first, "calls keep nothing (FFI_CORE_TVM_VM_KEPT_STORAGES 0)");
#endif
  HeldResult(fn.v_obj);
#ifdef MODEL_NS_PER_COUNT_X100
  ReportShare(MODEL_NAME, "", last_clock, KernelInstructions(module),
              static_cast<int>(sizeof(kKernelCalls) / sizeof(kKernelCalls[0])));
#else
  (void)last_clock;
#endif
  ReportMemory(heap_at_start, after_first, peak);

  const ModelTensor& in0 = kArgs[0];
  BadInput(fn.v_obj, Input(kInputData[0], MODEL_BAD_DTYPE, in0.shape, in0.ndim), "dtype",
           MODEL_BAD_DTYPE_KIND, MODEL_BAD_DTYPE_MESSAGE);
  int64_t flat[1] = {Count(in0) - 1};
  BadInput(fn.v_obj, Input(kInputData[0], in0.dtype, flat, 1), "shape", MODEL_BAD_SHAPE_KIND,
           MODEL_BAD_SHAPE_MESSAGE);

  Release(&reset);
  Release(&fn);
  Release(&module);
#ifdef MODEL_NS_PER_COUNT_X100
  // Where no guard faults (QEMU's M0, RISC-V) an overflow would run into the
  // heap unseen: the stack's high-water, loads and bad inputs included.
  const size_t stack = ffi_core_board_stack_used();
  std::printf("%s stack: %lu of %lu bytes used\n", MODEL_NAME, static_cast<unsigned long>(stack),
              static_cast<unsigned long>(ffi_core_board_stack_size()));
  Check(stack < ffi_core_board_stack_size(), "the stack kept within its size");
#endif
  std::printf("%s %s: %d passed, %d failed\n", MODEL_SUITE, MODEL_NAME, g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
