/*
 * A kernel library written in plain C against tvm/ffi/c_api.h only.
 *
 * It is built twice from this one source: against ffi-core's headers and
 * against the apache-tvm-ffi wheel's headers. Neither build links a runtime:
 * every TVMFFI* symbol stays undefined in the shared library and is bound by
 * whichever runtime loads it (upstream's libtvm_ffi.so when Python calls
 * tvm_ffi.load_module, ffi-core's when ffi-core hosts it). The exported names
 * follow the __tvm_ffi_<name> convention that module loaders look up.
 *
 * Exports:
 *   add_one(x, y)          y[i] = x[i] + 1, float32 1-D CPU tensors
 *   dot_i8(a, b)           sum of a[i] * b[i] over int8 1-D CPU tensors, as int
 *   echo(x)                x back, converted to an owned value
 *   raise_value_error(m)   raises ValueError(m)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#define CROSS_EXPORT TVM_FFI_DLL_EXPORT

static int RaiseC(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* Raises kind: "<fn>: argument <i> <what>" built from parts, no formatting. */
static int RaiseArg(const char* kind, const char* fn, int32_t index, const char* what) {
  static const char* const digits[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
  const char* parts[5];
  parts[0] = fn;
  parts[1] = ": argument ";
  parts[2] = (index >= 0 && index < 10) ? digits[index] : "?";
  parts[3] = " ";
  parts[4] = what;
  TVMFFIErrorSetRaisedFromCStrParts(kind, parts, 5);
  return -1;
}

static int CheckArity(const char* fn, int32_t num_args, int32_t expected) {
  if (num_args != expected) {
    const char* parts[3];
    parts[0] = fn;
    parts[1] = ": wrong number of arguments, expected ";
    parts[2] = expected == 1 ? "1" : "2";
    TVMFFIErrorSetRaisedFromCStrParts("TypeError", parts, 3);
    return -1;
  }
  return 0;
}

static void SetNone(TVMFFIAny* out) {
  memset(out, 0, sizeof(*out));
  out->type_index = kTVMFFINone;
}

/* A borrowed DLTensor from either a DLTensor* view or a Tensor object,
 * whose DLTensor follows the 24-byte object header. NULL otherwise. */
static DLTensor* TensorOf(const TVMFFIAny* value) {
  if (value->type_index == kTVMFFIDLTensorPtr) {
    return (DLTensor*)value->v_ptr;
  }
  if (value->type_index == kTVMFFITensor) {
    return (DLTensor*)((char*)value->v_obj + sizeof(TVMFFIObject));
  }
  return NULL;
}

/* Checks a 1-D, CPU, compact tensor of the given dtype; returns it or NULL
 * after raising. dtype mismatch and non-tensors raise TypeError; shape,
 * layout and device problems raise ValueError. */
static DLTensor* Check1D(const char* fn, const TVMFFIAny* args, int32_t index, uint8_t code,
                         uint8_t bits, const char* dtype_msg) {
  DLTensor* t = TensorOf(&args[index]);
  if (t == NULL) {
    RaiseArg("TypeError", fn, index, "must be a tensor");
    return NULL;
  }
  if (t->dtype.code != code || t->dtype.bits != bits || t->dtype.lanes != 1) {
    RaiseArg("TypeError", fn, index, dtype_msg);
    return NULL;
  }
  if (t->ndim != 1) {
    RaiseArg("ValueError", fn, index, "must be 1-D");
    return NULL;
  }
  if (t->device.device_type != kDLCPU) {
    RaiseArg("ValueError", fn, index, "must be on the CPU");
    return NULL;
  }
  if (t->strides != NULL && t->shape[0] > 1 && t->strides[0] != 1) {
    RaiseArg("ValueError", fn, index, "must be contiguous");
    return NULL;
  }
  return t;
}

static void* DataOf(const DLTensor* t) { return (char*)t->data + t->byte_offset; }

CROSS_EXPORT int __tvm_ffi_add_one(void* handle, const TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) {
  static const char fn[] = "add_one";
  const DLTensor* x;
  const DLTensor* y;
  const float* xs;
  float* ys;
  int64_t i;
  (void)handle;
  if (CheckArity(fn, num_args, 2) != 0) return -1;
  x = Check1D(fn, args, 0, kDLFloat, 32, "must be float32");
  if (x == NULL) return -1;
  y = Check1D(fn, args, 1, kDLFloat, 32, "must be float32");
  if (y == NULL) return -1;
  if (x->shape[0] != y->shape[0]) {
    return RaiseC("ValueError", "add_one: x and y must have the same shape");
  }
  xs = (const float*)DataOf(x);
  ys = (float*)DataOf(y);
  for (i = 0; i < x->shape[0]; ++i) {
    ys[i] = xs[i] + 1.0f;
  }
  SetNone(result);
  return 0;
}

CROSS_EXPORT int __tvm_ffi_dot_i8(void* handle, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result) {
  static const char fn[] = "dot_i8";
  const DLTensor* a;
  const DLTensor* b;
  const int8_t* as;
  const int8_t* bs;
  int64_t i;
  int64_t sum = 0;
  (void)handle;
  if (CheckArity(fn, num_args, 2) != 0) return -1;
  a = Check1D(fn, args, 0, kDLInt, 8, "must be int8");
  if (a == NULL) return -1;
  b = Check1D(fn, args, 1, kDLInt, 8, "must be int8");
  if (b == NULL) return -1;
  if (a->shape[0] != b->shape[0]) {
    return RaiseC("ValueError", "dot_i8: a and b must have the same length");
  }
  as = (const int8_t*)DataOf(a);
  bs = (const int8_t*)DataOf(b);
  for (i = 0; i < a->shape[0]; ++i) {
    sum += (int64_t)as[i] * (int64_t)bs[i];
  }
  memset(result, 0, sizeof(*result));
  result->type_index = kTVMFFIInt;
  result->v_int64 = sum;
  return 0;
}

CROSS_EXPORT int __tvm_ffi_echo(void* handle, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)handle;
  if (CheckArity("echo", num_args, 1) != 0) return -1;
  /* The argument is a borrowed view; the result must own what it holds:
   * objects gain a reference, a raw C string becomes a String. */
  SetNone(result);
  return TVMFFIAnyViewToOwnedAny(&args[0], result);
}

/* Raises kind with a message given as bytes that need not end in NUL. */
static int RaiseBytes(const char* kind, const char* data, size_t size) {
  TVMFFIByteArray kind_bytes;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace;
  TVMFFIObjectHandle error = NULL;
  kind_bytes.data = kind;
  kind_bytes.size = strlen(kind);
  message.data = data;
  message.size = size;
  backtrace.data = "";
  backtrace.size = 0;
  if (TVMFFIErrorCreate(&kind_bytes, &message, &backtrace, &error) != 0 || error == NULL) {
    return RaiseC("MemoryError", "raise_value_error: could not create the error");
  }
  TVMFFIErrorSetRaised(error); /* takes its own reference */
  TVMFFIObjectDecRef(error);
  return -1;
}

CROSS_EXPORT int __tvm_ffi_raise_value_error(void* handle, const TVMFFIAny* args, int32_t num_args,
                                             TVMFFIAny* result) {
  static const char fn[] = "raise_value_error";
  (void)handle;
  (void)result;
  if (CheckArity(fn, num_args, 1) != 0) return -1;
  switch (args[0].type_index) {
    case kTVMFFISmallStr: {
      /* Up to 7 bytes inline; copy them out so there is room for a NUL. */
      char text[sizeof(args[0].v_bytes) + 1];
      size_t size = args[0].small_str_len;
      if (size > sizeof(args[0].v_bytes)) size = sizeof(args[0].v_bytes);
      memcpy(text, args[0].v_bytes, size);
      text[size] = '\0';
      return RaiseC("ValueError", text);
    }
    case kTVMFFIStr: {
      const TVMFFIByteArray* bytes =
          (const TVMFFIByteArray*)((const char*)args[0].v_obj + sizeof(TVMFFIObject));
      return RaiseBytes("ValueError", bytes->data, bytes->size);
    }
    case kTVMFFIRawStr:
      return RaiseC("ValueError", args[0].v_c_str);
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray* bytes = (const TVMFFIByteArray*)args[0].v_ptr;
      return RaiseBytes("ValueError", bytes->data, bytes->size);
    }
    default:
      return RaiseArg("TypeError", fn, 0, "must be a string");
  }
}
