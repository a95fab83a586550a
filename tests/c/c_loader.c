/*
 * A kernel loader in the style of upstream's stable-C-ABI example, written
 * only against tvm/ffi/c_api.h: load a module from a shared library, get a
 * function, call it with two DLTensor pointers, print the error cell on
 * failure. Built against ffi-core's headers and against the apache-tvm-ffi
 * wheel's, and run against ffi-core's host runtime (libffi_core.so).
 * Usage: c_loader <kernel-library.so>
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "c_test_support.h"

/* Non-zero when rc reports a failure; prints the error cell if there is one. */
static int Check(int rc, const char* what) {
  if (rc == 0) return 0;
  if (!PrintPendingError(what)) printf("%s failed without an error\n", what);
  return 1;
}

static TVMFFIObjectHandle GetGlobal(const char* name) {
  TVMFFIByteArray n;
  TVMFFIObjectHandle f = NULL;
  n.data = name;
  n.size = strlen(name);
  if (Check(TVMFFIFunctionGetGlobal(&n, &f), name) != 0 || f == NULL) {
    printf("global %s not found\n", name);
    return NULL;
  }
  return f;
}

static TVMFFIAny Pointer(int32_t type_index, const void* p) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = type_index;
  a.v_ptr = (void*)p;
  return a;
}

int main(int argc, char** argv) {
  TVMFFIObjectHandle load, get_function, add_one;
  TVMFFIAny args[3], module, func, result;
  float x[5] = {0, 1, 2, 3, 4}, y[5] = {0};
  int64_t shape[1] = {5};
  DLTensor tx, ty;
  int i, failures = 0;
  if (argc != 2) {
    printf("usage: %s <kernel-library.so>\n", argv[0]);
    return 2;
  }
  /* Step 1: load the library as a module. */
  load = GetGlobal("ffi.ModuleLoadFromFile");
  get_function = GetGlobal("ffi.ModuleGetFunction");
  if (load == NULL || get_function == NULL) return 1;
  args[0] = Pointer(kTVMFFIRawStr, argv[1]);
  memset(&module, 0, sizeof(module));
  if (Check(TVMFFIFunctionCall(load, args, 1, &module), "load")) return 1;

  /* Step 2: get add_one from it. */
  args[0] = module;
  args[1] = Pointer(kTVMFFIRawStr, "add_one");
  memset(&args[2], 0, sizeof(args[2]));
  args[2].type_index = kTVMFFIBool;
  memset(&func, 0, sizeof(func));
  if (Check(TVMFFIFunctionCall(get_function, args, 3, &func), "get add_one")) return 1;
  if (func.type_index != kTVMFFIFunction) {
    printf("add_one not found\n");
    return 1;
  }
  add_one = func.v_obj;

  /* Step 3: call it with two DLTensor pointers. */
  tx = Float32Vector(x, kDLCPU, shape);
  ty = Float32Vector(y, kDLCPU, shape);
  args[0] = Pointer(kTVMFFIDLTensorPtr, &tx);
  args[1] = Pointer(kTVMFFIDLTensorPtr, &ty);
  memset(&result, 0, sizeof(result));
  failures += Check(TVMFFIFunctionCall(add_one, args, 2, &result), "add_one");
  for (i = 0; i < 5; ++i) {
    printf("y[%d] = %g\n", i, (double)y[i]);
    if (y[i] != x[i] + 1) ++failures;
  }

  /* A bad call: int32 output. The error comes back through the cell. */
  ty.dtype.code = kDLInt;
  memset(&result, 0, sizeof(result));
  if (Check(TVMFFIFunctionCall(add_one, args, 2, &result), "add_one(int32 y)") == 0) {
    printf("expected a failure\n");
    ++failures;
  }

  TVMFFIObjectDecRef(add_one);
  TVMFFIObjectDecRef(module.v_obj);
  TVMFFIObjectDecRef(get_function);
  TVMFFIObjectDecRef(load);
  printf("%s\n", failures == 0 ? "c_loader: OK" : "c_loader: FAILED");
  return failures == 0 ? 0 : 1;
}
