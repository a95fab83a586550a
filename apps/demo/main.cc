// ffi-core demo firmware: a kernel library on the MCU, found by name and
// called through the C ABI exactly as a host caller would call it: look up
// "ffi.SystemLib" and "ffi.ModuleGetFunction", then TVMFFIFunctionCall with
// DLTensor arguments over static buffers. Prints inputs, outputs, a
// deliberate bad call with its error kind and message, and the memory used.
#include <ffi_core/ffi_core.h>

#include <cstdio>
#include <cstring>

#include "kernels.h"

namespace {

// All of ffi-core's objects (functions, module, long names) come from here.
ffi_core::StaticPool<96, 12> g_pool;

float g_x[4] = {0.5f, 1.5f, -2.0f, 41.0f};
float g_y[4];
int8_t g_a[8] = {1, 2, 3, 4, -5, -6, 7, 8};
int8_t g_b[8] = {8, 7, 6, 5, 4, 3, 2, 1};
int64_t g_shape4[1] = {4};
int64_t g_shape8[1] = {8};

DLTensor Vector(void* data, int64_t* shape, uint8_t code, uint8_t bits) {
  DLTensor t{};
  t.data = data;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 1;
  t.dtype = DLDataType{code, bits, 1};
  t.shape = shape;
  return t;
}

TVMFFIAny Ptr(int32_t type_index, const void* p) {
  TVMFFIAny a{};
  a.type_index = type_index;
  a.v_ptr = const_cast<void*>(p);
  return a;
}

TVMFFIObjectHandle Global(const char* name) {
  TVMFFIByteArray n{name, std::strlen(name)};
  TVMFFIObjectHandle f = nullptr;
  return TVMFFIFunctionGetGlobal(&n, &f) == 0 ? f : nullptr;
}

// Prints v with two decimals using integers only: newlib-nano's printf
// has no floating point.
void PrintFixed(float v) {
  const long centi = static_cast<long>(v * 100.0f + (v < 0 ? -0.5f : 0.5f));
  const long mag = centi < 0 ? -centi : centi;
  std::printf("%s%ld.%02ld", centi < 0 ? "-" : "", mag / 100, mag % 100);
}

void PrintInt8s(const char* name, const int8_t* v, int n) {
  std::printf("%s = [", name);
  for (int i = 0; i < n; ++i) std::printf(i == 0 ? "%d" : " %d", v[i]);
  std::printf("]");
}

// Prints the pending error (kind and message) from its error cell.
void PrintError(const char* what) {
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == nullptr) return;
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  std::printf("%s -> error %.*s: %.*s\n", what, static_cast<int>(cell->kind.size), cell->kind.data,
              static_cast<int>(cell->message.size), cell->message.data);
  TVMFFIObjectDecRef(err);
}

TVMFFIObjectHandle GetKernel(TVMFFIObjectHandle get_function, const TVMFFIAny& module,
                             const char* name) {
  TVMFFIAny args[3] = {module, Ptr(kTVMFFIRawStr, name), TVMFFIAny{}};
  args[2].type_index = kTVMFFIBool;
  TVMFFIAny result{};
  if (TVMFFIFunctionCall(get_function, args, 3, &result) != 0) {
    PrintError(name);
    return nullptr;
  }
  return result.type_index == kTVMFFIFunction ? result.v_obj : nullptr;
}

}  // namespace

int main() {
  std::printf("ffi-core demo on %s\n", FFI_CORE_DEMO_TARGET);
  ffi_core::SetAllocator(g_pool.allocator());
  if (!demo::RegisterKernels().ok()) {
    PrintError("register");
    return 1;
  }
  TVMFFIObjectHandle system_lib = Global("ffi.SystemLib");
  TVMFFIObjectHandle get_function = Global("ffi.ModuleGetFunction");
  TVMFFIAny module{};
  if (system_lib == nullptr || get_function == nullptr ||
      TVMFFIFunctionCall(system_lib, nullptr, 0, &module) != 0) {
    PrintError("system library");
    return 1;
  }
  TVMFFIObjectHandle add_one = GetKernel(get_function, module, "add_one");
  TVMFFIObjectHandle dot_i8 = GetKernel(get_function, module, "dot_i8");
  if (add_one == nullptr || dot_i8 == nullptr) return 1;
  int failures = 0;

  // add_one(x, y) on float32 vectors.
  DLTensor x = Vector(g_x, g_shape4, kDLFloat, 32);
  DLTensor y = Vector(g_y, g_shape4, kDLFloat, 32);
  TVMFFIAny args[2] = {Ptr(kTVMFFIDLTensorPtr, &x), Ptr(kTVMFFIDLTensorPtr, &y)};
  TVMFFIAny result{};
  if (TVMFFIFunctionCall(add_one, args, 2, &result) != 0) {
    PrintError("add_one");
    ++failures;
  }
  std::printf("add_one: x = [");
  for (int i = 0; i < 4; ++i) {
    std::printf(i == 0 ? "" : " ");
    PrintFixed(g_x[i]);
  }
  std::printf("] -> y = [");
  for (int i = 0; i < 4; ++i) {
    std::printf(i == 0 ? "" : " ");
    PrintFixed(g_y[i]);
    if (g_y[i] != g_x[i] + 1.0f) ++failures;
  }
  std::printf("]\n");

  // dot_i8(a, b) on int8 vectors, returning an int.
  DLTensor a = Vector(g_a, g_shape8, kDLInt, 8);
  DLTensor b = Vector(g_b, g_shape8, kDLInt, 8);
  TVMFFIAny dot_args[2] = {Ptr(kTVMFFIDLTensorPtr, &a), Ptr(kTVMFFIDLTensorPtr, &b)};
  result = TVMFFIAny{};
  int64_t expected = 0;
  for (int i = 0; i < 8; ++i) expected += int64_t{g_a[i]} * g_b[i];
  if (TVMFFIFunctionCall(dot_i8, dot_args, 2, &result) != 0 || result.type_index != kTVMFFIInt ||
      result.v_int64 != expected) {
    PrintError("dot_i8");
    ++failures;
  }
  std::printf("dot_i8: ");
  PrintInt8s("a", g_a, 8);
  std::printf(", ");
  PrintInt8s("b", g_b, 8);
  std::printf(" -> %ld (expected %ld)\n", static_cast<long>(result.v_int64),
              static_cast<long>(expected));

  // A deliberate bad call: int8 tensors passed to the float kernel.
  result = TVMFFIAny{};
  if (TVMFFIFunctionCall(add_one, dot_args, 2, &result) == 0) {
    std::printf("bad call unexpectedly succeeded\n");
    ++failures;
  } else {
    PrintError("add_one(int8, int8)");
  }
  // And one with the wrong number of arguments.
  result = TVMFFIAny{};
  if (TVMFFIFunctionCall(dot_i8, dot_args, 1, &result) == 0) ++failures;
  PrintError("dot_i8(a)");

  std::printf(
      "memory: pool of %u blocks x %u bytes: %u in use, peak %u, failed %u\n",
      static_cast<unsigned>(g_pool.block_count()), static_cast<unsigned>(g_pool.block_size()),
      static_cast<unsigned>(g_pool.live_blocks()), static_cast<unsigned>(g_pool.peak_blocks()),
      static_cast<unsigned>(g_pool.failed_allocations()));
  TVMFFIObjectDecRef(add_one);
  TVMFFIObjectDecRef(dot_i8);
  TVMFFIObjectDecRef(module.v_obj);
  TVMFFIObjectDecRef(get_function);
  TVMFFIObjectDecRef(system_lib);
  std::printf("after release: %u blocks in use\n", static_cast<unsigned>(g_pool.live_blocks()));
  if (g_pool.live_blocks() != 0) ++failures;
  std::printf("%s\n", failures == 0 ? "demo: OK" : "demo: FAILED");
  return failures == 0 ? 0 : 1;
}
