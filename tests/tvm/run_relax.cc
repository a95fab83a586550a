// Runs one whole model TVM's Relax compiled (gen_relax_models.py writes
// RELAX_MODEL_DATA) through ffi-core's Relax VM: its `main` from the system
// library (boards) or from TVM's shared library (host, with
// RELAX_MODEL_DIR), called twice with a DLTensor and with a Tensor (a model
// whose input is a tuple gets an Array of Tensors both times, built through
// the C API with ffi.Array), the outputs compared with numpy's (and on the host bit for bit with
// TVM's own VirtualMachine); then bad inputs, and memory running out. Every object, storage and
// register file comes from one static heap, whose use is reported against the storage TVM's memory
// plan asks for.
#include <ffi_core/heap_allocator.h>
#include <ffi_core/tvm_vm.h>
#include <tvm/ffi/c_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "tvm_test_support.h"

#include RELAX_MODEL_DATA

#ifndef RELAX_MODEL_DIR
#include <ffi_core_board/board.h>
#endif

// ffi_core_tvm says what a VM keeps between calls (tvm_backend/CMakeLists.txt).
#ifndef FFI_CORE_TVM_VM_KEPT_STORAGES
#error "FFI_CORE_TVM_VM_KEPT_STORAGES comes with ffi_core_tvm"
#endif

using namespace tvm_test;

namespace {

TVMFFIAny OpenModule() {
  TVMFFIAny module = None();
#ifdef RELAX_MODEL_DIR
  const char* path = RELAX_MODEL_DIR "/" RELAX_MODEL_NAME ".so";
  TVMFFIAny arg = None();
  arg.type_index = kTVMFFIRawStr;
  arg.v_c_str = path;
  if (CallGlobal("ffi.ModuleLoadFromFile", &arg, 1, &module) != 0) module = None();
#else
  if (CallGlobal("ffi.SystemLib", nullptr, 0, &module) != 0) module = None();
#endif
  return module;
}

DLTensor MakeDL(const RelaxTensor& spec, const void* data) {
  DLTensor t;
  std::memset(&t, 0, sizeof(t));  // the short-enum policy: zero every byte
  t.data = const_cast<void*>(data);
  t.device.device_type = kDLCPU;
  t.ndim = spec.ndim;
  t.dtype = DLDataType{spec.code, spec.bits, 1};
  t.shape = const_cast<int64_t*>(spec.shape);
  return t;
}

// |got - want| <= tol * (1 + |want|) element by element; exact for tol 0.
template <typename T>
bool Close(const void* got, const void* want, int64_t n, double tol, double* worst) {
  bool ok = true;
  for (int64_t i = 0; i < n; ++i) {
    const double g = static_cast<const T*>(got)[i];
    const double w = static_cast<const T*>(want)[i];
    const double d = std::fabs(g - w);
    if (d > *worst) *worst = d;
    ok = ok && d <= tol * (1.0 + std::fabs(w));
  }
  return ok;
}

bool CompareTensor(const TVMFFIAny& value, const RelaxTensor& want, const void* tvm,
                   double* worst) {
  if (value.type_index != kTVMFFITensor) return false;
  const DLTensor* t = TVMFFITensorGetDLTensorPtr(value.v_obj);
  int64_t n = 1;
  for (int i = 0; i < want.ndim; ++i) {
    if (t->shape[i] != want.shape[i]) return false;
    n *= want.shape[i];
  }
  if (t->ndim != want.ndim || t->dtype.code != want.code || t->dtype.bits != want.bits) {
    return false;
  }
  const void* data = static_cast<const char*>(t->data) + t->byte_offset;
  bool ok;
  double unused = 0;
  if (want.code == kDLFloat) {
    ok = Close<float>(data, want.data, n, RELAX_MODEL_TOLERANCE, worst);
#ifdef RELAX_MODEL_DIR
    // The host runs the same machine code TVM's VM ran.
    ok = ok && Close<float>(data, tvm, n, 0.0, &unused);
#endif
  } else {
    ok = want.bits == 32 ? Close<int32_t>(data, want.data, n, 0.0, worst)
                         : Close<int8_t>(data, want.data, n, 0.0, worst);
  }
  (void)tvm;
  (void)unused;
  return ok;
}

// One output, or a tuple of them as an Array.
bool CompareResult(const TVMFFIAny& result, double* worst) {
  constexpr int kCount = sizeof(kOutputs) / sizeof(kOutputs[0]);
  if (kCount == 1) return CompareTensor(result, kOutputs[0], kTvmOutputs[0], worst);
  if (result.type_index != kTVMFFIArray) return false;
  const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(result.v_obj + 1);
  if (cell->size != kCount) return false;
  bool ok = true;
  for (int i = 0; i < kCount; ++i) {
    ok = ok && CompareTensor(static_cast<const TVMFFIAny*>(cell->data)[i], kOutputs[i],
                             kTvmOutputs[i], worst);
  }
  return ok;
}

#if FFI_CORE_TVM_VM_KEPT_STORAGES > 0
// The data of a result's first tensor (a tuple's first item), or NULL.
const void* FirstData(const TVMFFIAny& result) {
  const TVMFFIAny* first = &result;
  if (result.type_index == kTVMFFIArray) {
    const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(result.v_obj + 1);
    if (cell->size < 1) return nullptr;
    first = static_cast<const TVMFFIAny*>(cell->data);
  }
  if (first->type_index != kTVMFFITensor) return nullptr;
  const DLTensor* t = TVMFFITensorGetDLTensorPtr(first->v_obj);
  return static_cast<const char*>(t->data) + t->byte_offset;
}
#endif

// Tensor objects over the static inputs.
struct Borrowed {
  static void Free(DLManagedTensor*) {}
};

constexpr int kNumInputs = sizeof(kInputs) / sizeof(kInputs[0]);

// The tuple argument: an Array of the given values, owned, made as firmware
// makes one (the ffi.Array global).
TVMFFIAny Tuple(TVMFFIAny* items, int n) {
  TVMFFIAny tuple = None();
  Check(CallGlobal("ffi.Array", items, n, &tuple) == 0 && tuple.type_index == kTVMFFIArray,
        "ffi.Array builds the tuple argument");
  return tuple;
}

TVMFFIAny TensorAny(TVMFFIObjectHandle tensor) {
  TVMFFIAny a = None();
  a.type_index = kTVMFFITensor;
  a.v_ptr = tensor;
  return a;
}

// The model's argument for a run: the input as a DLTensor (run 0) or a
// Tensor (run 1), or for a tuple input an Array of the Tensors (owned:
// released by the caller).
TVMFFIAny Argument(int run, DLTensor* dl, TVMFFIObjectHandle* tensors) {
  if (RELAX_MODEL_TUPLE_INPUT) {
    TVMFFIAny items[kNumInputs];
    for (int i = 0; i < kNumInputs; ++i) items[i] = TensorAny(tensors[i]);
    return Tuple(items, kNumInputs);
  }
  TVMFFIAny in = None();
  in.type_index = run == 0 ? kTVMFFIDLTensorPtr : kTVMFFITensor;
  in.v_ptr = run == 0 ? static_cast<void*>(dl) : tensors[0];
  return in;
}

const char* BadName(int what) {
  switch (what) {
    case RELAX_BAD_DTYPE:
      return "dtype";
    case RELAX_BAD_SHAPE:
      return "shape";
    case RELAX_BAD_ARITY:
      return "tuple length";
    default:
      return "tensor for a tuple";
  }
}

ffi_core::StaticHeap<RELAX_HEAP_BYTES> g_heap;

// The pending error's kind and message ends the line the caller began.
void PrintRaised(const RaisedError& e) {
  const TVMFFIByteArray kind = e.kind();
  const TVMFFIByteArray message = e.message();
  std::printf("%.*s: %.*s\n", static_cast<int>(kind.size), kind.data,
              static_cast<int>(message.size), message.data);
}

bool IsKind(const RaisedError& e, const char* kind) {
  const TVMFFIByteArray k = e.kind();
  return k.size == std::strlen(kind) && std::memcmp(k.data, kind, k.size) == 0;
}

// One bad call: TVM's kind, and TVM's message (which adds its check's text in
// front). Each step below is a function of its own, not inlined: only the one
// running has its frame on the stack (the micro:bit's is 2.25 KB).
__attribute__((noinline)) void BadCall(TVMFFIObjectHandle fn, const RelaxBadCall& bad,
                                       TVMFFIObjectHandle* input_tensors) {
  const RelaxTensor& first = kInputs[0];
  int64_t shape[4];
  std::memcpy(shape, first.shape, sizeof(shape));
  DLTensor t = MakeDL(first, first.data);
  t.shape = shape;
  if (bad.what == RELAX_BAD_DTYPE) {
    t.dtype = first.code == kDLFloat ? DLDataType{kDLInt, 8, 1} : DLDataType{kDLFloat, 32, 1};
  } else if (bad.what == RELAX_BAD_SHAPE) {
    shape[first.ndim - 1] = 1;
  }
  DLManagedTensor bad_managed{t, nullptr, &Borrowed::Free};
  TVMFFIObjectHandle bad_tensor = nullptr;
  Check(TVMFFITensorFromDLPack(&bad_managed, 0, 0, &bad_tensor) == 0, "bad input as a Tensor");
  TVMFFIAny in = None();
  if (!RELAX_MODEL_TUPLE_INPUT) {
    in.type_index = kTVMFFIDLTensorPtr;
    in.v_ptr = &t;
  } else if (bad.what == RELAX_BAD_NOT_TUPLE) {
    in = TensorAny(input_tensors[0]);
  } else {
    TVMFFIAny items[kNumInputs];
    for (int i = 0; i < kNumInputs; ++i) items[i] = TensorAny(input_tensors[i]);
    if (bad.what != RELAX_BAD_ARITY) items[0] = TensorAny(bad_tensor);
    in = Tuple(items, bad.what == RELAX_BAD_ARITY ? 1 : kNumInputs);
  }
  TVMFFIAny result = None();
  const int rc = TVMFFIFunctionCall(fn, &in, 1, &result);
  if (in.type_index == kTVMFFIArray) Release(&in);
  TVMFFIObjectDecRef(bad_tensor);
  const RaisedError e;
  const TVMFFIByteArray got = e.message();
  const size_t n = got.size;
  const size_t m = std::strlen(bad.message);
  const bool ok = rc != 0 && IsKind(e, bad.kind) && n > 0 && n <= m &&
                  std::memcmp(bad.message + (m - n), got.data, n) == 0;
  std::printf("%s bad %s -> ", RELAX_MODEL_NAME, BadName(bad.what));
  PrintRaised(e);
  Check(ok, "bad input gives TVM's kind and message");
}

// Memory running out mid-model: a MemoryError, and all of it back. The
// argument is made before the heap shrinks.
__attribute__((noinline)) void OutOfMemory(TVMFFIObjectHandle fn, DLTensor* inputs,
                                           TVMFFIObjectHandle* input_tensors) {
  TVMFFIAny in = Argument(0, &inputs[0], input_tensors);
  static ffi_core::StaticHeap<512> tiny;
  ffi_core::SetAllocator(tiny.allocator());
  TVMFFIAny result = None();
  const int rc = TVMFFIFunctionCall(fn, &in, 1, &result);
  const RaisedError oom;
  std::printf("%s in a 512-byte heap -> ", RELAX_MODEL_NAME);
  PrintRaised(oom);
  Check(rc != 0 && IsKind(oom, "MemoryError") && tiny.live_blocks() == 0,
        "exhausted memory is a MemoryError and leaks nothing");
  ffi_core::SetAllocator(g_heap.allocator());
  if (RELAX_MODEL_TUPLE_INPUT) Release(&in);
}

}  // namespace

int main() {
  ffi_core::SetAllocator(g_heap.allocator());
  TVMFFIAny module = OpenModule();
  TVMFFIAny args[2] = {module, None()};
  args[1].type_index = kTVMFFIRawStr;
  args[1].v_c_str = "main";
  TVMFFIAny fn = None();
  if (module.type_index != kTVMFFIModule ||
      CallGlobal("ffi.ModuleGetFunction", args, 2, &fn) != 0 || fn.type_index != kTVMFFIFunction) {
    std::printf("FAIL %s: main not found: ", RELAX_MODEL_NAME);
    PrintRaised(RaisedError());
    return 1;
  }

  // Run 1 with a DLTensor, run 2 with a Tensor object; each result released.
  DLTensor inputs[kNumInputs];
  DLManagedTensor managed[kNumInputs];
  TVMFFIObjectHandle input_tensors[kNumInputs] = {};
  for (int i = 0; i < kNumInputs; ++i) {
    inputs[i] = MakeDL(kInputs[i], kInputs[i].data);
    managed[i] = DLManagedTensor{inputs[i], nullptr, &Borrowed::Free};
    Check(TVMFFITensorFromDLPack(&managed[i], 0, 0, &input_tensors[i]) == 0, "input as a Tensor");
  }
  size_t used_after[2] = {0, 0};
  size_t peak[2] = {0, 0};
  FFICoreTVMVMStats before;
  FFICoreTVMGetVMStats(&before);
  for (int run = 0; run < 2; ++run) {
    TVMFFIAny in = Argument(run, &inputs[0], input_tensors);
    TVMFFIAny result = None();
    g_heap.ResetPeak();
    const size_t start = g_heap.used_bytes();
    const int rc = TVMFFIFunctionCall(fn.v_obj, &in, 1, &result);
    if (RELAX_MODEL_TUPLE_INPUT) Release(&in);
    if (rc != 0) {
      std::printf("FAIL %s run %d: ", RELAX_MODEL_NAME, run + 1);
      PrintRaised(RaisedError());
      ++g_failed;
      continue;
    }
    double worst = 0;
    const bool ok = CompareResult(result, &worst);
    // In units of 1e-9: printing a double needs newlib's heap, which the
    // micro:bit barely has.
    std::printf("%s run %d (%s input): max |ffi-core - numpy| = %lue-9: %s\n", RELAX_MODEL_NAME,
                run + 1,
                RELAX_MODEL_TUPLE_INPUT ? "tuple"
                : run == 0              ? "DLTensor"
                                        : "Tensor",
                static_cast<unsigned long>(worst * 1e9 + 0.5), ok ? "ok" : "MISMATCH");
    Check(ok, "output");
    Release(&result);
    used_after[run] = g_heap.used_bytes();
    peak[run] = g_heap.peak_bytes() - start;
  }
  FFICoreTVMVMStats after;
  FFICoreTVMGetVMStats(&after);
  const size_t planned = (after.storage_bytes - before.storage_bytes) / 2;
  std::printf(
      "%s memory: TVM's plan %lu bytes of storage per run (%lu allocations); heap peak per run "
      "%lu then %lu bytes (storage, tensors, shapes, register file); constants %lu in place, "
      "%lu bytes copied\n",
      RELAX_MODEL_NAME, static_cast<unsigned long>(planned),
      static_cast<unsigned long>((after.storage_allocations - before.storage_allocations) / 2),
      static_cast<unsigned long>(peak[0]), static_cast<unsigned long>(peak[1]),
      static_cast<unsigned long>(after.constants_in_place),
      static_cast<unsigned long>(after.constant_bytes_copied));
  // The second run needs nothing the first did not give back.
  Check(used_after[1] == used_after[0] && peak[1] <= peak[0], "second run uses no more memory");
#if FFI_CORE_TVM_VM_KEPT_STORAGES > 0
  // The storage a call keeps for the next is not handed out while the
  // caller still holds the result made in it.
  {
    TVMFFIAny in = Argument(1, &inputs[0], input_tensors);
    TVMFFIAny held = None();
    TVMFFIAny next = None();
    const bool ran = TVMFFIFunctionCall(fn.v_obj, &in, 1, &held) == 0 &&
                     TVMFFIFunctionCall(fn.v_obj, &in, 1, &next) == 0;
    if (RELAX_MODEL_TUPLE_INPUT) Release(&in);
    double worst = 0;
    Check(ran && FirstData(held) != nullptr && FirstData(held) != FirstData(next) &&
              CompareResult(held, &worst),
          "a result still held is not reused by the next call");
    Release(&held);
    Release(&next);
  }
#endif
  // What the runs kept for the next (storage, tensors, register file) goes
  // back on request; the first run's look-ups stay.
  FFICoreTVMReleaseKept();
  const size_t used_settled = g_heap.used_bytes();
#if FFI_CORE_TVM_VM_KEPT_STORAGES > 0
  Check(used_settled < used_after[0], "what the runs kept is given back");
#else
  Check(used_settled == used_after[0], "the runs keep nothing (FFI_CORE_TVM_VM_KEPT_STORAGES 0)");
#endif

  // Bad inputs: TVM's kind, and TVM's message.
  for (const RelaxBadCall& bad : kBadCalls) BadCall(fn.v_obj, bad, input_tensors);
  TVMFFIAny result = None();
  const int wrong = TVMFFIFunctionCall(fn.v_obj, nullptr, 0, &result);
  Check(wrong != 0 && IsKind(RaisedError(), "TypeError"), "wrong argument count is a TypeError");

  OutOfMemory(fn.v_obj, inputs, input_tensors);
  Check(g_heap.used_bytes() == used_settled, "nothing left over after the failures");

  for (TVMFFIObjectHandle t : input_tensors) TVMFFIObjectDecRef(t);
  Release(&fn);
  Release(&module);
#ifndef RELAX_MODEL_DIR
  // A board: the stack's high-water (where no guard faults, an overflow would
  // run into the heap unseen).
  const size_t stack = ffi_core_board_stack_used();
  std::printf("relax %s stack: %lu of %lu bytes used\n", RELAX_MODEL_NAME,
              static_cast<unsigned long>(stack),
              static_cast<unsigned long>(ffi_core_board_stack_size()));
  Check(stack < ffi_core_board_stack_size(), "the stack kept within its size");
#endif
  std::printf("relax %s: %d passed, %d failed\n", RELAX_MODEL_NAME, g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
