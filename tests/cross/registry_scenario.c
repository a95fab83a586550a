/*
 * The type registry, reflection, type attributes, BigInt and error C API,
 * exercised through c_api.h alone. Built twice: against ffi-core's headers and
 * runtime, and against the apache-tvm-ffi wheel's headers and libtvm_ffi.so.
 * Each build prints a transcript of what the runtime answered; ctest requires
 * both to succeed and the transcripts to be identical (compare_runs.cmake).
 * Only facts both runtimes must agree on are printed: dynamic indices are
 * shown relative to each other, never as absolute numbers.
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "../c/c_test_support.h"

static TVMFFIByteArray Bytes(const char* s) {
  TVMFFIByteArray b;
  b.data = s;
  b.size = strlen(s);
  return b;
}

/* Releases the pending error; 1 if there was one. */
static int DropError(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return 0;
  TVMFFIObjectDecRef(err);
  return 1;
}

static void PrintKey(const TVMFFITypeInfo* info) {
  printf("%.*s", (int)info->type_key.size, info->type_key.data);
}

static void PrintAncestors(const TVMFFITypeInfo* info) {
  int32_t d;
  printf(" depth %d ancestors [", info->type_depth);
  for (d = 0; d < info->type_depth; ++d) {
    printf(d == 0 ? "" : " ");
    PrintKey(info->type_ancestors[d]);
  }
  printf("]");
}

static void StaticTypes(void) {
  int32_t index;
  for (index = 0; index < kTVMFFIStaticObjectEnd; ++index) {
    const TVMFFITypeInfo* info;
    int32_t back = -1;
    if (index > kTVMFFIUnchanged && index < kTVMFFIStaticObjectBegin) continue;
    info = TVMFFIGetTypeInfo(index);
    EXPECT(info != NULL && info->type_index == index);
    if (info == NULL) continue;
    printf("static %d ", index);
    PrintKey(info);
    PrintAncestors(info);
    EXPECT(TVMFFITypeKeyToIndex(&info->type_key, &back) == 0 && back == index);
    printf("\n");
  }
}

static int32_t Alloc(const char* key, int32_t depth, int32_t slots, int32_t overflow,
                     int32_t parent) {
  TVMFFIByteArray k = Bytes(key);
  return TVMFFITypeGetOrAllocIndex(&k, -1, depth, slots, overflow, parent);
}

static void PrintType(const char* label, int32_t index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  printf("%s ", label);
  PrintKey(info);
  PrintAncestors(info);
  printf(" fields %d methods %d\n", info->num_fields, info->num_methods);
}

/* Field accessors for an int64 at the field's address. */
static int GetInt64(void* field, TVMFFIAny* result) {
  *result = Int(*(int64_t*)field);
  return 0;
}

static int SetInt64(void* field, const TVMFFIAny* value) {
  if (value->type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "expected int");
    return -1;
  }
  *(int64_t*)field = value->v_int64;
  return 0;
}

/* A C method: returns twice its last argument. */
static int Twice(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  *result = Int(2 * args[num_args - 1].v_int64);
  return 0;
}

static TVMFFIObjectHandle TwiceFunction(void) {
  TVMFFIObjectHandle f = NULL;
  EXPECT(TVMFFIFunctionCreate(NULL, Twice, NULL, &f) == 0);
  return f;
}

static TVMFFIFieldInfo Field(const char* name, const char* doc, int64_t offset, int64_t flags) {
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name = Bytes(name);
  info.doc = Bytes(doc);
  info.metadata = Bytes("{\"unit\": \"count\"}");
  info.flags = flags;
  info.size = sizeof(int64_t);
  info.alignment = sizeof(int64_t);
  info.offset = offset;
  info.getter = GetInt64;
  info.setter = (void*)SetInt64;
  info.default_value_or_factory = None();
  info.field_static_type_index = kTVMFFIInt;
  return info;
}

static void PrintFields(int32_t index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  int64_t storage[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int32_t i;
  for (i = 0; i < info->num_fields; ++i) {
    const TVMFFIFieldInfo* f = &info->fields[i];
    TVMFFIAny value = None();
    TVMFFIAny seven = Int(7 + i);
    int64_t* at = (int64_t*)((char*)storage + f->offset);
    printf("field %.*s doc '%.*s' metadata '%.*s' flags %lld size %lld offset %lld static %d",
           (int)f->name.size, f->name.data, (int)f->doc.size, f->doc.data, (int)f->metadata.size,
           f->metadata.data, (long long)f->flags, (long long)f->size, (long long)f->offset,
           f->field_static_type_index);
    printf(" default type %d", f->default_value_or_factory.type_index);
    if (f->default_value_or_factory.type_index == kTVMFFIInt) {
      printf(" = %lld", (long long)f->default_value_or_factory.v_int64);
    }
    EXPECT(((TVMFFIFieldSetter)f->setter)(at, &seven) == 0);
    EXPECT(f->getter(at, &value) == 0);
    printf(" set-get %lld\n", (long long)value.v_int64);
  }
}

static void PrintMethods(int32_t index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  int32_t i;
  for (i = 0; i < info->num_methods; ++i) {
    const TVMFFIMethodInfo* m = &info->methods[i];
    TVMFFIAny args[2], result = None();
    args[0] = None();
    args[1] = Int(21);
    printf("method %.*s doc '%.*s' flags %lld type %d", (int)m->name.size, m->name.data,
           (int)m->doc.size, m->doc.data, (long long)m->flags, m->method.type_index);
    EXPECT(TVMFFIFunctionCall(m->method.v_obj, args, 2, &result) == 0);
    printf(" call %lld\n", (long long)result.v_int64);
  }
}

static void Reflection(int32_t index) {
  TVMFFIFieldInfo x = Field("x", "first", 0, kTVMFFIFieldFlagBitMaskWritable);
  TVMFFIFieldInfo y = Field("y", "second", 8, kTVMFFIFieldFlagBitMaskHasDefault);
  TVMFFIMethodInfo m;
  TVMFFITypeMetadata meta;
  const TVMFFITypeInfo* info;
  y.default_value_or_factory = Int(3);
  EXPECT(TVMFFITypeRegisterField(index, &x) == 0);
  EXPECT(TVMFFITypeRegisterField(index, &y) == 0);
  memset(&m, 0, sizeof(m));
  m.name = Bytes("twice");
  m.doc = Bytes("doubles");
  m.metadata = Bytes("{}");
  m.method.type_index = kTVMFFIFunction;
  m.method.v_obj = (TVMFFIObject*)TwiceFunction();
  EXPECT(TVMFFITypeRegisterMethod(index, &m) == 0);
  /* The registry keeps its own reference. */
  TVMFFIObjectDecRef(m.method.v_obj);
  memset(&meta, 0, sizeof(meta));
  meta.doc = Bytes("a test type");
  meta.total_size = 40;
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  EXPECT(TVMFFITypeRegisterMetadata(index, &meta) == 0);
  /* Refused or accepted alike on both runtimes (the error kinds differ). */
  {
    const int field_refused = TVMFFITypeRegisterField(index, &x) != 0 && DropError();
    const int metadata_refused = TVMFFITypeRegisterMetadata(index, &meta) != 0 && DropError();
    const int overload_accepted = TVMFFITypeRegisterMethod(index, &m) == 0;
    printf("duplicate field refused %d, second metadata refused %d, overload accepted %d\n",
           field_refused, metadata_refused, overload_accepted);
  }
  info = TVMFFIGetTypeInfo(index);
  printf("metadata doc '%.*s' total_size %d kind %d creator %d\n", (int)info->metadata->doc.size,
         info->metadata->doc.data, info->metadata->total_size,
         (int)info->metadata->structural_eq_hash_kind, info->metadata->creator != NULL);
  PrintFields(index);
  PrintMethods(index);
}

/* label names the type: absolute dynamic indices differ between runtimes. */
static void PrintAttr(const TVMFFITypeAttrColumn* column, const char* label, int32_t index) {
  printf(" [%s]:", label);
  if (index < column->begin_index || index >= column->begin_index + column->size) {
    printf("absent");
    return;
  }
  printf("type %d", column->data[index - column->begin_index].type_index);
  if (column->data[index - column->begin_index].type_index == kTVMFFIInt) {
    printf("=%lld", (long long)column->data[index - column->begin_index].v_int64);
  }
}

static void Attrs(int32_t base, int32_t child1, int32_t child2) {
  TVMFFIByteArray name = Bytes("ffi_core_test.attr");
  TVMFFIByteArray empty = Bytes("ffi_core_test.empty");
  TVMFFIByteArray unknown = Bytes("ffi_core_test.unknown");
  TVMFFIAny eleven = Int(11), twelve = Int(12), none = None();
  const TVMFFITypeAttrColumn* column;
  EXPECT(TVMFFITypeRegisterAttr(child1, &name, &eleven) == 0);
  EXPECT(TVMFFITypeRegisterAttr(child2, &name, &twelve) == 0);
  EXPECT(TVMFFITypeRegisterAttr(kTVMFFIStr, &name, &eleven) == 0);
  EXPECT(TVMFFITypeRegisterAttr(kTVMFFINone, &empty, &none) == 0);
  printf("second value refused %d\n",
         TVMFFITypeRegisterAttr(child1, &name, &twelve) != 0 && DropError());
  column = TVMFFIGetTypeAttrColumn(&name);
  EXPECT(column != NULL);
  printf("attr column");
  PrintAttr(column, "child1", child1);
  PrintAttr(column, "child2", child2);
  PrintAttr(column, "ffi.String", kTVMFFIStr);
  printf(" base-is-none %d\n", base < column->begin_index ||
                                   base >= column->begin_index + column->size ||
                                   column->data[base - column->begin_index].type_index == 0);
  printf("empty column exists %d, unknown column exists %d\n",
         TVMFFIGetTypeAttrColumn(&empty) != NULL, TVMFFIGetTypeAttrColumn(&unknown) != NULL);
}

static void TypeRegistry(void) {
  TVMFFIByteArray missing = Bytes("ffi_core_test.Missing");
  TVMFFIByteArray string_key = Bytes("ffi.String");
  int32_t index = 0;
  int32_t base = Alloc("ffi_core_test.Base", 1, 2, 0, kTVMFFIObject);
  int32_t child1 = Alloc("ffi_core_test.Child1", 2, 0, 0, base);
  int32_t child2 = Alloc("ffi_core_test.Child2", 2, 0, 0, base);
  int32_t open = Alloc("ffi_core_test.Open", 1, 0, 1, kTVMFFIObject);
  int32_t leaf = Alloc("ffi_core_test.Leaf", 2, 0, 0, open);
  printf(
      "base is dynamic %d; children at base+%d, base+%d; open after base's slots %d;"
      " leaf after open %d\n",
      base >= kTVMFFIDynObjectBegin, child1 - base, child2 - base, open > base + 2, leaf > open);
  printf("again %d query-existing %d query-missing %d static-again %d\n",
         Alloc("ffi_core_test.Base", 1, 2, 0, kTVMFFIObject) == base,
         Alloc("ffi_core_test.Base", 1, 2, 0, -2) == base,
         Alloc("ffi_core_test.Missing", 1, 0, 0, -2),
         TVMFFITypeGetOrAllocIndex(&string_key, kTVMFFIStr, 1, 0, 0, kTVMFFIObject));
  /* Only that it fails is compared: the wheel raises an InternalError (a
   * failed check), ffi-core a KeyError. */
  EXPECT(TVMFFITypeKeyToIndex(&missing, &index) != 0);
  printf("key-to-index of a missing key raises %d\n", DropError());
  PrintType("base", base);
  PrintType("child1", child1);
  PrintType("leaf", leaf);
  Reflection(child1);
  PrintType("child1 after reflection", child1);
  Attrs(base, child1, child2);
}

static void GlobalFromMethodInfo(void) {
  TVMFFIMethodInfo m;
  TVMFFIObjectHandle f = NULL;
  TVMFFIAny args[1], result = None();
  memset(&m, 0, sizeof(m));
  m.name = Bytes("ffi_core_test.global_twice");
  m.doc = Bytes("doubles");
  m.method.type_index = kTVMFFIFunction;
  m.method.v_obj = (TVMFFIObject*)TwiceFunction();
  EXPECT(TVMFFIFunctionSetGlobalFromMethodInfo(&m, 0) == 0);
  TVMFFIObjectDecRef(m.method.v_obj);
  EXPECT(TVMFFIFunctionGetGlobal(&m.name, &f) == 0 && f != NULL);
  args[0] = Int(50);
  EXPECT(TVMFFIFunctionCall(f, args, 1, &result) == 0);
  printf("global from method info: %lld\n", (long long)result.v_int64);
  TVMFFIObjectDecRef(f);
}

static void BigInt(const int64_t* words, size_t n) {
  TVMFFIByteArray in;
  TVMFFIAny out = None();
  TVMFFIByteArray content;
  size_t i;
  in.data = (const char*)words;
  in.size = n * sizeof(int64_t);
  printf("bigint of %u words ->", (unsigned)n);
  if (TVMFFIBigIntFromByteArray(&in, &out) != 0) {
    PrintPendingError(" error");
    return;
  }
  content = TVMFFIBigIntGetContentByteArray(&out);
  printf(" type %d words", out.type_index);
  for (i = 0; i < content.size / sizeof(int64_t); ++i) {
    int64_t w;
    memcpy(&w, content.data + i * sizeof(int64_t), sizeof(w));
    printf(" %lld", (long long)w);
  }
  printf("\n");
  if (out.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(out.v_obj);
}

static void BigInts(void) {
  const int64_t zero[3] = {0, 0, 0}, five[1] = {5}, minus_one[2] = {-1, -1};
  const int64_t two64[2] = {0, 1}, max_u64[2] = {-1, 0}, two128[4] = {0, 0, 1, 0};
  const int64_t negative[3] = {5, -1, -1}, low[1] = {-9223372036854775807LL - 1};
  TVMFFIByteArray ragged;
  TVMFFIAny out = None();
  BigInt(zero, 0);
  BigInt(zero, 3);
  BigInt(five, 1);
  BigInt(minus_one, 2);
  BigInt(low, 1);
  BigInt(two64, 2);
  BigInt(max_u64, 2);
  BigInt(two128, 4);
  BigInt(negative, 3);
  ragged.data = (const char*)five;
  ragged.size = 5;
  printf("bigint of 5 bytes fails %d\n", TVMFFIBigIntFromByteArray(&ragged, &out) != 0);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  printf("  and raises %d\n", err != NULL);
  if (err != NULL) TVMFFIObjectDecRef(err);
}

static uint32_t StrongCount(TVMFFIObjectHandle obj) {
  return (uint32_t)(((TVMFFIObject*)obj)->combined_ref_count & 0xffffffffu);
}

static void ErrorWithCause(void) {
  TVMFFIByteArray inner_kind = Bytes("ValueError"), inner_msg = Bytes("inner cause");
  TVMFFIByteArray kind = Bytes("RuntimeError"), msg = Bytes("outer"), bt = Bytes("");
  TVMFFIObjectHandle cause = NULL, extra = NULL, outer = NULL;
  TVMFFIErrorCell* cell;
  EXPECT(TVMFFIErrorCreate(&inner_kind, &inner_msg, &bt, &cause) == 0);
  EXPECT(TVMFFIErrorCreate(&inner_kind, &msg, &bt, &extra) == 0);
  EXPECT(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, &bt, cause, extra, &outer) == 0);
  cell = ErrorCellOf(outer);
  printf("error %.*s: %.*s; cause %.*s: %.*s; extra is error %d; cause refs %u",
         (int)cell->kind.size, cell->kind.data, (int)cell->message.size, cell->message.data,
         (int)ErrorCellOf(cell->cause_chain)->kind.size, ErrorCellOf(cell->cause_chain)->kind.data,
         (int)ErrorCellOf(cell->cause_chain)->message.size,
         ErrorCellOf(cell->cause_chain)->message.data,
         ((TVMFFIObject*)cell->extra_context)->type_index == kTVMFFIError, StrongCount(cause));
  TVMFFIObjectDecRef(outer);
  printf(" -> %u after release\n", StrongCount(cause));
  TVMFFIObjectDecRef(cause);
  TVMFFIObjectDecRef(extra);
  EXPECT(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, &bt, NULL, NULL, &outer) == 0);
  printf("error without cause: cause %d extra %d\n", ErrorCellOf(outer)->cause_chain != NULL,
         ErrorCellOf(outer)->extra_context != NULL);
  TVMFFIObjectDecRef(outer);
}

static void Backtrace(void) {
  const TVMFFIByteArray* bt = TVMFFIBacktrace("file.c", 1, "func", 0);
  printf("backtrace is an array %d\n", bt != NULL && (bt->size == 0 || bt->data != NULL));
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StaticTypes();
  TypeRegistry();
  GlobalFromMethodInfo();
  BigInts();
  ErrorWithCause();
  Backtrace();
  return ReportResults();
}
