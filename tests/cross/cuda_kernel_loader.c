/*
 * Loads the upstream-style CUDA kernel library (tests/cross/cxx/cuda_kernels.cu)
 * through the C API alone. Built twice, against ffi-core's runtime and against
 * the wheel's; the transcripts of the two must be identical.
 *   check <lib>  no device needed: the library loads, its functions are found,
 *                and CPU tensors are refused with a clean error
 *   gpu <lib>    runs the kernels on the first CUDA device on the stream set
 *                through TVMFFIEnvSetStream and compares every element with a
 *                CPU reference; exit 77 (skipped) without a device
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include "../c/c_test_support.h"

static TVMFFIAny Tensor(DLTensor* t) {
  TVMFFIAny a = None();
  a.type_index = kTVMFFIDLTensorPtr;
  a.v_ptr = t;
  return a;
}

static TVMFFIObjectHandle LoadModule(const char* path) {
  TVMFFIObjectHandle load = Global("ffi.ModuleLoadFromFile");
  TVMFFIAny arg = RawStr(path);
  TVMFFIAny module = None();
  int rc = TVMFFIFunctionCall(load, &arg, 1, &module);
  TVMFFIObjectDecRef(load);
  if (rc != 0 || module.type_index != kTVMFFIModule) {
    PrintPendingError("load");
    return NULL;
  }
  printf("loaded the CUDA kernel library\n");
  return module.v_obj;
}

/* The exported function, or NULL (printed either way). */
static TVMFFIObjectHandle GetFunction(TVMFFIObjectHandle module, const char* name) {
  TVMFFIObjectHandle get = Global("ffi.ModuleGetFunction");
  TVMFFIAny args[3], f = None();
  args[0] = None();
  args[0].type_index = kTVMFFIModule;
  args[0].v_obj = module;
  args[1] = RawStr(name);
  args[2] = None();
  args[2].type_index = kTVMFFIBool;
  EXPECT(TVMFFIFunctionCall(get, args, 3, &f) == 0);
  TVMFFIObjectDecRef(get);
  printf("function %s: %s\n", name, f.type_index == kTVMFFIFunction ? "found" : "missing");
  return f.type_index == kTVMFFIFunction ? f.v_obj : NULL;
}

/* Calls f, expecting an error of the given kind whose message contains
 * `expected`; prints "<label> -> Kind: message". */
static void CallFails(const char* label, TVMFFIObjectHandle f, TVMFFIAny* args, int32_t n,
                      const char* kind, const char* expected) {
  TVMFFIAny result = None();
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCell* cell;
  char message[512];
  size_t size;
  printf("%s -> ", label);
  EXPECT(TVMFFIFunctionCall(f, args, n, &result) != 0);
  TVMFFIErrorMoveFromRaised(&err);
  EXPECT(err != NULL);
  if (err == NULL) {
    printf("no error\n");
    return;
  }
  cell = ErrorCellOf(err);
  size = cell->message.size < sizeof(message) - 1 ? cell->message.size : sizeof(message) - 1;
  memcpy(message, cell->message.data, size);
  message[size] = '\0';
  printf("%.*s: %s\n", (int)cell->kind.size, cell->kind.data, message);
  EXPECT(cell->kind.size == strlen(kind) && memcmp(cell->kind.data, kind, strlen(kind)) == 0);
  EXPECT(strstr(message, expected) != NULL);
  TVMFFIObjectDecRef(err);
}

/* Calls f, expecting success and no result. */
static void CallOk(const char* label, TVMFFIObjectHandle f, TVMFFIAny* args, int32_t n) {
  TVMFFIAny result = None();
  int rc = TVMFFIFunctionCall(f, args, n, &result);
  printf("%s -> %s\n", label, rc == 0 ? "ok" : "failed");
  if (rc != 0) PrintPendingError("error");
  EXPECT(rc == 0 && result.type_index == kTVMFFINone);
}

static int Check(const char* path) {
  TVMFFIObjectHandle m = LoadModule(path);
  TVMFFIObjectHandle add_one, scale;
  float x[3] = {1.0f, 2.0f, 3.0f}, y[3] = {0, 0, 0};
  int64_t shape[1] = {3};
  DLTensor tx = Float32Vector(x, kDLCPU, shape), ty = Float32Vector(y, kDLCPU, shape);
  TVMFFIAny args[3];
  EXPECT(m != NULL);
  if (m == NULL) return ReportResults();
  add_one = GetFunction(m, "add_one");
  scale = GetFunction(m, "scale");
  EXPECT(add_one != NULL && scale != NULL);
  EXPECT(GetFunction(m, "no_such_kernel") == NULL);
  if (add_one != NULL && scale != NULL) {
    args[0] = Tensor(&tx);
    args[1] = Tensor(&ty);
    args[2] = Float(2.0);
    CallFails("add_one(cpu x, cpu y)", add_one, args, 2, "ValueError",
              "add_one: x must be a CUDA tensor");
    CallFails("scale(cpu x, cpu y, 2.0)", scale, args, 3, "ValueError",
              "scale: x must be a CUDA tensor");
    CallFails("scale(cpu x, cpu y)", scale, args, 2, "TypeError", "Expected 3 but got 2");
    args[1] = Float(2.0);
    CallFails("add_one(cpu x, 2.0)", add_one, args, 2, "TypeError",
              "Mismatched type on argument #1");
    /* The kernel refused without writing. */
    EXPECT(y[0] == 0.0f && y[1] == 0.0f && y[2] == 0.0f);
    TVMFFIObjectDecRef(add_one);
    TVMFFIObjectDecRef(scale);
  }
  {
    /* The stream table the kernels read takes CUDA streams without a device:
     * any handle set is the handle got, until restored. */
    int token = 0;
    TVMFFIStreamHandle original = NULL;
    EXPECT(TVMFFIEnvSetStream(kDLCUDA, 0, &token, &original) == 0);
    EXPECT(TVMFFIEnvGetStream(kDLCUDA, 0) == (TVMFFIStreamHandle)&token);
    EXPECT(TVMFFIEnvGetStream(kDLCUDA, 1) != (TVMFFIStreamHandle)&token);
    EXPECT(TVMFFIEnvSetStream(kDLCUDA, 0, original, NULL) == 0);
    EXPECT(TVMFFIEnvGetStream(kDLCUDA, 0) == original);
    printf("stream table: set, read back and restored\n");
  }
  TVMFFIObjectDecRef(m);
  return ReportResults();
}

#define CUDA_OK(stmt) EXPECT((stmt) == cudaSuccess)

/* The same inputs in every run: a spread of magnitudes and signs. */
static float Input(int64_t i) { return (float)((i % 97) - 48) * 0.375f + (float)(i % 5) * 1e-3f; }

/* Prints a few outputs exactly (hex floats) and a hash of all of them, so the
 * two runtimes' transcripts compare every element. */
static void PrintOutputs(const char* label, const float* y, int64_t n) {
  unsigned long long hash = 1469598103934665603ULL;
  int64_t i;
  size_t b;
  printf("  %s n=%lld:", label, (long long)n);
  for (i = 0; i < n && i < 6; ++i) printf(" %a", (double)y[i]);
  for (i = 0; i < n; ++i) {
    const unsigned char* bytes = (const unsigned char*)&y[i];
    for (b = 0; b < sizeof(float); ++b) hash = (hash ^ bytes[b]) * 1099511628211ULL;
  }
  printf(" hash %016llx\n", hash);
}

/* Runs add_one and scale on n elements; every output element must equal the
 * CPU reference exactly (one correctly rounded IEEE operation each). */
static void RunOnDevice(TVMFFIObjectHandle add_one, TVMFFIObjectHandle scale, int64_t n,
                        cudaStream_t stream) {
  size_t bytes = (size_t)n * sizeof(float);
  float* host_x = (float*)malloc(bytes + sizeof(float));
  float* host_y = (float*)malloc(bytes + sizeof(float));
  float *dev_x = NULL, *dev_y = NULL;
  int64_t shape[1], i, mismatches = 0;
  DLTensor tx, ty;
  TVMFFIAny args[3];
  char label[64];
  shape[0] = n;
  for (i = 0; i < n; ++i) host_x[i] = Input(i);
  CUDA_OK(cudaMalloc((void**)&dev_x, bytes + sizeof(float)));
  CUDA_OK(cudaMalloc((void**)&dev_y, bytes + sizeof(float)));
  /* Every copy runs on the caller's stream, which does not wait for the
   * legacy default stream: the kernel is ordered after them only if it too
   * launched on that stream. */
  CUDA_OK(cudaMemcpyAsync(dev_x, host_x, bytes, cudaMemcpyHostToDevice, stream));
  /* 0xff bytes are a NaN: an element the kernel skipped cannot match. */
  CUDA_OK(cudaMemsetAsync(dev_y, 0xff, bytes + sizeof(float), stream));
  tx = Float32Vector(dev_x, kDLCUDA, shape);
  ty = Float32Vector(dev_y, kDLCUDA, shape);
  args[0] = Tensor(&tx);
  args[1] = Tensor(&ty);

  snprintf(label, sizeof(label), "add_one(gpu x, gpu y) n=%lld", (long long)n);
  CallOk(label, add_one, args, 2);
  CUDA_OK(cudaMemcpyAsync(host_y, dev_y, bytes + sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  for (i = 0; i < n; ++i) mismatches += host_y[i] != host_x[i] + 1.0f;
  /* One element past the end stays untouched. */
  EXPECT(host_y[n] != host_y[n]);
  EXPECT(mismatches == 0);
  printf("  add_one mismatches against the CPU: %lld\n", (long long)mismatches);
  PrintOutputs("add_one", host_y, n);

  CUDA_OK(cudaMemsetAsync(dev_y, 0xff, bytes, stream));
  args[2] = Float(-2.5);
  snprintf(label, sizeof(label), "scale(gpu x, gpu y, -2.5) n=%lld", (long long)n);
  CallOk(label, scale, args, 3);
  CUDA_OK(cudaMemcpyAsync(host_y, dev_y, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  mismatches = 0;
  for (i = 0; i < n; ++i) mismatches += host_y[i] != host_x[i] * -2.5f;
  EXPECT(mismatches == 0);
  printf("  scale mismatches against the CPU: %lld\n", (long long)mismatches);
  PrintOutputs("scale", host_y, n);

  CUDA_OK(cudaFree(dev_x));
  CUDA_OK(cudaFree(dev_y));
  free(host_x);
  free(host_y);
}

static int Gpu(const char* path) {
  int devices = 0;
  cudaError_t err = cudaGetDeviceCount(&devices);
  TVMFFIObjectHandle m, add_one, scale;
  cudaStream_t stream = NULL;
  TVMFFIStreamHandle original = NULL;
  static const int64_t sizes[] = {0, 1, 17, 1000, 1 << 20, (1 << 20) + 3};
  size_t k;
  if (err != cudaSuccess || devices == 0) {
    printf("SKIPPED: no CUDA device (%s)\n", err != cudaSuccess ? cudaGetErrorName(err) : "0");
    return 77;
  }
  m = LoadModule(path);
  EXPECT(m != NULL);
  if (m == NULL) return ReportResults();
  add_one = GetFunction(m, "add_one");
  scale = GetFunction(m, "scale");
  EXPECT(add_one != NULL && scale != NULL);
  if (add_one == NULL || scale == NULL) return ReportResults();

  /* The kernels launch on the stream the caller sets, as a framework would. */
  CUDA_OK(cudaSetDevice(0));
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  EXPECT(TVMFFIEnvSetStream(kDLCUDA, 0, stream, &original) == 0);
  EXPECT(TVMFFIEnvGetStream(kDLCUDA, 0) == (TVMFFIStreamHandle)stream);
  for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); ++k)
    RunOnDevice(add_one, scale, sizes[k], stream);

  {
    /* Mixed devices are refused before anything is launched. */
    float host[4] = {0, 0, 0, 0};
    float* dev = NULL;
    int64_t shape[1] = {4};
    DLTensor tx, ty;
    TVMFFIAny args[2];
    CUDA_OK(cudaMalloc((void**)&dev, sizeof(host)));
    tx = Float32Vector(dev, kDLCUDA, shape);
    ty = Float32Vector(host, kDLCPU, shape);
    args[0] = Tensor(&tx);
    args[1] = Tensor(&ty);
    CallFails("add_one(gpu x, cpu y)", add_one, args, 2, "ValueError",
              "add_one: y must be a CUDA tensor");
    ty = Float32Vector(dev, kDLCUDA, shape);
    ty.dtype.bits = 64;
    CallFails("add_one(gpu x, gpu float64 y)", add_one, args, 2, "TypeError",
              "add_one: expects float32");
    CUDA_OK(cudaFree(dev));
  }

  EXPECT(TVMFFIEnvSetStream(kDLCUDA, 0, original, NULL) == 0);
  CUDA_OK(cudaStreamDestroy(stream));
  TVMFFIObjectDecRef(add_one);
  TVMFFIObjectDecRef(scale);
  TVMFFIObjectDecRef(m);
  return ReportResults();
}

int main(int argc, char** argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc == 3 && strcmp(argv[1], "check") == 0) return Check(argv[2]);
  if (argc == 3 && strcmp(argv[1], "gpu") == 0) return Gpu(argv[2]);
  printf("usage: %s check|gpu <cuda_kernels.so>\n", argv[0]);
  return 2;
}
