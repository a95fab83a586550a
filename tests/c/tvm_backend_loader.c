/* Loads a library holding TVM's workspace context variable. Built twice: into
 * a program that links only libffi_core.so, where the load must be refused
 * with the missing symbol and the library to link named (never a later call
 * through NULL), and into one that links libffi_core_tvm.so too, where it
 * loads with the variable bound.
 * Usage: tvm_backend_loader <library.so> refused|bound */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "c_test_support.h"

static TVMFFIErrorCell* TakeError(TVMFFIObjectHandle* err) {
  *err = NULL;
  TVMFFIErrorMoveFromRaised(err);
  return *err != NULL ? ErrorCellOf(*err) : NULL;
}

static int Contains(TVMFFIByteArray text, const char* part) {
  size_t n = strlen(part), i;
  for (i = 0; i + n <= text.size; ++i) {
    if (memcmp(text.data + i, part, n) == 0) return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  TVMFFIObjectHandle load, get_function, err;
  TVMFFIAny args[3], module = None(), func = None(), result = None();
  TVMFFIErrorCell* cell;
  int rc;
  if (argc != 3) {
    printf("usage: %s <library.so> refused|bound\n", argv[0]);
    return 2;
  }
  load = Global("ffi.ModuleLoadFromFile");
  get_function = Global("ffi.ModuleGetFunction");
  if (load == NULL || get_function == NULL) return ReportResults();
  args[0] = RawStr(argv[1]);
  rc = TVMFFIFunctionCall(load, args, 1, &module);
  if (strcmp(argv[2], "refused") == 0) {
    EXPECT(rc != 0);
    cell = TakeError(&err);
    EXPECT(cell != NULL);
    if (cell != NULL) {
      printf("refused: %.*s\n", (int)cell->message.size, cell->message.data);
      EXPECT(Contains(cell->kind, "RuntimeError"));
      EXPECT(Contains(cell->message, "__TVMBackendAllocWorkspace"));
      EXPECT(Contains(cell->message, "libffi_core_tvm.so"));
      EXPECT(Contains(cell->message, argv[1]));
      TVMFFIObjectDecRef(err);
    }
    return ReportResults();
  }
  EXPECT(rc == 0);
  if (rc != 0) {
    PrintPendingError("load");
    return ReportResults();
  }
  args[0] = module;
  args[1] = RawStr("workspace_is_bound");
  args[2] = None();
  args[2].type_index = kTVMFFIBool;
  EXPECT(TVMFFIFunctionCall(get_function, args, 3, &func) == 0);
  EXPECT(func.type_index == kTVMFFIFunction);
  if (func.type_index == kTVMFFIFunction) {
    EXPECT(TVMFFIFunctionCall(func.v_obj, NULL, 0, &result) == 0);
    EXPECT(result.type_index == kTVMFFIBool && result.v_int64 == 1);
    TVMFFIObjectDecRef(func.v_obj);
  }
  TVMFFIObjectDecRef(module.v_obj);
  return ReportResults();
}
