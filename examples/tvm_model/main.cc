// A firmware that runs TVM's `mlp` through ffi-core's C ABI: find it in the
// system library, call it with DLTensors over static buffers, print the
// result beside numpy's.
#include <ffi_core/pool_allocator.h>
#include <tvm/ffi/c_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "mlp_data.h"

namespace {

ffi_core::StaticPool<96, 8> g_pool;  // function and module objects

TVMFFIAny Call(const char* global, TVMFFIAny* args, int32_t n) {
  TVMFFIByteArray name{global, std::strlen(global)};
  TVMFFIObjectHandle f = nullptr;
  TVMFFIAny result{};
  if (TVMFFIFunctionGetGlobal(&name, &f) == 0 && f != nullptr) {
    TVMFFIFunctionCall(f, args, n, &result);
    TVMFFIObjectDecRef(f);
  }
  return result;
}

DLTensor Tensor(const float* data, int32_t ndim, int64_t* shape) {
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.data = const_cast<float*>(data);
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype = DLDataType{kDLFloat, 32, 1};
  t.shape = shape;
  return t;
}

}  // namespace

int main() {
  ffi_core::SetAllocator(g_pool.allocator());
  TVMFFIAny lib = Call("ffi.SystemLib", nullptr, 0);
  TVMFFIAny args[6]{};
  args[0] = lib;
  args[1].type_index = kTVMFFIRawStr;
  args[1].v_c_str = "mlp";
  TVMFFIAny mlp = Call("ffi.ModuleGetFunction", args, 2);
  if (mlp.type_index != kTVMFFIFunction) {
    std::printf("mlp not found in the system library\n");
    return 1;
  }
  static float y[3];
  int64_t sx[] = {1, 4}, sw1[] = {4, 16}, sb1[] = {16}, sw2[] = {16, 3}, sb2[] = {3}, sy[] = {1, 3};
  DLTensor t[6] = {Tensor(x, 2, sx),   Tensor(w1, 2, sw1), Tensor(b1, 1, sb1),
                   Tensor(w2, 2, sw2), Tensor(b2, 1, sb2), Tensor(y, 2, sy)};
  for (int i = 0; i < 6; ++i) {
    args[i] = TVMFFIAny{};
    args[i].type_index = kTVMFFIDLTensorPtr;
    args[i].v_ptr = &t[i];
  }
  TVMFFIAny result{};
  if (TVMFFIFunctionCall(mlp.v_obj, args, 6, &result) != 0) {
    TVMFFIObjectHandle err = nullptr;
    TVMFFIErrorMoveFromRaised(&err);
    std::printf("mlp failed: %s\n", TVMFFIErrorGetCellPtr(err)->message.data);
    return 1;
  }
  int mismatches = 0;
  for (int i = 0; i < 3; ++i) {
    std::printf("y[%d] = %+.6f  (numpy %+.6f)\n", i, y[i], expected[i]);
    mismatches += std::fabs(y[i] - expected[i]) > 1e-5f;
  }
  TVMFFIObjectDecRef(mlp.v_obj);
  TVMFFIObjectDecRef(lib.v_obj);
  std::printf("%s\n", mismatches == 0 ? "mlp: OK" : "mlp: MISMATCH");
  return mismatches;
}
