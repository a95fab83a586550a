// What the two firmwares that run a compiled TFLite model share:
// run_tflite_test.cc (through TVM's VM) and run_direct_test.cc (the model's
// direct entry, without the VM). gen_tflite_test.py's model_data.h is made
// of these types. Included by one translation unit of each firmware.
#ifndef FFI_CORE_TESTS_TVM_TFLITE_TEST_COMMON_H_
#define FFI_CORE_TESTS_TVM_TFLITE_TEST_COMMON_H_

#include <tvm/ffi/c_api.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#ifdef MODEL_NS_PER_COUNT_X100
#include <ffi_core_board/board.h>
#include <ffi_core_board/systick.h>
#endif

// A tensor of the model: dtype, shape, zero point (a state's reset value),
// bytes.
struct ModelTensor {
  DLDataType dtype;
  int ndim;
  int64_t shape[6];
  int32_t zero_point;
  int bytes;
};

// One argument of a kernel call; `blob`: the weight blob, read in place;
// `written`: the kernel writes it (an output, a state updated in place).
struct ModelKernelArg {
  DLDataType dtype;
  int ndim;
  int64_t shape[6];
  bool blob;
  bool written;
};

constexpr int kKernelMaxArgs = 8;
struct ModelKernelCall {
  const char* name;
  int num_args;
  ModelKernelArg args[kKernelMaxArgs];
};

namespace tflite_test {

// What TVM's kernels assume of each tensor argument (on the host they copy
// the LSTM's state with aligned vector moves): every input and state here
// starts 64-byte aligned, and so does each call's data in the tables.
constexpr int kAlignment = 64;
inline int Aligned(int bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

// Tensor k of `tensors` in storage that holds each on kAlignment, one
// after the other (the firmwares' state and output buffers).
inline uint8_t* Slot(uint8_t* storage, const ModelTensor* tensors, int k) {
  for (int i = 0; i < k; ++i) storage += Aligned(tensors[i].bytes);
  return storage;
}

inline DLTensor Input(const void* data, DLDataType dtype, const int64_t* shape, int ndim) {
  DLTensor t;
  std::memset(&t, 0, sizeof(t));  // the short-enum policy: zero every byte
  t.data = const_cast<void*>(data);
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype = dtype;
  t.shape = const_cast<int64_t*>(shape);
  return t;
}

inline int Count(const ModelTensor& t) { return t.bytes / (t.dtype.bits / 8); }

// Element i of v as a double (every type the test takes is exact in one).
inline double At(const void* v, DLDataType t, int i) {
  if (t.code == kDLFloat) return static_cast<const float*>(v)[i];
  switch (t.bits) {
    case 8:
      return static_cast<const int8_t*>(v)[i];
    case 16:
      return static_cast<const int16_t*>(v)[i];
    default:
      return static_cast<const int32_t*>(v)[i];
  }
}

// got within the tolerance of want: 1 LSB for integers; 1e-3 relative or
// 1e-4 absolute for float32.
inline bool Close(double got, double want, DLDataType t) {
  const double d = std::fabs(got - want);
  return t.code == kDLFloat ? d <= 1e-4 || d <= 1e-3 * std::fabs(want) : d <= 1;
}

// Every float32 element of a within float32's tolerance of b's.
inline bool CloseFloats(const void* a, const void* b, const ModelTensor& t) {
  bool close = t.dtype.code == kDLFloat;
  for (int i = 0; close && i < Count(t); ++i) {
    close = Close(At(a, t.dtype, i), At(b, t.dtype, i), t.dtype);
  }
  return close;
}

inline int ArgMax(const void* v, const ModelTensor& t) {
  int best = 0;
  for (int i = 1; i < Count(t); ++i) best = At(v, t.dtype, i) > At(v, t.dtype, best) ? i : best;
  return best;
}

// Call `call` of the whole run's data of tensor k (the tables' layout).
inline const void* Values(const void* const* table, int k, const ModelTensor& t, int call) {
  return static_cast<const uint8_t*>(table[k]) + static_cast<size_t>(call) * Aligned(t.bytes);
}

// Kernel call k's arguments for timing it alone, on scratch activations
// and the weights in place (the work does not depend on the values): what
// the kernel writes one argument after the other, what it only reads over
// those, at the scratch's start.
inline void KernelArguments(const ModelKernelCall& k, const void* weights, uint8_t* scratch,
                            DLTensor* tensors, TVMFFIAny* args) {
  uint8_t* at = scratch;
  for (int i = 0; i < k.num_args; ++i) {
    const ModelKernelArg& a = k.args[i];
    const void* data = a.blob ? weights : a.written ? at : scratch;
    tensors[i] = Input(data, a.dtype, a.shape, a.ndim);
    if (a.written) {
      int64_t n = a.dtype.bits / 8;
      for (int d = 0; d < a.ndim; ++d) n *= a.shape[d];
      at += (n + 3) / 4 * 4;
    }
    std::memset(&args[i], 0, sizeof(args[i]));
    args[i].type_index = kTVMFFIDLTensorPtr;
    args[i].v_ptr = &tensors[i];
  }
}

// Prints the kernels' instructions and the runtime's share of an inference
// (`path`: "" through the VM, " direct" through the direct entry).
inline void ReportShare(const char* name, const char* path, uint64_t inference, uint64_t kernels,
                        int calls) {
  const uint64_t runtime = inference > kernels ? inference - kernels : 0;
  const uint64_t whole = inference > 0 ? inference : 1;
  std::printf(
      "%s%s kernels: %lu instructions in %d calls; runtime: %lu instructions, %lu.%02lu %% of an "
      "inference\n",
      name, path, static_cast<unsigned long>(kernels), calls, static_cast<unsigned long>(runtime),
      static_cast<unsigned long>(runtime * 100 / whole),
      static_cast<unsigned long>(runtime * 10000 / whole % 100));
}

#ifdef MODEL_NS_PER_COUNT_X100
// The cycle model (tools/cycle-model, scripts/mlperf-tiny.sh) counts from
// the entry of the first to the entry of the second, one region for each
// call a firmware measures; noipa keeps both real calls to functions of
// their own.
extern "C" __attribute__((noipa)) void ffi_core_cycles_begin() {}
extern "C" __attribute__((noipa)) void ffi_core_cycles_end() {}
#endif

// Runs call(); on boards puts its instructions under QEMU -icount shift=0
// into *clock (SysTick counts times virtual ns per count), elsewhere 0.
template <typename Call>
int Timed(Call call, uint64_t* clock) {
#ifdef MODEL_NS_PER_COUNT_X100
  constexpr uint32_t kReload = 999;  // an interrupt every 1000 counts
  ffi_core_systick_start(kReload);
  while (ffi_core_systick_count() == 0) {
  }  // the counter loads kReload on the clock after start
  const uint32_t ticks0 = ffi_core_systick_ticks();
  const uint32_t val0 = ffi_core_systick_count();
  ffi_core_cycles_begin();
  const int rc = call();
  ffi_core_cycles_end();
  const uint32_t val1 = ffi_core_systick_count();
  const uint32_t ticks1 = ffi_core_systick_ticks();
  ffi_core_systick_stop();
  const uint64_t counts = uint64_t{ticks1 - ticks0} * (kReload + 1) + val0 - val1;
  *clock = counts * MODEL_NS_PER_COUNT_X100 / 100;
  return rc;
#else
  *clock = 0;
  return call();
#endif
}

}  // namespace tflite_test

#endif  // FFI_CORE_TESTS_TVM_TFLITE_TEST_COMMON_H_
