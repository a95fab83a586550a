/* Host call-cost benchmark: calls only the C ABI (tvm/ffi/c_api.h), so the
 * same object links against ffi-core's libffi_core.so or upstream's
 * libtvm_ffi.so. scripts/bench-host.sh runs it under callgrind (no argument:
 * each operation's loop is bracketed by client requests, one stats dump per
 * operation) and natively ("ns": wall-clock time per operation, noisy). */
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <tvm/ffi/c_api.h>
#include <valgrind/callgrind.h>

static TVMFFIObjectHandle g_add;
static TVMFFIObjectHandle g_none;
static TVMFFIAny g_args[2];
static int64_t g_shape[2] = {4, 8};
static float g_data[32];
static DLManagedTensorVersioned g_dlpack;
static const char kText32[] = "thirty-two bytes of string text!";
static const TVMFFIByteArray kGlobalName = {"bench_host.add", 14};

static int Add(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}

static int ReturnNone(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)num_args;
  (void)result;
  return 0;
}

static void KeepDLPack(DLManagedTensorVersioned* self) { (void)self; }

static TVMFFIAny None(void) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  return a;
}

/* Each operation is one out-of-line function called through a pointer, as
 * is the empty baseline subtracted from it. */
static void Empty(void) {}
static void CallTwoInts(void) {
  TVMFFIAny result = None();
  TVMFFIFunctionCall(g_add, g_args, 2, &result);
}
static void CallNone(void) {
  TVMFFIAny result = None();
  TVMFFIFunctionCall(g_none, NULL, 0, &result);
}
static void IncDecRef(void) {
  TVMFFIObjectIncRef(g_add);
  TVMFFIObjectDecRef(g_add);
}
static void CreateFunction(void) {
  TVMFFIObjectHandle f = NULL;
  TVMFFIFunctionCreate(NULL, &Add, NULL, &f);
  TVMFFIObjectDecRef(f);
}
static void RaiseAndTake(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "bad input");
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIObjectDecRef(err);
}
static void String32(void) {
  TVMFFIByteArray bytes = {kText32, 32};
  TVMFFIAny out = None();
  TVMFFIStringFromByteArray(&bytes, &out);
  TVMFFIObjectDecRef(out.v_obj);
}
static void TensorFromDLPack(void) {
  TVMFFIObjectHandle t = NULL;
  TVMFFITensorFromDLPackVersioned(&g_dlpack, 0, 0, &t);
  TVMFFIObjectDecRef(t);
}
static void GetGlobal(void) {
  TVMFFIObjectHandle f = NULL;
  TVMFFIFunctionGetGlobal(&kGlobalName, &f);
  TVMFFIObjectDecRef(f);
}

struct Case {
  const char* name;
  void (*fn)(void);
  int iterations; /* under callgrind */
};
static const struct Case kCases[] = {
    {"empty", &Empty, 2000},
    {"call_2_ints", &CallTwoInts, 2000},
    {"call_none", &CallNone, 2000},
    {"incref_decref", &IncDecRef, 2000},
    {"function_create", &CreateFunction, 2000},
    {"raise_move_release", &RaiseAndTake, 200},
    {"string_32", &String32, 2000},
    {"tensor_from_dlpack", &TensorFromDLPack, 2000},
    {"get_global", &GetGlobal, 2000},
};
enum { kNumCases = sizeof(kCases) / sizeof(kCases[0]) };

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int Setup(void) {
  g_args[0] = None();
  g_args[0].type_index = kTVMFFIInt;
  g_args[0].v_int64 = 40;
  g_args[1] = g_args[0];
  g_args[1].v_int64 = 2;
  if (TVMFFIFunctionCreate(NULL, &Add, NULL, &g_add) != 0) return 1;
  if (TVMFFIFunctionCreate(NULL, &ReturnNone, NULL, &g_none) != 0) return 1;
  if (TVMFFIFunctionSetGlobal(&kGlobalName, g_add, 1) != 0) return 1;
  memset(&g_dlpack, 0, sizeof(g_dlpack));
  g_dlpack.version.major = DLPACK_MAJOR_VERSION;
  g_dlpack.version.minor = DLPACK_MINOR_VERSION;
  g_dlpack.deleter = &KeepDLPack;
  g_dlpack.dl_tensor.data = g_data;
  g_dlpack.dl_tensor.device.device_type = kDLCPU;
  g_dlpack.dl_tensor.ndim = 2;
  g_dlpack.dl_tensor.dtype.code = kDLFloat;
  g_dlpack.dl_tensor.dtype.bits = 32;
  g_dlpack.dl_tensor.dtype.lanes = 1;
  g_dlpack.dl_tensor.shape = g_shape;
  return 0;
}

int main(int argc, char** argv) {
  const int timed = argc > 1 && strcmp(argv[1], "ns") == 0;
  if (Setup() != 0) {
    fprintf(stderr, "bench_host: setup failed\n");
    return 1;
  }
  for (int c = 0; c < kNumCases; ++c) {
    /* Warm up: lazy binding, first allocations, caches. */
    for (int i = 0; i < 100; ++i) kCases[c].fn();
    if (timed) {
      /* At least 50 ms per operation, in batches of 1000. */
      long n = 0;
      const double t0 = Now();
      double t1 = t0;
      while (t1 - t0 < 5e7) {
        for (int i = 0; i < 1000; ++i) kCases[c].fn();
        n += 1000;
        t1 = Now();
      }
      printf("%s %.2f\n", kCases[c].name, (t1 - t0) / (double)n);
    } else {
      CALLGRIND_ZERO_STATS;
      for (int i = 0; i < kCases[c].iterations; ++i) kCases[c].fn();
      CALLGRIND_DUMP_STATS_AT(kCases[c].name);
      printf("%s %d\n", kCases[c].name, kCases[c].iterations);
    }
  }
  TVMFFIObjectDecRef(g_add);
  TVMFFIObjectDecRef(g_none);
  return 0;
}
