/*
 * Loads the upstream-style C++ kernel libraries (tests/cross/cxx/) through
 * the C API alone and prints what they answer: typed functions, an object
 * type with reflected fields and methods read back through TVMFFIGetTypeInfo,
 * C++ exceptions turned into errors, and containers built through the C API
 * that the kernels read, build and change inline with upstream's headers.
 * Built twice, against ffi-core's runtime and against the wheel's;
 * compare_runs.cmake requires identical transcripts. Each library's line
 * also says which libstdc++ it binds to (see port_host.cc).
 * Usage: cxx_kernel_loader <typed.so> <object.so> <throwing.so> <container.so>
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
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

static const TVMFFISeqCell* SeqOf(const TVMFFIAny* v) {
  return (const TVMFFISeqCell*)((const char*)v->v_obj + sizeof(TVMFFIObject));
}

/* Prints a value the kernels return: int, float, bool, string, an Array or
 * List (read through TVMFFISeqCell), a Shape, or a type. */
static void PrintValue(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) {
    const TVMFFISeqCell* cell = SeqOf(v);
    int64_t i;
    printf(v->type_index == kTVMFFIArray ? "(" : "[");
    for (i = 0; i < cell->size; ++i) {
      if (i > 0) printf(", ");
      PrintValue((const TVMFFIAny*)cell->data + i);
    }
    printf(v->type_index == kTVMFFIArray ? ")" : "]");
  } else if (v->type_index == kTVMFFIShape) {
    const TVMFFIShapeCell* cell =
        (const TVMFFIShapeCell*)((const char*)v->v_obj + sizeof(TVMFFIObject));
    size_t i;
    printf("Shape(");
    for (i = 0; i < cell->size; ++i) printf("%s%lld", i > 0 ? ", " : "", (long long)cell->data[i]);
    printf(")");
  } else if (v->type_index == kTVMFFIMap || v->type_index == kTVMFFIDict) {
    printf("<%s>", v->type_index == kTVMFFIMap ? "map" : "dict");
  } else if (v->type_index == kTVMFFIInt) {
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

/* Where a loaded library's std::num_put<char>::id binds: the process's
 * libstdc++.so.6, or the library's own copy of libstdc++ (a static one),
 * which a second such library would share only in part. */
static const char* CxxRuntimeOf(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (lib == NULL) return "not loaded";
  void* id = dlsym(lib, "_ZNSt7num_putIcSt19ostreambuf_iteratorIcSt11char_traitsIcEEE2idE");
  Dl_info info;
  const char* where = "none";
  if (id != NULL && dladdr(id, &info) != 0 && info.dli_fname != NULL) {
    where = strstr(info.dli_fname, "/libstdc++.so") != NULL ? "the process's libstdc++.so.6"
                                                            : "a copy of its own";
  }
  dlclose(lib);
  return where;
}

static TVMFFIObjectHandle LoadModule(const char* path) {
  TVMFFIObjectHandle load = Global("ffi.ModuleLoadFromFile");
  TVMFFIAny arg = RawStr(path);
  TVMFFIAny module = None();
  EXPECT(TVMFFIFunctionCall(load, &arg, 1, &module) == 0 && module.type_index == kTVMFFIModule);
  TVMFFIObjectDecRef(load);
  printf("loaded %s: C++ runtime %s\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
         CxxRuntimeOf(path));
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

/* global(args...): its result, owned; failures print the error. */
static TVMFFIAny CallGlobal(const char* name, TVMFFIAny* args, int32_t n) {
  TVMFFIObjectHandle f = Global(name);
  TVMFFIAny r = None();
  if (TVMFFIFunctionCall(f, args, n, &r) != 0) {
    printf("%s: ", name);
    if (!PrintPendingError("error")) printf("failed without an error\n");
  }
  TVMFFIObjectDecRef(f);
  return r;
}

/* Prints a map's size and the values of keys 0 .. probe - 1 (ffi.Map*). */
static void PrintIntMap(const char* label, TVMFFIAny map, int64_t probe) {
  TVMFFIAny args[2], r;
  int64_t k;
  args[0] = map;
  r = CallGlobal("ffi.MapSize", args, 1);
  printf("%s: size %lld:", label, (long long)r.v_int64);
  for (k = 0; k < probe; ++k) {
    args[1] = Int(k);
    r = CallGlobal("ffi.MapCount", args, 2);
    if (r.v_int64 == 0) continue;
    r = CallGlobal("ffi.MapGetItem", args, 2);
    printf(" %lld->", (long long)k);
    PrintValue(&r);
    Release(&r);
  }
  printf("\n");
}

/* A Tensor over caller-owned float32 data; nothing to free. */
static TVMFFIAny Float32Tensor(float* data, int64_t* shape, int32_t ndim) {
  static DLManagedTensor managed[4];
  static int used = 0;
  DLManagedTensor* m = &managed[used++ % 4];
  TVMFFIAny out = None();
  TVMFFIObjectHandle made = NULL;
  memset(m, 0, sizeof(*m));
  m->dl_tensor.data = data;
  m->dl_tensor.device.device_type = kDLCPU;
  m->dl_tensor.ndim = ndim;
  m->dl_tensor.dtype.code = kDLFloat;
  m->dl_tensor.dtype.bits = 32;
  m->dl_tensor.dtype.lanes = 1;
  m->dl_tensor.shape = shape;
  EXPECT(TVMFFITensorFromDLPack(m, 0, 0, &made) == 0);
  out.v_obj = (TVMFFIObject*)made;
  out.type_index = kTVMFFITensor;
  return out;
}

/* Calls the module's `name`; its result, owned. */
static TVMFFIAny CallKernel(TVMFFIObjectHandle m, const char* name, const char* label,
                            TVMFFIAny* args, int32_t n) {
  TVMFFIObjectHandle f = GetFunction(m, name);
  TVMFFIAny r = Call(label, f, args, n);
  TVMFFIObjectDecRef(f);
  return r;
}

static void Containers(const char* path) {
  TVMFFIObjectHandle m = LoadModule(path);
  float a[6] = {0, 1, 2, 3, 4, 5}, b[4] = {0.25f, 0.25f, 0.25f, 0.25f};
  int64_t shape_a[2] = {2, 3}, shape_b[1] = {4};
  TVMFFIAny args[8], tensors, row[3], rows, map, r, r2, lst;
  int64_t n;
  args[0] = Float32Tensor(a, shape_a, 2);
  args[1] = Float32Tensor(b, shape_b, 1);
  tensors = CallGlobal("ffi.Array", args, 2);
  Release(&args[0]);
  Release(&args[1]);
  r = CallKernel(m, "sum_tensors", "sum_tensors([a(2x3), b(4)])", &tensors, 1);
  Release(&tensors);
  args[0] = Int(1);
  args[1] = Int(2);
  tensors = CallGlobal("ffi.Array", args, 2);
  CallKernel(m, "sum_tensors", "sum_tensors([1, 2])", &tensors, 1);
  Release(&tensors);
  args[0] = Int(1);
  args[1] = Int(2);
  args[2] = Int(3);
  row[0] = CallGlobal("ffi.Array", args, 3);
  row[1] = CallGlobal("ffi.Array", args, 0);
  args[0] = Int(10);
  args[1] = Int(-4);
  row[2] = CallGlobal("ffi.Array", args, 2);
  rows = CallGlobal("ffi.Array", row, 3);
  r = CallKernel(m, "row_sums", "row_sums([[1, 2, 3], [], [10, -4]])", &rows, 1);
  Release(&r);
  Release(&rows);
  for (n = 0; n < 3; ++n) Release(&row[n]);
  args[0] = RawStr("apple");
  args[1] = Int(3);
  args[2] = RawStr("banana");
  args[3] = Int(5);
  args[4] = RawStr("a key longer than small");
  args[5] = Int(7);
  map = CallGlobal("ffi.Map", args, 6);
  args[0] = map;
  args[1] = RawStr("banana");
  CallKernel(m, "lookup", "lookup(m, 'banana')", args, 2);
  args[1] = RawStr("a key longer than small");
  CallKernel(m, "lookup", "lookup(m, long key)", args, 2);
  args[1] = RawStr("cherry");
  CallKernel(m, "lookup", "lookup(m, 'cherry')", args, 2);
  r = CallKernel(m, "describe", "describe(m)", &map, 1);
  Release(&r);
  Release(&map);
  for (n = 0; n <= 9; n += n < 6 ? 1 : 3) {
    char label[32];
    args[0] = Int(n);
    snprintf(label, sizeof(label), "squares(%lld)", (long long)n);
    r = CallKernel(m, "squares", label, args, 1);
    PrintIntMap("  read back", r, n + 1);
    Release(&r);
  }
  args[0] = Int(3);
  args[1] = RawStr("name");
  r = CallKernel(m, "make_tuple", "make_tuple(3, 'name')", args, 2);
  Release(&r);
  args[0] = Int(1);
  args[1] = Int(2);
  args[2] = Int(3);
  row[0] = CallGlobal("ffi.Array", args, 3);
  args[0] = Int(5);
  args[1] = RawStr("x");
  args[2] = row[0];
  r2 = CallGlobal("ffi.Array", args, 3);
  CallKernel(m, "read_tuple", "read_tuple((5, 'x', (1, 2, 3)))", &r2, 1);
  Release(&r2);
  args[2] = Int(6);
  r2 = CallGlobal("ffi.Array", args, 2);
  CallKernel(m, "read_tuple", "read_tuple((5, 'x'))", &r2, 1);
  Release(&r2);
  args[0] = Int(2);
  args[1] = Int(3);
  args[2] = Int(4);
  r2 = CallGlobal("ffi.Shape", args, 3);
  CallKernel(m, "volume", "volume(Shape(2, 3, 4))", &r2, 1);
  Release(&r2);
  args[0] = Int(1);
  args[1] = Int(2);
  lst = CallGlobal("ffi.List", args, 2);
  args[0] = lst;
  args[1] = Int(7);
  CallKernel(m, "list_append", "list_append([1, 2], 7)", args, 2);
  printf("  list is now ");
  PrintValue(&lst);
  printf("\n");
  Release(&lst);
  r2 = CallGlobal("ffi.Dict", args, 0);
  args[0] = r2;
  args[1] = RawStr("k");
  args[2] = Float(2.5);
  CallKernel(m, "dict_set", "dict_set({}, 'k', 2.5)", args, 3);
  args[1] = RawStr("k");
  r = CallGlobal("ffi.DictGetItem", args, 2);
  printf("  dict['k'] = ");
  PrintValue(&r);
  printf("\n");
  Release(&r2);
  args[0] = row[0];
  args[1] = Int(99);
  r = CallKernel(m, "with_first", "with_first((1, 2, 3), 99)", args, 2);
  printf("  original still ");
  PrintValue(&row[0]);
  printf("\n");
  Release(&r);
  Release(&row[0]);
  TVMFFIObjectDecRef(m);
}

int main(int argc, char** argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc != 5) {
    printf("usage: %s <typed.so> <object.so> <throwing.so> <container.so>\n", argv[0]);
    return 2;
  }
  Typed(argv[1]);
  Objects(argv[2]);
  Throwing(argv[3]);
  Containers(argv[4]);
  return ReportResults();
}
