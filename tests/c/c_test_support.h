/* Shared by the C tests: pass/fail counting and reading the pending error
 * through the C ABI alone (the TVMFFIErrorCell after the object header). */
#ifndef FFI_CORE_TESTS_C_TEST_SUPPORT_H_
#define FFI_CORE_TESTS_C_TEST_SUPPORT_H_

#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

static int g_passed = 0;
static int g_failed = 0;

#define EXPECT(cond)                                           \
  do {                                                         \
    if (cond) {                                                \
      ++g_passed;                                              \
    } else {                                                   \
      ++g_failed;                                              \
      printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); \
    }                                                          \
  } while (0)

/* Argument values, every byte set (the padding invariants). */
static inline TVMFFIAny None(void) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  return a;
}

static inline TVMFFIAny Int(int64_t v) {
  TVMFFIAny a = None();
  a.type_index = kTVMFFIInt;
  a.v_int64 = v;
  return a;
}

static inline TVMFFIAny Float(double v) {
  TVMFFIAny a = None();
  a.type_index = kTVMFFIFloat;
  a.v_float64 = v;
  return a;
}

static inline TVMFFIAny RawStr(const char* s) {
  TVMFFIAny a = None();
  a.type_index = kTVMFFIRawStr;
  a.v_c_str = s;
  return a;
}

/* A 1-D float32 tensor over `data`, every byte of it set. */
static inline DLTensor Float32Vector(void* data, DLDeviceType device_type, int64_t* shape) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = device_type;
  t.device.device_id = 0;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/* The global function `name`, counted as a failure when missing. */
static inline TVMFFIObjectHandle Global(const char* name) {
  TVMFFIByteArray n;
  TVMFFIObjectHandle f = NULL;
  n.data = name;
  n.size = strlen(name);
  EXPECT(TVMFFIFunctionGetGlobal(&n, &f) == 0 && f != NULL);
  return f;
}

static inline TVMFFIErrorCell* ErrorCellOf(TVMFFIObjectHandle err) {
  return (TVMFFIErrorCell*)((char*)err + sizeof(TVMFFIObject));
}

/* Prints "<what>: <kind>: <message>" for the pending error and releases it;
 * returns 1 if there was one. */
static inline int PrintPendingError(const char* what) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return 0;
  printf("%s: %.*s: %.*s\n", what, (int)ErrorCellOf(err)->kind.size, ErrorCellOf(err)->kind.data,
         (int)ErrorCellOf(err)->message.size, ErrorCellOf(err)->message.data);
  TVMFFIObjectDecRef(err);
  return 1;
}

/* Prints the closing "N passed, N failed" line; the exit code to return. */
static inline int ReportResults(void) {
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}

#endif /* FFI_CORE_TESTS_C_TEST_SUPPORT_H_ */
