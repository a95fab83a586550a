/*
 * On target: the short-enum policy (see core/include/ffi_core/device.h),
 * from a C caller to a C++ callee. In C on arm-none-eabi DLDeviceType is one
 * byte, so assigning the fields of an uninitialised DLDevice leaves bytes
 * 1-3 of the device-type word as garbage. The callee (ffi-core C++) must
 * still see the right device, and checking mode must flag the raw Any.
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "../c/c_test_support.h"

/* Implemented in C++ (short_enum_callee.cc): returns a Function that reads
 * a DLTensor* argument and returns its device type as an int. */
TVMFFIObjectHandle ShortEnumCallee(void);

int main(void) {
  float data[3] = {1, 2, 3};
  int64_t shape[1] = {3};
  DLTensor t;
  TVMFFIAny arg, result;
  TVMFFIObjectHandle callee = ShortEnumCallee();
  uint32_t word;

  printf("sizeof(DLDeviceType) in C here: %u, sizeof(DLDevice): %u\n",
         (unsigned)sizeof(DLDeviceType), (unsigned)sizeof(DLDevice));
  EXPECT(sizeof(DLDevice) == 8);
  EXPECT(callee != NULL);

  /* A careless writer: garbage first, then field-by-field assignment. */
  memset(&t, 0xAB, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = NULL;
  t.byte_offset = 0;
  memcpy(&word, &t.device, sizeof(word));
  printf("device_type word as a 4-byte reader sees it: 0x%08lx\n", (unsigned long)word);
  if (sizeof(DLDeviceType) == 1) EXPECT(word != (uint32_t)kDLCPU); /* the hazard is real */

  /* The C++ callee reads the device through ffi-core: it sees kDLCPU. */
  memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIDLTensorPtr;
  arg.v_ptr = &t;
  memset(&result, 0, sizeof(result));
  EXPECT(TVMFFIFunctionCall(callee, &arg, 1, &result) == 0);
  EXPECT(result.type_index == kTVMFFIInt && result.v_int64 == kDLCPU);
  PrintPendingError("error");

  /* A DLDevice passed by value with the same garbage: checking mode rejects
   * it with a clear error instead of letting a C++ reader misread it. */
  memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIDevice;
  memcpy(&arg.v_device, &t.device, sizeof(t.device));
  memset(&result, 0, sizeof(result));
  if (sizeof(DLDeviceType) == 1) {
    EXPECT(TVMFFIFunctionCall(callee, &arg, 1, &result) != 0);
    PrintPendingError("error");
  }
  /* Zero-initialised, as the policy asks of writers: accepted. */
  memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIDevice;
  arg.v_device.device_type = kDLCPU;
  memset(&result, 0, sizeof(result));
  EXPECT(TVMFFIFunctionCall(callee, &arg, 1, &result) == 0);
  EXPECT(result.v_int64 == kDLCPU);

  TVMFFIObjectDecRef(callee);
  return ReportResults();
}
