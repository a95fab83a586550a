// The type registry, reflection, type attributes, BigInt, errors with a
// cause and TVMFFIBacktrace, through the C API. Registered types are never
// removed, so the capacity test at the end of this file fills the tables.
#include <ffi_core/pool_allocator.h>

#include <cstdio>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

TVMFFIByteArray Key(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

int32_t Alloc(const char* key, int32_t depth, int32_t slots, bool overflow, int32_t parent) {
  const TVMFFIByteArray k = Key(key);
  return TVMFFITypeGetOrAllocIndex(&k, -1, depth, slots, overflow ? 1 : 0, parent);
}

// Functions and values the registry keeps for good come from this pool, so
// the leak checks of AllocatorScope do not see them.
class RegistryMemory {
 public:
  RegistryMemory() : previous_(GetAllocator()) { SetAllocator(pool_.allocator()); }
  ~RegistryMemory() { SetAllocator(previous_); }

 private:
  static StaticPool<128, 16> pool_;
  Allocator* previous_;
};
StaticPool<128, 16> RegistryMemory::pool_;

int GetInt(void* field, TVMFFIAny* result) {
  TypeTraits<int64_t>::Write(*static_cast<int64_t*>(field), result);
  return 0;
}

TVMFFIFieldInfo IntField(const char* name, const char* doc, int64_t offset) {
  TVMFFIFieldInfo f{};
  f.name = Key(name);
  f.doc = Key(doc);
  f.size = sizeof(int64_t);
  f.alignment = alignof(int64_t);
  f.offset = offset;
  f.getter = &GetInt;
  f.field_static_type_index = kTVMFFIInt;
  return f;
}

std::string_view KeyOf(int32_t index) { return View(TVMFFIGetTypeInfo(index)->type_key); }

}  // namespace

TEST_CASE("static types are registered under upstream's keys") {
  const struct {
    int32_t index;
    const char* key;
  } kStatic[] = {{kTVMFFINone, "None"},
                 {kTVMFFIInt, "int"},
                 {kTVMFFIOpaquePtr, "void*"},
                 {kTVMFFIRawStr, "const char*"},
                 {kTVMFFISmallStr, "ffi.SmallStr"},
                 {kTVMFFIUnchanged, "ffi.Unchanged"},
                 {kTVMFFIObject, "ffi.Object"},
                 {kTVMFFIStr, "ffi.String"},
                 {kTVMFFIFunction, "ffi.Function"},
                 {kTVMFFITensor, "ffi.Tensor"},
                 {kTVMFFIBigInt, "ffi.BigInt"}};
  for (const auto& s : kStatic) {
    CAPTURE(s.key);
    int32_t index = -1;
    const TVMFFIByteArray key = Key(s.key);
    REQUIRE(TVMFFITypeKeyToIndex(&key, &index) == 0);
    CHECK(index == s.index);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(s.index);
    REQUIRE(info != nullptr);
    CHECK(View(info->type_key) == s.key);
    CHECK(info->type_depth == (s.index > kTVMFFIObject ? 1 : 0));
  }
  CHECK(TVMFFIGetTypeInfo(kTVMFFIStr)->type_ancestors[0] == TVMFFIGetTypeInfo(kTVMFFIObject));
  CHECK(TVMFFIGetTypeInfo(kTVMFFIStr)->type_key_hash !=
        TVMFFIGetTypeInfo(kTVMFFIBytes)->type_key_hash);
  // Between the POD and the object ranges, and past the static ones.
  CHECK(TVMFFIGetTypeInfo(kTVMFFIUnchanged + 1) == nullptr);
  CHECK(TVMFFIGetTypeInfo(kTVMFFIStaticObjectEnd) == nullptr);
  CHECK(TVMFFIGetTypeInfo(-1) == nullptr);
  const TVMFFIByteArray missing = Key("unit.NoSuchType");
  int32_t out = 0;
  CHECK(TVMFFITypeKeyToIndex(&missing, &out) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "KeyError");
  CHECK(Contains(t.message, "unit.NoSuchType"));
}

TEST_CASE("dynamic types: indices, child slots, ancestors") {
  const int32_t base = Alloc("unit.Base", 1, 2, false, kTVMFFIObject);
  REQUIRE(base >= kTVMFFIDynObjectBegin);
  const int32_t child1 = Alloc("unit.Child1", 2, 0, true, base);
  const int32_t child2 = Alloc("unit.Child2", 2, 0, false, base);
  CHECK(child1 == base + 1);
  CHECK(child2 == base + 2);
  const int32_t open = Alloc("unit.Open", 1, 0, true, kTVMFFIObject);
  CHECK(open > base + 2);
  const int32_t grandchild = Alloc("unit.Grandchild", 3, 0, false, child1);
  CHECK(grandchild > open);

  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(grandchild);
  REQUIRE(info != nullptr);
  CHECK(info->type_depth == 3);
  CHECK(KeyOf(info->type_ancestors[0]->type_index) == "ffi.Object");
  CHECK(info->type_ancestors[1]->type_index == base);
  CHECK(info->type_ancestors[2]->type_index == child1);

  // Same key, same index; query mode; static keys return their index.
  CHECK(Alloc("unit.Base", 1, 2, false, kTVMFFIObject) == base);
  CHECK(Alloc("unit.Base", 0, 0, false, -2) == base);
  CHECK(Alloc("unit.NotYet", 0, 0, false, -2) == -2);
  const TVMFFIByteArray str = Key("ffi.String");
  CHECK(TVMFFITypeGetOrAllocIndex(&str, kTVMFFIStr, 1, 0, 0, kTVMFFIObject) == kTVMFFIStr);
  int32_t looked_up = 0;
  const TVMFFIByteArray child_key = Key("unit.Child2");
  REQUIRE(TVMFFITypeKeyToIndex(&child_key, &looked_up) == 0);
  CHECK(looked_up == child2);
}

TEST_CASE("a library's type at a free index of the static object range, as Apache TVM's are") {
  const TVMFFIByteArray key = Key("unit.AtStaticIndex");
  REQUIRE(TVMFFITypeGetOrAllocIndex(&key, 115, 1, 2, 0, kTVMFFIObject) == 115);
  CHECK(KeyOf(115) == "unit.AtStaticIndex");
  CHECK(TVMFFIGetTypeInfo(115)->type_ancestors[0]->type_index == kTVMFFIObject);
  // Registered again under the same key and index: the same index.
  CHECK(TVMFFITypeGetOrAllocIndex(&key, 115, 1, 2, 0, kTVMFFIObject) == 115);
  // The index is now taken.
  const TVMFFIByteArray other = Key("unit.AtStaticIndex.Other");
  CHECK(TVMFFITypeGetOrAllocIndex(&other, 115, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(Contains(TakeError().message, "static index taken or out of range: 115"));
  // Its children take indices past every reservation.
  const int32_t child = Alloc("unit.AtStaticIndex.Child", 2, 0, false, 115);
  CHECK(child >= kTVMFFIDynObjectBegin);
  CHECK(TVMFFIGetTypeInfo(child)->type_ancestors[1]->type_index == 115);
}

TEST_CASE("dynamic types: refused registrations") {
  const int32_t full = Alloc("unit.Full", 1, 1, false, kTVMFFIObject);
  REQUIRE(full >= kTVMFFIDynObjectBegin);
  REQUIRE(Alloc("unit.Full.A", 2, 0, false, full) == full + 1);
  CHECK(Alloc("unit.Full.B", 2, 0, false, full) == -1);
  CHECK(Contains(TakeError().message, "no child slot left"));
  CHECK(Alloc("unit.WrongDepth", 3, 0, false, kTVMFFIObject) == -1);
  CHECK(Contains(TakeError().message, "from its parent, depth 1"));
  CHECK(Alloc("unit.Orphan", 1, 0, false, 100000) == -1);
  CHECK(TakeError().kind == "KeyError");
  CHECK(Alloc("unit.NegativeSlots", 1, -1, false, kTVMFFIObject) == -1);
  CHECK(TakeError().kind == "ValueError");
  const TVMFFIByteArray str = Key("ffi.String");
  CHECK(TVMFFITypeGetOrAllocIndex(&str, kTVMFFIBytes, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(Contains(TakeError().message, "registered with index 65"));
  // A static index taken by a built-in type, or outside the static object range.
  const TVMFFIByteArray made_up = Key("unit.MadeUpStatic");
  CHECK(TVMFFITypeGetOrAllocIndex(&made_up, kTVMFFIArray, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(Contains(TakeError().message, "static index taken or out of range"));
  CHECK(TVMFFITypeGetOrAllocIndex(&made_up, kTVMFFIDynObjectBegin, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(Contains(TakeError().message, "static index taken or out of range"));
  CHECK(TVMFFITypeGetOrAllocIndex(&made_up, 7, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(Contains(TakeError().message, "static index taken or out of range"));
  CHECK(TVMFFITypeGetOrAllocIndex(nullptr, -1, 0, 0, 0, -1) == -1);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("reflection: fields and methods read back through the type info") {
  RegistryMemory memory;
  const int32_t a = Alloc("unit.Reflected.A", 1, 0, false, kTVMFFIObject);
  const int32_t b = Alloc("unit.Reflected.B", 1, 0, false, kTVMFFIObject);
  REQUIRE(a > 0);
  REQUIRE(b > 0);
  // The caller's buffers need not outlive the call.
  char doc[] = "first field";
  TVMFFIFieldInfo x = IntField("x", doc, 24);
  x.default_value_or_factory.type_index = kTVMFFIInt;
  x.default_value_or_factory.v_int64 = 5;
  x.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  REQUIRE(TVMFFITypeRegisterField(a, &x) == 0);
  doc[0] = 'F';
  // Interleaved registrations keep each type's fields contiguous.
  REQUIRE(TVMFFITypeRegisterField(b, &x) == 0);
  TVMFFIFieldInfo y = IntField("y", "second field", 32);
  REQUIRE(TVMFFITypeRegisterField(a, &y) == 0);
  const TVMFFITypeInfo* ia = TVMFFIGetTypeInfo(a);
  const TVMFFITypeInfo* ib = TVMFFIGetTypeInfo(b);
  REQUIRE(ia->num_fields == 2);
  REQUIRE(ib->num_fields == 1);
  CHECK(View(ia->fields[0].name) == "x");
  CHECK(View(ia->fields[0].doc) == "first field");
  CHECK(View(ib->fields[0].doc) == "First field");
  CHECK(ia->fields[0].default_value_or_factory.v_int64 == 5);
  CHECK(View(ia->fields[1].name) == "y");
  CHECK(ia->fields[1].offset == 32);
  int64_t storage = 42;
  TVMFFIAny got = NoneAny();
  REQUIRE(ia->fields[1].getter(&storage, &got) == 0);
  CHECK(got.v_int64 == 42);

  // A field name is registered once per type.
  TVMFFIFieldInfo y2 = IntField("y", "again", 40);
  CHECK(TVMFFITypeRegisterField(a, &y2) != 0);
  CHECK(Contains(TakeError().message, "duplicate field name"));
  CHECK(TVMFFIGetTypeInfo(a)->num_fields == 2);

  Expected<Function> triple = Function::FromTyped([](int64_t v) { return v * 3; });
  REQUIRE(triple.ok());
  TVMFFIMethodInfo m{};
  m.name = Key("triple");
  m.doc = Key("times three");
  m.method = AnyView(*triple).raw();
  REQUIRE(TVMFFITypeRegisterMethod(a, &m) == 0);
  // Methods may share a name: overloads.
  REQUIRE(TVMFFITypeRegisterMethod(a, &m) == 0);
  triple = Function();  // the registry holds its own references
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(a);
  REQUIRE(info->num_methods == 2);
  CHECK(View(info->methods[0].doc) == "times three");
  TVMFFIAny arg = NoneAny();
  TypeTraits<int64_t>::Write(14, &arg);
  TVMFFIAny result = NoneAny();
  REQUIRE(TVMFFIFunctionCall(info->methods[0].method.v_obj, &arg, 1, &result) == 0);
  CHECK(result.v_int64 == 42);

  CHECK(TVMFFITypeRegisterField(100000, &x) != 0);
  CHECK(TakeError().kind == "KeyError");
  // A static type takes reflection through a writable copy of its read-only
  // entry, up to FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY of them.
  if (FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY > 0) {
    const TVMFFITypeInfo* before = TVMFFIGetTypeInfo(kTVMFFIShape);
    REQUIRE(TVMFFITypeRegisterField(kTVMFFIShape, &x) == 0);
    const TVMFFITypeInfo* shape = TVMFFIGetTypeInfo(kTVMFFIShape);
    CHECK(shape != before);
    CHECK(shape->type_index == kTVMFFIShape);
    CHECK(View(shape->type_key) == "ffi.Shape");
    CHECK(shape->type_depth == 1);
    CHECK(shape->type_ancestors[0] == TVMFFIGetTypeInfo(kTVMFFIObject));
    REQUIRE(shape->num_fields == 1);
    CHECK(View(shape->fields[0].name) == "x");
    CHECK(TVMFFITypeRegisterField(kTVMFFIShape, &x) != 0);
    CHECK(TakeError().kind == "ValueError");
    TVMFFITypeMetadata meta{};
    meta.total_size = 40;
    REQUIRE(TVMFFITypeRegisterMetadata(kTVMFFIShape, &meta) == 0);
    CHECK(TVMFFIGetTypeInfo(kTVMFFIShape)->metadata->total_size == 40);
    CHECK(TVMFFIGetTypeInfo(kTVMFFIShape)->num_fields == 1);
  } else {
    CHECK(TVMFFITypeRegisterField(kTVMFFIShape, &x) != 0);
    CHECK(TakeError().kind == "MemoryError");
  }
  CHECK(TVMFFITypeRegisterMethod(a, nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("reflection: metadata and globals from method info") {
  RegistryMemory memory;
  const int32_t t = Alloc("unit.WithMetadata", 1, 0, false, kTVMFFIObject);
  REQUIRE(t > 0);
  CHECK(TVMFFIGetTypeInfo(t)->metadata == nullptr);
  TVMFFITypeMetadata meta{};
  meta.doc = Key("documented");
  meta.total_size = 48;
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindDAGNode;
  REQUIRE(TVMFFITypeRegisterMetadata(t, &meta) == 0);
  const TVMFFITypeMetadata* got = TVMFFIGetTypeInfo(t)->metadata;
  REQUIRE(got != nullptr);
  CHECK(View(got->doc) == "documented");
  CHECK(got->total_size == 48);
  CHECK(got->structural_eq_hash_kind == kTVMFFISEqHashKindDAGNode);
  CHECK(TVMFFITypeRegisterMetadata(t, &meta) != 0);
  CHECK(TakeError().kind == "RuntimeError");
  // A static type's metadata: see "reflection: fields and methods ..." for a host's; a
  // board's static types take none.
  if (FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY == 0) {
    CHECK(TVMFFITypeRegisterMetadata(kTVMFFIStr, &meta) != 0);
    CHECK(TakeError().kind == "MemoryError");
  }

  Expected<Function> f = Function::FromTyped([](int64_t v) { return v + 1; });
  REQUIRE(f.ok());
  TVMFFIMethodInfo m{};
  m.name = Key("unit.plus_one");
  m.method = AnyView(*f).raw();
  REQUIRE(TVMFFIFunctionSetGlobalFromMethodInfo(&m, 0) == 0);
  Expected<Function> back = GetGlobalFunction("unit.plus_one", 13);
  REQUIRE(back.ok());
  Expected<Any> r = (*back)(int64_t{41});
  REQUIRE(r.ok());
  CHECK(r->raw().v_int64 == 42);
  m.method = TVMFFIAny{kTVMFFIInt, {0}, {0}};
  CHECK(TVMFFIFunctionSetGlobalFromMethodInfo(&m, 1) != 0);
  CHECK(TakeError().kind == "TypeError");
  ClearGlobalFunctions();
}

TEST_CASE("type attributes: columns grow in both directions") {
  RegistryMemory memory;
  const TVMFFIByteArray enum_column = Key("__ffi_enum__");
  CHECK(TVMFFIGetTypeAttrColumn(&enum_column) != nullptr);
  const TVMFFIByteArray name = Key("unit.attr");
  const TVMFFIByteArray unknown = Key("unit.unknown");
  CHECK(TVMFFIGetTypeAttrColumn(&name) == nullptr);
  CHECK(TVMFFIGetTypeAttrColumn(&unknown) == nullptr);
  TVMFFIAny none = NoneAny();
  REQUIRE(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &none) == 0);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  REQUIRE(column != nullptr);
  CHECK(column->size == 0);

  TVMFFIAny v = NoneAny();
  TypeTraits<int64_t>::Write(70, &v);
  REQUIRE(TVMFFITypeRegisterAttr(kTVMFFITensor, &name, &v) == 0);
  TypeTraits<int64_t>::Write(65, &v);
  REQUIRE(TVMFFITypeRegisterAttr(kTVMFFIStr, &name, &v) == 0);
  TypeTraits<int64_t>::Write(78, &v);
  REQUIRE(TVMFFITypeRegisterAttr(kTVMFFIBigInt, &name, &v) == 0);
  CHECK(TVMFFIGetTypeAttrColumn(&name) == column);
  for (int32_t index : {kTVMFFIStr, kTVMFFITensor, kTVMFFIBigInt}) {
    REQUIRE(index >= column->begin_index);
    REQUIRE(index < column->begin_index + column->size);
    CHECK(column->data[index - column->begin_index].v_int64 == index);
  }
  const int32_t between = kTVMFFIShape - column->begin_index;
  CHECK(column->data[between].type_index == kTVMFFINone);

  // Set once.
  CHECK(TVMFFITypeRegisterAttr(kTVMFFIStr, &name, &v) != 0);
  CHECK(TakeError().kind == "RuntimeError");
  // Owned copies: a long string attribute survives its source.
  const TVMFFIByteArray text = Key("unit.text");
  Expected<String> s = String::FromCStr("an attribute value longer than seven bytes");
  REQUIRE(s.ok());
  REQUIRE(TVMFFITypeRegisterAttr(kTVMFFIStr, &text, &s->any().raw()) == 0);
  s = String();
  const TVMFFITypeAttrColumn* text_column = TVMFFIGetTypeAttrColumn(&text);
  REQUIRE(text_column != nullptr);
  const TVMFFIAny& stored = text_column->data[kTVMFFIStr - text_column->begin_index];
  CHECK(stored.type_index == kTVMFFIStr);
  CHECK(Contains(View(*TVMFFIBytesGetByteArrayPtr(stored.v_obj)), "longer than seven"));
  CHECK(TVMFFITypeRegisterAttr(-3, &name, &v) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("BigInt: words in, minimal words out") {
  AllocatorScope scope;
  auto from = [](std::initializer_list<int64_t> words, TVMFFIAny* out) {
    int64_t buf[4] = {0, 0, 0, 0};
    size_t n = 0;
    for (int64_t w : words) buf[n++] = w;
    const TVMFFIByteArray in{reinterpret_cast<const char*>(buf), n * sizeof(int64_t)};
    return TVMFFIBigIntFromByteArray(&in, out);
  };
  TVMFFIAny out = NoneAny();
  REQUIRE(from({}, &out) == 0);
  CHECK(out.type_index == kTVMFFIInt);
  CHECK(out.v_int64 == 0);
  REQUIRE(from({-7, -1, -1}, &out) == 0);
  CHECK(out.type_index == kTVMFFIInt);
  CHECK(out.v_int64 == -7);
  TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(&out);
  CHECK(content.size == sizeof(int64_t));

  REQUIRE(from({0, 1, 0}, &out) == 0);
  REQUIRE(out.type_index == kTVMFFIBigInt);
  content = TVMFFIBigIntGetContentByteArray(&out);
  REQUIRE(content.size == 2 * sizeof(int64_t));
  int64_t words[2];
  std::memcpy(words, content.data, sizeof(words));
  CHECK(words[0] == 0);
  CHECK(words[1] == 1);
  CHECK(scope.counter().live_blocks() == 1);
  TVMFFIObjectDecRef(out.v_obj);

  // A positive value whose top word has the sign bit set keeps a zero word.
  REQUIRE(from({-1, 0}, &out) == 0);
  CHECK(out.type_index == kTVMFFIBigInt);
  CHECK(TVMFFIBigIntGetContentByteArray(&out).size == 2 * sizeof(int64_t));
  TVMFFIObjectDecRef(out.v_obj);

  const TVMFFIByteArray ragged{"12345", 5};
  CHECK(TVMFFIBigIntFromByteArray(&ragged, &out) != 0);
  CHECK(Contains(TakeError().message, "not whole 64-bit words"));
  CHECK(TVMFFIBigIntFromByteArray(nullptr, &out) != 0);
  CHECK(TakeError().kind == "ValueError");
  TVMFFIAny f = NoneAny();
  f.type_index = kTVMFFIFloat;
  CHECK(TVMFFIBigIntGetContentByteArray(&f).data == nullptr);
}

TEST_CASE("errors with a cause chain and extra context") {
  AllocatorScope scope;
  const TVMFFIByteArray kind = Key("ValueError"), msg = Key("outer"), bt = Key("");
  TVMFFIObjectHandle cause = nullptr, extra = nullptr, err = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &bt, &cause) == 0);
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &bt, &extra) == 0);
  REQUIRE(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, &bt, cause, extra, &err) == 0);
  CHECK(TVMFFIErrorGetCellPtr(err)->cause_chain == cause);
  CHECK(TVMFFIErrorGetCellPtr(err)->extra_context == extra);
  CHECK(ObjectStrongCount(static_cast<TVMFFIObject*>(cause)) == 2);
  TVMFFIObjectDecRef(err);
  CHECK(ObjectStrongCount(static_cast<TVMFFIObject*>(cause)) == 1);
  CHECK(ObjectStrongCount(static_cast<TVMFFIObject*>(extra)) == 1);
  TVMFFIObjectDecRef(cause);
  TVMFFIObjectDecRef(extra);
  CHECK(TVMFFIErrorCreateWithCauseAndExtraContext(nullptr, &msg, &bt, nullptr, nullptr, &err) != 0);
  CHECK(!HasPendingError());
}

TEST_CASE("backtraces: kept and grown where errors keep them, else empty") {
  const bool kept = FFI_CORE_ERROR_BACKTRACES != 0;
  // The line for the raising frame, kept by the context until the next call.
  const TVMFFIByteArray* line = TVMFFIBacktrace("file.cc", 3, "int f(int)", 1);
  REQUIRE(line != nullptr);
  CHECK(View(*line) == (kept ? "  File \"file.cc\", line 3, in int f(int)\n" : ""));
  CHECK(View(*TVMFFIBacktrace("g.cc", 12, "g", 0)) ==
        (kept ? "  File \"g.cc\", line 12, in g\n" : ""));

  AllocatorScope scope;
  const TVMFFIByteArray kind = Key("ValueError"), msg = Key("m"), bt = Key("  one\n");
  TVMFFIObjectHandle err = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &bt, &err) == 0);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  CHECK(View(cell->backtrace) == (kept ? "  one\n" : ""));
  const TVMFFIByteArray two = Key("  two\n"), empty = Key("");
  cell->update_backtrace(err, &two, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(View(cell->backtrace) == (kept ? "  one\n  two\n" : ""));
  cell->update_backtrace(err, &two, kTVMFFIBacktraceUpdateModeReplace);
  CHECK(View(cell->backtrace) == (kept ? "  two\n" : ""));
  cell->update_backtrace(err, &empty, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(View(cell->backtrace) == (kept ? "  two\n" : ""));
  cell->update_backtrace(err, nullptr, kTVMFFIBacktraceUpdateModeReplace);  // ignored
  CHECK(View(cell->backtrace) == (kept ? "  two\n" : ""));
  cell->update_backtrace(err, &empty, kTVMFFIBacktraceUpdateModeReplace);
  CHECK(cell->backtrace.size == 0);
  cell->update_backtrace(err, &bt, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(TVMFFIObjectDecRef(err) == 0);  // its backtrace goes with it (the scope counts)

  // A raised error's backtrace grows the same way and is emptied when its
  // pool entry comes back.
  static_cast<void>(RaiseError(ErrorKind::kTypeError, {"raised"}));
  Error raised = Error::MoveFromRaised();
  TVMFFIErrorCell* raised_cell = TVMFFIErrorGetCellPtr(raised.object().header());
  CHECK(raised_cell->backtrace.size == 0);
  raised_cell->update_backtrace(raised.object().header(), &bt, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(View(raised_cell->backtrace) == (kept ? "  one\n" : ""));
  raised = Error();
  for (int i = 0; i < FFI_CORE_ERROR_POOL_SIZE; ++i) {
    static_cast<void>(RaiseError(ErrorKind::kTypeError, {"again"}));
    Error again = Error::MoveFromRaised();
    CHECK(TVMFFIErrorGetCellPtr(again.object().header())->backtrace.size == 0);
  }
  CHECK(TVMFFIErrorCreate(&kind, &msg, &bt, nullptr) != 0);
  const TVMFFIByteArray unreadable{nullptr, 3};
  CHECK(TVMFFIErrorCreate(&kind, &msg, &unreadable, &err) != 0);
}

// Last in the file: it fills the tables for the rest of the run.
TEST_CASE("registry capacities are reported when reached") {
  char key[24] = "unit.cap.";
  int32_t last = 0;
  for (int i = 0; i <= FFI_CORE_TYPE_CAPACITY && last >= 0; ++i) {
    std::snprintf(key + 9, sizeof(key) - 9, "%d", i);
    last = Alloc(key, 1, 0, true, kTVMFFIObject);
  }
  REQUIRE(last == -1);
  CHECK(Contains(TakeError().message, "FFI_CORE_TYPE_CAPACITY"));

  const int32_t t = Alloc("unit.cap.0", 1, 0, true, kTVMFFIObject);
  REQUIRE(t >= kTVMFFIDynObjectBegin);
  int status = 0;
  char field[16];
  for (int i = 0; i <= FFI_CORE_TYPE_FIELD_CAPACITY && status == 0; ++i) {
    std::snprintf(field, sizeof(field), "f%d", i);
    const TVMFFIFieldInfo f = IntField(field, "", 0);
    status = TVMFFITypeRegisterField(t, &f);
  }
  REQUIRE(status != 0);
  CHECK(Contains(TakeError().message, "no room for another field"));

  const TVMFFIAny one{kTVMFFIInt, {0}, {1}};
  bool full = false;
  for (int i = 0; i <= FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY && !full; ++i) {
    std::snprintf(field, sizeof(field), "a%d", i);
    const TVMFFIByteArray name = Key(field);
    full = TVMFFITypeRegisterAttr(kTVMFFIShape, &name, &one) != 0;
  }
  REQUIRE(full);
  CHECK(Contains(TakeError().message, "FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY"));
  const TVMFFIByteArray column = Key("a0");
  CHECK(TVMFFITypeRegisterAttr(FFI_CORE_TYPE_ATTR_CELL_CAPACITY + 1000, &column, &one) != 0);
  CHECK(Contains(TakeError().message, "FFI_CORE_TYPE_ATTR_CELL_CAPACITY"));

  static char long_doc[512];
  std::memset(long_doc, 'd', sizeof(long_doc) - 1);
  TVMFFIMethodInfo method{};
  method.name = Key("m");
  method.doc = Key(long_doc);
  status = 0;
  for (int i = 0; i <= FFI_CORE_TYPE_TEXT_CAPACITY / 511 && status == 0; ++i) {
    status = TVMFFITypeRegisterMethod(t, &method);
  }
  REQUIRE(status != 0);
  CHECK(Contains(TakeError().message, "FFI_CORE_TYPE_TEXT_CAPACITY"));
}
