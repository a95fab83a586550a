// Runs the example models TVM compiled (tvm_models_data.h, written by
// gen_models.py) through the C ABI, as any caller would: look the function
// up in its module, call it with DLTensors, compare the output with numpy's
// (and, for TVM's host libraries, with TVM's own runtime, bit for bit). Then
// repeats TVM's bad calls and checks that ffi-core's slot carries TVM's kind
// and message, and that an exhausted workspace is a MemoryError.
//
// FFI_CORE_TVM_FLAVOR names the build of the models; FFI_CORE_TVM_MODEL_DIR,
// when defined, holds one TVM shared library per model (host), otherwise the
// models are linked in as the system library.
#include <ffi_core/pool_allocator.h>
#include <ffi_core/tvm_workspace.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "tvm_models_data.h"
#include "tvm_test_support.h"

using namespace tvm_test;

namespace {

TVMFFIAny ObjectAny(void* obj) {
  TVMFFIAny a = None();
  a.type_index = static_cast<TVMFFIObject*>(obj)->type_index;
  a.v_obj = static_cast<TVMFFIObject*>(obj);
  return a;
}

TVMFFIObjectHandle Global(const char* name) {
  TVMFFIByteArray n{name, std::strlen(name)};
  TVMFFIObjectHandle f = nullptr;
  if (TVMFFIFunctionGetGlobal(&n, &f) != 0) return nullptr;
  return f;
}

// The module holding `model`: its own shared library on the host, else the
// system library.
TVMFFIObjectHandle OpenModule(const char* model) {
  TVMFFIAny arg = None();
  TVMFFIAny module = None();
#ifdef FFI_CORE_TVM_MODEL_DIR
  char path[512];
  std::snprintf(path, sizeof(path), "%s/%s.so", FFI_CORE_TVM_MODEL_DIR, model);
  TVMFFIObjectHandle load = Global("ffi.ModuleLoadFromFile");
  TVMFFIByteArray bytes{path, std::strlen(path)};
  if (load == nullptr || TVMFFIStringFromByteArray(&bytes, &arg) != 0) return nullptr;
  const int rc = TVMFFIFunctionCall(load, &arg, 1, &module);
  if (arg.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(arg.v_obj);
#else
  (void)model;
  TVMFFIObjectHandle load = Global("ffi.SystemLib");
  const int rc = load != nullptr ? TVMFFIFunctionCall(load, &arg, 0, &module) : -1;
#endif
  if (load != nullptr) TVMFFIObjectDecRef(load);
  return rc == 0 && module.type_index == kTVMFFIModule ? module.v_obj : nullptr;
}

TVMFFIObjectHandle GetFunction(TVMFFIObjectHandle module, const char* name) {
  TVMFFIObjectHandle get = Global("ffi.ModuleGetFunction");
  TVMFFIAny args[2] = {ObjectAny(module), None()};
  args[1].type_index = kTVMFFIRawStr;
  args[1].v_c_str = name;
  TVMFFIAny fn = None();
  const int rc = get != nullptr ? TVMFFIFunctionCall(get, args, 2, &fn) : -1;
  if (get != nullptr) TVMFFIObjectDecRef(get);
  return rc == 0 && fn.type_index == kTVMFFIFunction ? fn.v_obj : nullptr;
}

struct Call {
  DLTensor tensors[6];
  TVMFFIAny args[6];
};

void BuildCall(const ModelCase& c, Call* call) {
  for (int i = 0; i < c.num_args; ++i) {
    const ModelArg& a = c.args[i];
    DLTensor& t = call->tensors[i];
    std::memset(&t, 0, sizeof(t));  // the short-enum policy: zero every byte
    // Kernels only read their inputs; the output array is writable.
    t.data = const_cast<void*>(a.data);
    t.device.device_type = kDLCPU;
    t.ndim = a.ndim;
    t.dtype.code = a.code;
    t.dtype.bits = a.bits;
    t.dtype.lanes = 1;
    t.shape = const_cast<int64_t*>(a.shape);
    call->args[i] = None();
    call->args[i].type_index = kTVMFFIDLTensorPtr;
    call->args[i].v_ptr = &t;
  }
}

// |got - want| <= tol * (1 + |want|), element by element.
template <typename T>
double MaxError(const void* got, const void* want, int64_t n, double tol, bool* ok) {
  const T* g = static_cast<const T*>(got);
  const T* w = static_cast<const T*>(want);
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = std::fabs(static_cast<double>(g[i]) - static_cast<double>(w[i]));
    if (d > worst) worst = d;
    if (!(d <= tol * (1.0 + std::fabs(static_cast<double>(w[i]))))) *ok = false;
  }
  return worst;
}

double Compare(const ModelCase& c, const void* want, double tol, bool* ok) {
  const ModelArg& out = c.args[c.num_args - 1];
  if (out.code == kDLFloat) return MaxError<float>(out.data, want, c.numel, tol, ok);
  if (out.bits == 8) return MaxError<int8_t>(out.data, want, c.numel, tol, ok);
  return MaxError<int32_t>(out.data, want, c.numel, tol, ok);
}

void RunModel(const ModelCase& c) {
  TVMFFIObjectHandle module = OpenModule(c.name);
  TVMFFIObjectHandle fn = module != nullptr ? GetFunction(module, c.name) : nullptr;
  if (fn == nullptr) {
    Taken t = TakeError();
    std::printf("FAIL %s: not found (%s: %s)\n", c.name, t.kind, t.message);
    ++g_failed;
    if (module != nullptr) TVMFFIObjectDecRef(module);
    return;
  }
  Call call;
  BuildCall(c, &call);
  // A stale output cannot pass.
  std::memset(const_cast<void*>(c.args[c.num_args - 1].data), 0x5a, 1);
  TVMFFIAny result = None();
  const int rc = TVMFFIFunctionCall(fn, call.args, c.num_args, &result);
  if (rc != 0) {
    Taken t = TakeError();
    std::printf("FAIL %s: call failed: %s: %s\n", c.name, t.kind, t.message);
    ++g_failed;
  } else {
    bool ok = true;
    const double err = Compare(c, c.numpy, c.tolerance, &ok);
#ifdef FFI_CORE_TVM_MODEL_DIR
    // The same machine code under TVM's runtime gave exactly this.
    Compare(c, c.tvm, 0.0, &ok);
#endif
    std::printf("%s [%s]: %ld values, max |ffi-core - numpy| = %.3g: %s\n", c.name,
                FFI_CORE_TVM_FLAVOR, static_cast<long>(c.numel), err, ok ? "ok" : "MISMATCH");
    Check(ok, c.name, "output");
  }
  TVMFFIObjectDecRef(fn);
  TVMFFIObjectDecRef(module);
}

const ModelCase* FindCase(const char* name) {
  for (const ModelCase& c : kModelCases) {
    if (std::strcmp(c.name, name) == 0) return &c;
  }
  return nullptr;
}

// A bad call must fail with TVM's own kind and message, uncut.
void RunBadCall(const ModelError& e) {
  const ModelCase* c = FindCase(e.model);
  TVMFFIObjectHandle module = OpenModule(e.model);
  TVMFFIObjectHandle fn = module != nullptr ? GetFunction(module, e.model) : nullptr;
  if (c == nullptr || fn == nullptr) {
    Check(false, e.model, "bad-call setup");
    return;
  }
  Call call;
  BuildCall(*c, &call);
  int32_t num_args = c->num_args;
  if (e.what == FFI_CORE_TVM_BAD_DTYPE) call.tensors[0].dtype = DLDataType{kDLInt, 8, 1};
  if (e.what == FFI_CORE_TVM_BAD_ARG_COUNT) --num_args;
  TVMFFIAny result = None();
  const int rc = TVMFFIFunctionCall(fn, call.args, num_args, &result);
  Taken t = TakeError();
  const bool ok =
      rc != 0 && std::strcmp(t.kind, e.kind) == 0 && std::strcmp(t.message, e.message) == 0;
  std::printf("%s [%s] bad call -> %s: %s\n", e.model, FFI_CORE_TVM_FLAVOR, t.kind, t.message);
  Check(ok, e.model, ok ? "" : "bad call: kind or message differs from TVM's");
  TVMFFIObjectDecRef(fn);
  TVMFFIObjectDecRef(module);
}

// mlp_wide's 1200-byte hidden layer does not fit a 256-byte workspace.
void RunExhaustedWorkspace(unsigned char* full, size_t full_size) {
  const ModelCase* c = FindCase("mlp_wide");
  TVMFFIObjectHandle module = OpenModule("mlp_wide");
  TVMFFIObjectHandle fn = module != nullptr ? GetFunction(module, "mlp_wide") : nullptr;
  if (c == nullptr || fn == nullptr) {
    Check(false, "mlp_wide", "workspace setup");
    return;
  }
  alignas(16) static unsigned char tiny[256];
  Check(FFICoreTVMSetWorkspace(tiny, sizeof(tiny)) == 0, "set tiny workspace");
  Call call;
  BuildCall(*c, &call);
  TVMFFIAny result = None();
  const int rc = TVMFFIFunctionCall(fn, call.args, c->num_args, &result);
  Taken t = TakeError();
  std::printf("mlp_wide [%s] in a 256-byte workspace -> %s: %s\n", FFI_CORE_TVM_FLAVOR, t.kind,
              t.message);
  const char kPrefix[] = "TVMBackendAllocWorkspace: cannot allocate 1200 bytes";
  Check(rc != 0 && std::strcmp(t.kind, "MemoryError") == 0 &&
            std::strncmp(t.message, kPrefix, sizeof(kPrefix) - 1) == 0,
        "exhausted workspace", "is not a MemoryError");
  FFICoreTVMWorkspaceStats stats;
  FFICoreTVMGetWorkspaceStats(&stats);
  Check(stats.failed == 1 && stats.live_blocks == 0, "workspace after failure");
  Check(FFICoreTVMSetWorkspace(full, full_size) == 0, "restore workspace");
  Check(TVMFFIFunctionCall(fn, call.args, c->num_args, &result) == 0, "mlp_wide after restore");
  TVMFFIObjectDecRef(fn);
  TVMFFIObjectDecRef(module);
}

// Function and module objects come from here; all must come back.
#ifdef FFI_CORE_TVM_MODEL_DIR
// Loading by path makes the path a String object: room for the longest path
// the loader builds (a deep build directory must not fail the test).
constexpr size_t kPoolBlockBytes = 640;
#else
constexpr size_t kPoolBlockBytes = 128;
#endif
ffi_core::StaticPool<kPoolBlockBytes, 8> g_pool;
alignas(16) unsigned char g_workspace[3072];

}  // namespace

int main() {
  ffi_core::SetAllocator(g_pool.allocator());
  // Every message the models can raise fits the error slot uncut.
  std::printf("longest TVM check message: %d bytes, error message capacity %d\n",
              TVM_MODELS_LONGEST_MESSAGE, FFI_CORE_ERROR_MESSAGE_CAPACITY);
  Check(TVM_MODELS_LONGEST_MESSAGE < FFI_CORE_ERROR_MESSAGE_CAPACITY, "message capacity");
  if (FFICoreTVMSetWorkspace(g_workspace, sizeof(g_workspace)) != 0) return 1;
  for (const ModelCase& c : kModelCases) RunModel(c);
  for (const ModelError& e : kModelErrors) RunBadCall(e);
  RunExhaustedWorkspace(g_workspace, sizeof(g_workspace));

  FFICoreTVMWorkspaceStats stats;
  FFICoreTVMGetWorkspaceStats(&stats);
  std::printf("workspace: peak %lu of %lu bytes, %lu live blocks\n",
              static_cast<unsigned long>(stats.peak), static_cast<unsigned long>(stats.capacity),
              static_cast<unsigned long>(stats.live_blocks));
  Check(stats.live_blocks == 0, "workspace blocks all freed");
  Check(g_pool.live_blocks() == 0, "pool blocks all back");
  std::printf("tvm models [%s]: %d passed, %d failed\n", FFI_CORE_TVM_FLAVOR, g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
