// Runs one TFLite model that ffi-core's compile path built through its
// direct entry, ffi_core_<model>_run: no VM, no system library, no heap;
// the firmware's buffers (inputs, states, one workspace, outputs) and the
// constants in place in flash. The same calls as run_tflite_test.cc, from
// the state ffi_core_<model>_reset writes: every result equal to TVM's own
// VirtualMachine's on the host (float32: within its tolerance), every
// output within 1 LSB of LiteRT's where LiteRT runs the model; a NULL or
// misaligned buffer a ValueError. On boards it prints the instructions per
// call, the kernels' share (each kernel's packed entry called alone) and
// the stack's high-water.
#include <ffi_core/tvm_kernel_plan.h>
#include <tvm/ffi/c_api.h>

#include <cstdio>
#include <cstring>
#include <string_view>

#include "tflite_test_common.h"
#include "tvm_test_support.h"

#define MODEL_DIRECT 1
#include MODEL_DATA

#if MODEL_HAS_ENTRY

extern "C" int32_t MODEL_ENTRY(void* const* buffers);
#ifdef MODEL_RESET
extern "C" int32_t MODEL_RESET(void* const* states);
#endif
extern "C" const uint8_t MODEL_WEIGHTS[];

using namespace tflite_test;
using namespace tvm_test;

namespace {

constexpr int kNumResults = MODEL_NUM_OUTPUTS + MODEL_NUM_STATES;
// The entry's buffers: inputs and states, the workspace, outputs.
constexpr int kNumBuffers = MODEL_NUM_INPUTS + MODEL_NUM_STATES + 1 + MODEL_NUM_OUTPUTS;
constexpr int kWorkspace = MODEL_NUM_INPUTS + MODEL_NUM_STATES;

// The kernel share (each kernel timed alone) on boards, but where the RAM
// holds no scratch beside the workspace (the micro:bit: MODEL_NO_KERNEL_SHARE).
#if defined(MODEL_NS_PER_COUNT_X100) && !defined(MODEL_NO_KERNEL_SHARE)
#define MODEL_KERNEL_SHARE 1
#else
#define MODEL_KERNEL_SHARE 0
#endif

// The workspace, and after the calls the kernel share's scratch.
constexpr int kWorkspaceStorage = MODEL_KERNEL_SHARE && MODEL_SCRATCH_BYTES > MODEL_WORKSPACE_BYTES
                                      ? MODEL_SCRATCH_BYTES
                                      : MODEL_WORKSPACE_BYTES;
alignas(kAlignment) uint8_t g_workspace[kWorkspaceStorage + 1];
alignas(kAlignment) uint8_t g_outputs[MODEL_OUTPUT_STORAGE + 1];
alignas(kAlignment) uint8_t g_state[MODEL_STATE_BYTES + MODEL_NUM_STATES * kAlignment + 1];

uint8_t* State(int s) { return Slot(g_state, kArgs + MODEL_NUM_INPUTS, s); }

uint8_t* Output(int k) { return Slot(g_outputs, kResults, k); }

// Result k: an output, or a state updated in place.
const void* Result(int k) {
  return k < MODEL_NUM_OUTPUTS ? Output(k) : State(k - MODEL_NUM_OUTPUTS);
}

// Call `call`'s buffers.
void Buffers(int call, void** b) {
  for (int k = 0; k < MODEL_NUM_INPUTS; ++k) {
    b[k] = const_cast<void*>(Values(kInputData, k, kArgs[k], call));
  }
  for (int s = 0; s < MODEL_NUM_STATES; ++s) b[MODEL_NUM_INPUTS + s] = State(s);
  b[kWorkspace] = g_workspace;
  for (int k = 0; k < MODEL_NUM_OUTPUTS; ++k) b[kWorkspace + 1 + k] = Output(k);
}

void FailWithRaised(const char* what) {
  const RaisedError e;
  const TVMFFIByteArray kind = e.kind();
  const TVMFFIByteArray message = e.message();
  std::printf("FAIL %s %s: %.*s: %.*s\n", MODEL_NAME, what, static_cast<int>(kind.size), kind.data,
              static_cast<int>(message.size), message.data);
  ++g_failed;
}

// The reset: every state its zero point.
__attribute__((noinline)) void Reset() {
#ifdef MODEL_RESET
  void* states[MODEL_NUM_STATES];
  for (int s = 0; s < MODEL_NUM_STATES; ++s) {
    std::memset(State(s), 0x55, kArgs[MODEL_NUM_INPUTS + s].bytes);
    states[s] = State(s);
  }
  if (MODEL_RESET(states) != 0) FailWithRaised("reset");
  bool zero = true;
  for (int s = 0; s < MODEL_NUM_STATES; ++s) {
    const ModelTensor& t = kArgs[MODEL_NUM_INPUTS + s];
    for (int i = 0; i < Count(t); ++i) zero = zero && At(State(s), t.dtype, i) == t.zero_point;
  }
  Check(zero, "the reset writes each state's zero point");
#endif
}

// One call, checked against TVM's VM on the host and LiteRT.
__attribute__((noinline)) bool RunCall(int seq, int step, uint64_t* clock) {
  const int call = seq * MODEL_STEPS + step;
  void* b[kNumBuffers];
  Buffers(call, b);
  if (Timed([&] { return MODEL_ENTRY(b); }, clock) != 0) {
    FailWithRaised("call");
    return false;
  }
  bool near_host = true;
  bool same_as_host = true;
#if MODEL_HAS_LITERT
  bool within = true;
  double worst = 0;
#endif
  for (int k = 0; k < kNumResults; ++k) {
    const ModelTensor& t = kResults[k];
    const void* host = Values(kTvmHostData, k, t, call);
    const bool equal = std::memcmp(Result(k), host, t.bytes) == 0;
    same_as_host = same_as_host && equal;
    near_host = near_host && (equal || CloseFloats(Result(k), host, t));
#if MODEL_HAS_LITERT
    if (k < MODEL_NUM_OUTPUTS) {
      const void* ref = Values(kLiteRTData, k, t, call);
      for (int i = 0; i < Count(t); ++i) {
        const double d = std::fabs(At(Result(k), t.dtype, i) - At(ref, t.dtype, i));
        worst = d > worst ? d : worst;
        within = within && Close(At(Result(k), t.dtype, i), At(ref, t.dtype, i), t.dtype);
      }
    }
#endif
  }
  std::printf("%s direct input %d", MODEL_NAME, seq);
  if (MODEL_STEPS > 1) std::printf(" call %d", step);
  std::printf(": ");
#if MODEL_HAS_LITERT
  // Integer outputs in LSB, float32 in millionths (printf without floats).
  std::printf("max |ffi-core - LiteRT| = %ld %s, ",
              static_cast<long>(kResults[0].dtype.code == kDLFloat ? worst * 1e6 : worst),
              kResults[0].dtype.code == kDLFloat ? "e-6" : "LSB");
  Check(within, "within 1 LSB of LiteRT");
#endif
  std::printf("%s TVM's VM on the host\n", same_as_host ? "equal to"
                                           : near_host  ? "within float32's tolerance of"
                                                        : "DIFFERENT from");
  Check(near_host, "equal to TVM's VM on the host (float32: within its tolerance)");
#ifdef MODEL_NS_PER_COUNT_X100
  std::printf("%s direct instructions per inference: %lu\n", MODEL_NAME,
              static_cast<unsigned long>(*clock));
#endif
  return true;
}

// A NULL input and a misaligned workspace: each a ValueError naming the
// entry and the buffer, nothing written.
__attribute__((noinline)) void BadBuffers() {
  struct Case {
    int buffer;
    uint8_t* at;
    const char* says;
  } cases[] = {{0, nullptr, "buffer 0 is NULL"},
               {kWorkspace, g_workspace + 1, "is not on FFI_CORE_TVM_KERNEL_PLAN_ALIGNMENT"}};
  for (const Case& c : cases) {
    void* b[kNumBuffers];
    Buffers(0, b);
    b[c.buffer] = c.at;
    const int rc = MODEL_ENTRY(b);
    const RaisedError e;
    const TVMFFIByteArray kind = e.kind();
    const TVMFFIByteArray message = e.message();
    std::printf("%s direct bad buffer %d -> %.*s: %.*s\n", MODEL_NAME, c.buffer,
                static_cast<int>(kind.size), kind.data, static_cast<int>(message.size),
                message.data);
    const bool named =
        std::string_view(message.data, message.size).find(c.says) != std::string_view::npos;
    Check(rc != 0 && kind.size == 10 && std::memcmp(kind.data, "ValueError", 10) == 0 && named,
          "a bad buffer is a ValueError naming it");
  }
}

#if MODEL_KERNEL_SHARE
// Instructions in the model's kernels: each call of the plan again, alone,
// through its packed entry, on scratch activations (the workspace's bytes)
// and the weights in place, as run_tflite_test.cc counts them.
__attribute__((noinline)) uint64_t KernelInstructions() {
  uint64_t total = 0;
  int n = 0;
  for (const ModelKernelCall& k : kKernelCalls) {
    DLTensor tensors[kKernelMaxArgs];
    TVMFFIAny args[kKernelMaxArgs];
    KernelArguments(k, MODEL_WEIGHTS, g_workspace, tensors, args);
    TVMFFIAny result = None();
    uint64_t clock = 0;
    const TVMFFISafeCallType entry = kKernelEntries[n++];
    if (Timed([&] { return entry(nullptr, args, k.num_args, &result); }, &clock) != 0) {
      FailWithRaised(k.name);
    }
    total += clock;
  }
  return total;
}
#endif

}  // namespace

int main() {
  uint64_t last_clock = 0;
  for (int seq = 0; seq < MODEL_SEQUENCES; ++seq) {
    Reset();
    for (int step = 0; step < MODEL_STEPS; ++step) {
      if (!RunCall(seq, step, &last_clock)) break;
    }
  }
#if MODEL_KERNEL_SHARE
  ReportShare(MODEL_NAME, " direct", last_clock, KernelInstructions(),
              static_cast<int>(sizeof(kKernelCalls) / sizeof(kKernelCalls[0])));
#else
  (void)last_clock;
#endif
  std::printf("%s direct memory: workspace %d bytes, outputs %d bytes, state %d bytes\n",
              MODEL_NAME, MODEL_WORKSPACE_BYTES, MODEL_OUTPUT_STORAGE, MODEL_STATE_BYTES);
  BadBuffers();
#ifdef MODEL_NS_PER_COUNT_X100
  const size_t stack = ffi_core_board_stack_used();
  std::printf("%s direct stack: %lu of %lu bytes used\n", MODEL_NAME,
              static_cast<unsigned long>(stack),
              static_cast<unsigned long>(ffi_core_board_stack_size()));
  Check(stack < ffi_core_board_stack_size(), "the stack kept within its size");
#endif
  std::printf("%s %s direct: %d passed, %d failed\n", MODEL_SUITE, MODEL_NAME, g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}

#else  // a model whose main is not a straight line of kernels has no entry

int main() {
  std::printf("SKIPPED %s: no direct entry (main is not a straight line of kernels)\n", MODEL_NAME);
  return 0;
}

#endif
