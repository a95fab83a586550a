/*
 * Loads the upstream-style C++ kernel libraries (tests/cross/cxx/) through
 * the C API alone and prints what they answer: typed functions, an object
 * type with reflected fields and methods read back through TVMFFIGetTypeInfo,
 * and C++ exceptions turned into errors. Built twice, against ffi-core's
 * runtime and against the wheel's; compare_runs.cmake requires identical
 * transcripts.
 * Usage: cxx_kernel_loader <typed.so> <object.so> <throwing.so>
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "../c/c_test_support.h"

static TVMFFIAny Object(int32_t type_index, void* obj) {
  TVMFFIAny a = None();
  a.type_index = type_index;
  a.v_ptr = obj;
  return a;
}

static void Release(TVMFFIAny* value) {
  if (value->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(value->v_obj);
  *value = None();
}

/* Prints a value the kernels return: int, float, bool, string, or a type. */
static void PrintValue(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIInt) {
    printf("%lld", (long long)v->v_int64);
  } else if (v->type_index == kTVMFFIFloat) {
    printf("%.3f", v->v_float64);
  } else if (v->type_index == kTVMFFIBool) {
    printf("%s", v->v_int64 ? "true" : "false");
  } else if (v->type_index == kTVMFFISmallStr) {
    printf("'%.*s'", (int)v->small_str_len, v->v_bytes);
  } else if (v->type_index == kTVMFFIStr) {
    const TVMFFIByteArray* b = (const TVMFFIByteArray*)((char*)v->v_obj + sizeof(TVMFFIObject));
    printf("'%.*s'", (int)b->size, b->data);
  } else if (v->type_index >= kTVMFFIDynObjectBegin) {
    /* Dynamic indices differ between runtimes; the key does not. */
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(v->type_index);
    printf("<%.*s>", (int)info->type_key.size, info->type_key.data);
  } else {
    printf("<type %d>", v->type_index);
  }
}

/* Calls f; prints "<label> -> value" or "<label> -> Kind: message". */
static TVMFFIAny Call(const char* label, TVMFFIObjectHandle f, TVMFFIAny* args, int32_t n) {
  TVMFFIAny result = None();
  printf("%s -> ", label);
  if (TVMFFIFunctionCall(f, args, n, &result) != 0) {
    if (!PrintPendingError("error")) printf("failed without an error\n");
    return None();
  }
  PrintValue(&result);
  printf("\n");
  return result;
}

static TVMFFIObjectHandle LoadModule(const char* path) {
  TVMFFIObjectHandle load = Global("ffi.ModuleLoadFromFile");
  TVMFFIAny arg = RawStr(path);
  TVMFFIAny module = None();
  EXPECT(TVMFFIFunctionCall(load, &arg, 1, &module) == 0 && module.type_index == kTVMFFIModule);
  TVMFFIObjectDecRef(load);
  return module.v_obj;
}

static TVMFFIObjectHandle GetFunction(TVMFFIObjectHandle module, const char* name) {
  TVMFFIObjectHandle get = Global("ffi.ModuleGetFunction");
  TVMFFIAny args[3], f = None();
  args[0] = Object(kTVMFFIModule, module);
  args[1] = RawStr(name);
  args[2] = None();
  args[2].type_index = kTVMFFIBool;
  EXPECT(TVMFFIFunctionCall(get, args, 3, &f) == 0 && f.type_index == kTVMFFIFunction);
  TVMFFIObjectDecRef(get);
  return f.v_obj;
}

static void Typed(const char* path) {
  TVMFFIObjectHandle m = LoadModule(path);
  TVMFFIObjectHandle add_one = GetFunction(m, "add_one");
  TVMFFIObjectHandle mul_add = GetFunction(m, "mul_add");
  TVMFFIObjectHandle greet = GetFunction(m, "greet");
  float x[4] = {0.5f, 1.5f, -2.0f, 41.0f}, y[4] = {0, 0, 0, 0};
  int64_t shape[1] = {4};
  DLTensor tx, ty;
  TVMFFIAny args[3], r;
  int i;
  memset(&tx, 0, sizeof(tx));
  tx.data = x;
  tx.device.device_type = kDLCPU;
  tx.ndim = 1;
  tx.dtype.code = kDLFloat;
  tx.dtype.bits = 32;
  tx.dtype.lanes = 1;
  tx.shape = shape;
  ty = tx;
  ty.data = y;
  args[0] = Object(kTVMFFIDLTensorPtr, &tx);
  args[1] = Object(kTVMFFIDLTensorPtr, &ty);
  r = Call("add_one(x, y)", add_one, args, 2);
  printf("  y =");
  for (i = 0; i < 4; ++i) printf(" %.2f", y[i]);
  printf("\n");
  args[0] = Int(3);
  r = Call("add_one(3, y)", add_one, args, 2);
  args[0] = Int(3);
  args[1] = Int(4);
  args[2] = Float(0.5);
  r = Call("mul_add(3, 4, 0.5)", mul_add, args, 3);
  r = Call("mul_add(3, 4)", mul_add, args, 2);
  args[0] = RawStr("ab");
  args[1] = Int(2);
  r = Call("greet('ab', 2)", greet, args, 2);
  Release(&r);
  args[0] = RawStr("abcdefgh");
  args[1] = Int(3);
  r = Call("greet('abcdefgh', 3)", greet, args, 2);
  Release(&r);
  TVMFFIObjectDecRef(add_one);
  TVMFFIObjectDecRef(mul_add);
  TVMFFIObjectDecRef(greet);
  TVMFFIObjectDecRef(m);
}

static void PrintTypeInfo(const TVMFFITypeInfo* info) {
  int32_t i;
  printf("type %.*s depth %d ancestors [", (int)info->type_key.size, info->type_key.data,
         info->type_depth);
  for (i = 0; i < info->type_depth; ++i) {
    printf("%s%.*s", i == 0 ? "" : " ", (int)info->type_ancestors[i]->type_key.size,
           info->type_ancestors[i]->type_key.data);
  }
  printf("] fields %d methods %d metadata %d\n", info->num_fields, info->num_methods,
         info->metadata != NULL);
  if (info->metadata != NULL) {
    printf("  metadata total_size-set %d creator %d\n", info->metadata->total_size > 0,
           info->metadata->creator != NULL);
  }
}

/* Reads every reflected field of obj through its getter, then writes count. */
static void Fields(const TVMFFITypeInfo* info, TVMFFIObjectHandle obj) {
  int32_t i;
  for (i = 0; i < info->num_fields; ++i) {
    const TVMFFIFieldInfo* f = &info->fields[i];
    TVMFFIAny value = None();
    void* addr = (char*)obj + f->offset;
    printf("  field %.*s doc '%.*s' writable %d size %lld static %d = ", (int)f->name.size,
           f->name.data, (int)f->doc.size, f->doc.data,
           (int)((f->flags & kTVMFFIFieldFlagBitMaskWritable) != 0), (long long)f->size,
           f->field_static_type_index);
    EXPECT(f->getter(addr, &value) == 0);
    PrintValue(&value);
    printf("\n");
    Release(&value);
    if (f->name.size == 5 && memcmp(f->name.data, "count", 5) == 0) {
      TVMFFIAny twenty = Int(20);
      if (f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
        TVMFFIAny args[2], r = None();
        args[0] = Object(kTVMFFIOpaquePtr, addr);
        args[1] = twenty;
        EXPECT(TVMFFIFunctionCall(f->setter, args, 2, &r) == 0);
      } else {
        EXPECT(((TVMFFIFieldSetter)f->setter)(addr, &twenty) == 0);
      }
      EXPECT(f->getter(addr, &value) == 0);
      printf("  count set to 20, reads ");
      PrintValue(&value);
      printf("\n");
    }
  }
}

static const TVMFFIMethodInfo* Method(const TVMFFITypeInfo* info, const char* name) {
  int32_t i;
  for (i = 0; i < info->num_methods; ++i) {
    if (info->methods[i].name.size == strlen(name) &&
        memcmp(info->methods[i].name.data, name, strlen(name)) == 0) {
      return &info->methods[i];
    }
  }
  return NULL;
}

static void Objects(const char* path) {
  TVMFFIObjectHandle m = LoadModule(path);
  TVMFFIObjectHandle make = GetFunction(m, "make_counter");
  TVMFFIObjectHandle count_of = GetFunction(m, "count_of");
  TVMFFIAny args[2], counter, r;
  const TVMFFITypeInfo* info;
  const TVMFFIMethodInfo* advance;
  int32_t i;
  args[0] = RawStr("apples");
  args[1] = Int(5);
  counter = Call("make_counter('apples', 5)", make, args, 2);
  EXPECT(counter.type_index >= kTVMFFIDynObjectBegin);
  info = TVMFFIGetTypeInfo(counter.type_index);
  PrintTypeInfo(info);
  Fields(info, counter.v_obj);
  for (i = 0; i < info->num_methods; ++i) {
    printf("  method %.*s doc '%.*s' static %d\n", (int)info->methods[i].name.size,
           info->methods[i].name.data, (int)info->methods[i].doc.size, info->methods[i].doc.data,
           (int)((info->methods[i].flags & kTVMFFIFieldFlagBitMaskIsStaticMethod) != 0));
  }
  advance = Method(info, "advance");
  EXPECT(advance != NULL);
  if (advance != NULL) {
    args[0] = counter;
    args[1] = Int(3);
    r = Call("counter.advance(3)", advance->method.v_obj, args, 2);
  }
  if (Method(info, "describe") != NULL) {
    r = Call("counter.describe()", Method(info, "describe")->method.v_obj, &counter, 1);
    Release(&r);
  }
  r = Call("count_of(counter)", count_of, &counter, 1);
  args[0] = Int(1);
  r = Call("count_of(1)", count_of, args, 1);
  Release(&counter);
  TVMFFIObjectDecRef(make);
  TVMFFIObjectDecRef(count_of);
  TVMFFIObjectDecRef(m);
}

static void Throwing(const char* path) {
  TVMFFIObjectHandle m = LoadModule(path);
  TVMFFIObjectHandle div = GetFunction(m, "checked_div");
  TVMFFIObjectHandle at = GetFunction(m, "at");
  TVMFFIObjectHandle std_throw = GetFunction(m, "std_throw");
  TVMFFIAny args[2];
  args[0] = Int(7);
  args[1] = Int(2);
  Call("checked_div(7, 2)", div, args, 2);
  args[1] = Int(0);
  Call("checked_div(7, 0)", div, args, 2);
  args[0] = Int(2);
  Call("at(2)", at, args, 1);
  args[0] = Int(3);
  Call("at(3)", at, args, 1);
  args[0] = Int(-1);
  Call("std_throw(-1)", std_throw, args, 1);
  args[0] = Int(4);
  Call("std_throw(4)", std_throw, args, 1);
  TVMFFIObjectDecRef(div);
  TVMFFIObjectDecRef(at);
  TVMFFIObjectDecRef(std_throw);
  TVMFFIObjectDecRef(m);
}

int main(int argc, char** argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc != 4) {
    printf("usage: %s <typed.so> <object.so> <throwing.so>\n", argv[0]);
    return 2;
  }
  Typed(argv[1]);
  Objects(argv[2]);
  Throwing(argv[3]);
  return ReportResults();
}
