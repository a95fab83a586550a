/*
 * Arguments as upstream's Python package writes them, not as its headers do:
 * its container setter (cython/function.pxi, TVMFFIPyArgSetterContainerObject_)
 * asks ffi.ContainerFindFirstNonCPUDevice for a tagged container's device
with an argument on its stack whose type index (the header's) and pointer
 * alone are written, so zero_padding holds whatever the stack held. Built against both
 * runtimes (compare_runs.cmake): the wheel's answers, and ffi-core's in
 * checking mode, must agree.
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "../c/c_test_support.h"

static int g_deleted = 0;

static void DeleteManaged(DLManagedTensor* self) {
  (void)self;
  ++g_deleted;
}

static TVMFFIAny Object(TVMFFIObjectHandle h) {
  TVMFFIAny a = None();
  a.type_index = ((TVMFFIObject*)h)->type_index;
  a.v_obj = (TVMFFIObject*)h;
  return a;
}

/* A container made by the global `maker` from `args`. */
static TVMFFIObjectHandle Make(const char* maker, TVMFFIAny* args, int32_t n) {
  TVMFFIObjectHandle f = Global(maker);
  TVMFFIAny out = None();
  EXPECT(TVMFFIFunctionCall(f, args, n, &out) == 0);
  TVMFFIObjectDecRef(f);
  return out.v_obj;
}

/* The scan as the Python package calls it, the argument's padding left as
 * `garbage` fills it. */
static void Scan(const char* what, TVMFFIObjectHandle container, unsigned char garbage) {
  TVMFFIObjectHandle scan = Global("ffi.ContainerFindFirstNonCPUDevice");
  TVMFFIAny arg;
  TVMFFIAny result = None();
  int rc;
  memset(&arg, garbage, sizeof(arg));
  arg.type_index = ((TVMFFIObject*)container)->type_index;
  arg.v_obj = (TVMFFIObject*)container;
  rc = TVMFFIFunctionCall(scan, &arg, 1, &result);
  if (rc != 0) {
    PrintPendingError(what);
  } else if (result.type_index == kTVMFFIDevice) {
    printf("%s, padding 0x%02x: device %d:%d\n", what, garbage, (int)result.v_device.device_type,
           result.v_device.device_id);
  } else {
    printf("%s, padding 0x%02x: type index %d\n", what, garbage, result.type_index);
  }
  EXPECT(rc == 0);
  TVMFFIObjectDecRef(scan);
}

int main(void) {
  static float data[4];
  int64_t shape[1] = {4};
  DLManagedTensor managed;
  TVMFFIObjectHandle tensor = NULL;
  TVMFFIAny args[2];
  TVMFFIObjectHandle containers[4];
  const char* names[4] = {"Array", "List", "Map", "Dict"};
  const unsigned char garbage[3] = {0x00, 0xA5, 0xFF};
  int i, g;

  memset(&managed, 0, sizeof(managed));
  managed.dl_tensor = Float32Vector(data, kDLCUDA, shape);
  managed.deleter = DeleteManaged;
  EXPECT(TVMFFITensorFromDLPack(&managed, 0, 0, &tensor) == 0);

  args[0] = Object(tensor);
  containers[0] = Make("ffi.Array", args, 1);
  containers[1] = Make("ffi.List", args, 1);
  args[0] = RawStr("x");
  args[1] = Object(tensor);
  containers[2] = Make("ffi.Map", args, 2);
  containers[3] = Make("ffi.Dict", args, 2);

  for (i = 0; i < 4; ++i) {
    for (g = 0; g < 3; ++g) Scan(names[i], containers[i], garbage[g]);
    TVMFFIObjectDecRef(containers[i]);
  }
  TVMFFIObjectDecRef(tensor);
  EXPECT(g_deleted == 1);
  return ReportResults();
}
