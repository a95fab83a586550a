// Containers through the C API, as a caller in another language sees them:
// the ffi.* globals make and change them, and their bytes sit where
// upstream's headers read them inline (TVMFFISeqCell after the header).
#include <ffi_core/container/any_hash.h>
#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/container/object_key_hooks.h>
#include <ffi_core/container/shape.h>

#include <cstddef>
#include <string>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

constexpr char kLong[] = "a string long enough to need an object";

// Calls the global `name` with `args`; the result in *out (owned).
int CallGlobal(const char* name, const AnyView* args, int32_t n, Any* out) {
  Expected<Function> f = GetGlobalFunction(name, std::strlen(name));
  if (!f.ok() || !*f) return -1;
  TVMFFIAny raw = NoneAny();
  const int rc = TVMFFIFunctionCall(
      f->object().header(), reinterpret_cast<TVMFFIAny*>(const_cast<AnyView*>(args)), n, &raw);
  *out = Any::AdoptRaw(raw);
  return rc;
}

Any Must(const char* name, std::initializer_list<AnyView> args) {
  Any out;
  const int rc = CallGlobal(name, args.begin(), static_cast<int32_t>(args.size()), &out);
  if (rc != 0) {
    TakenError t = TakeError();
    FAIL_CHECK(name, " failed: ", std::string(t.kind), ": ", std::string(t.message));
  }
  return out;
}

const TVMFFISeqCell* CellOf(const Any& seq) {
  return reinterpret_cast<const TVMFFISeqCell*>(seq.raw().v_obj + 1);
}

int64_t Int(const Any& a) { return a.As<int64_t>().value(); }

}  // namespace

TEST_CASE("ffi.Array holds its items in place after the cell, in upstream's layout") {
  AllocatorScope scope;
  String long_str = String::FromCStr(kLong).value();
  Any arr = Must("ffi.Array", {int64_t{7}, "abc", long_str, 2.5});
  REQUIRE(arr.type_index() == kTVMFFIArray);
  const TVMFFISeqCell* cell = CellOf(arr);
  CHECK(offsetof(ArrayObj, cell) == sizeof(TVMFFIObject));
  CHECK(cell->size == 4);
  CHECK(cell->capacity == 4);
  CHECK(static_cast<bool>(cell->data_deleter == nullptr));
  CHECK(cell->data == TrailingOf<Any>(reinterpret_cast<ArrayObj*>(arr.raw().v_obj)));
  const TVMFFIAny* items = static_cast<const TVMFFIAny*>(cell->data);
  CHECK(items[0].type_index == kTVMFFIInt);
  CHECK(items[0].v_int64 == 7);
  CHECK(items[1].type_index == kTVMFFISmallStr);        // the raw C string, owned
  CHECK(items[2].v_obj == long_str.any().raw().v_obj);  // objects are shared, not copied

  CHECK(Int(Must("ffi.ArraySize", {arr})) == 4);
  CHECK(Must("ffi.ArrayGetItem", {arr, int64_t{2}}).raw().v_obj == long_str.any().raw().v_obj);
  // Strings compare by value whatever their form; other values by type and bits.
  CHECK(Must("ffi.ArrayContains", {arr, "abc"}).As<bool>().value());
  CHECK(Must("ffi.ArrayContains", {arr, String::FromCStr(kLong).value()}).As<bool>().value());
  CHECK_FALSE(Must("ffi.ArrayContains", {arr, int64_t{2}}).As<bool>().value());
  CHECK_FALSE(Must("ffi.ArrayContains", {arr, 7.0}).As<bool>().value());

  Any out;
  const AnyView bad[] = {arr, int64_t{4}};
  CHECK(CallGlobal("ffi.ArrayGetItem", bad, 2, &out) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "IndexError");
  CHECK(t.message == "Array index 4 out of range for size 4");
  const AnyView not_array[] = {int64_t{1}, int64_t{0}};
  CHECK(CallGlobal("ffi.ArrayGetItem", not_array, 2, &out) != 0);
  CHECK(TakeError().kind == "TypeError");
  CHECK(Int(Must("ffi.ArraySize", {Must("ffi.Array", {})})) == 0);
}

TEST_CASE("ffi.List grows in a buffer of its own and every change is seen by its holders") {
  AllocatorScope scope;
  Any list = Must("ffi.List", {int64_t{1}, int64_t{2}});
  REQUIRE(list.type_index() == kTVMFFIList);
  Any same = list;  // a second holder
  for (int64_t i = 3; i <= 20; ++i) Must("ffi.ListAppend", {list, i});
  const TVMFFISeqCell* cell = CellOf(same);
  CHECK(cell->size == 20);
  CHECK(cell->capacity >= 20);
  CHECK(static_cast<bool>(cell->data_deleter != nullptr));  // a buffer apart, as upstream's
  CHECK(Int(Must("ffi.ListGetItem", {same, int64_t{19}})) == 20);

  Must("ffi.ListInsert", {list, int64_t{0}, kLong});
  Must("ffi.ListInsert", {list, int64_t{21}, "end"});
  CHECK(Int(Must("ffi.ListSize", {list})) == 22);
  CHECK(Must("ffi.ListContains", {list, kLong}).As<bool>().value());
  CHECK(Must("ffi.ListPop", {list, int64_t{21}}).As<String>().value().Equals("end", 3));
  Must("ffi.ListErase", {list, int64_t{0}});
  Must("ffi.ListEraseRange", {list, int64_t{2}, int64_t{20}});  // keeps 1, 2
  CHECK(Int(Must("ffi.ListSize", {list})) == 2);
  Must("ffi.ListSetItem", {list, int64_t{1}, int64_t{9}});
  // A slice replaced by a list's own items: owned before anything moves.
  Must("ffi.ListReplaceSlice", {list, int64_t{0}, int64_t{1}, list});
  const TVMFFIAny* items = static_cast<const TVMFFIAny*>(CellOf(list)->data);
  REQUIRE(CellOf(list)->size == 3);
  CHECK(items[0].v_int64 == 1);
  CHECK(items[1].v_int64 == 9);
  CHECK(items[2].v_int64 == 9);
  Must("ffi.ListReplaceSlice", {list, int64_t{1}, int64_t{3}, Must("ffi.Array", {int64_t{5}})});
  Must("ffi.ListReverse", {list});
  items = static_cast<const TVMFFIAny*>(CellOf(list)->data);
  CHECK(items[0].v_int64 == 5);
  CHECK(items[1].v_int64 == 1);
  Must("ffi.ListReserve", {list, int64_t{100}});
  CHECK(CellOf(list)->capacity == 100);
  Must("ffi.ListClear", {list});
  CHECK(Int(Must("ffi.ListSize", {same})) == 0);

  struct Bad {
    const char* global;
    std::initializer_list<AnyView> args;
    const char* kind;
    const char* message;
  };
  const Bad bad[] = {
      {"ffi.ListGetItem",
       {list, int64_t{0}},
       "IndexError",
       "List get index 0 out of range for size 0"},
      {"ffi.ListInsert",
       {list, int64_t{2}, int64_t{0}},
       "IndexError",
       "List insert index 2 out of range for size 1"},
      {"ffi.ListEraseRange",
       {list, int64_t{1}, int64_t{0}},
       "IndexError",
       "List range [1, 0) out of range for size 0"},
      {"ffi.ListReserve", {list, int64_t{-1}}, "ValueError", "List reserve of a negative size -1"},
      {"ffi.ListReplaceSlice", {list, int64_t{0}, int64_t{0}, int64_t{3}}, "TypeError", ""},
      {"ffi.ListAppend", {list}, "TypeError", ""},
  };
  for (const Bad& b : bad) {
    INFO(b.global);
    Any out;
    CHECK(CallGlobal(b.global, b.args.begin(), static_cast<int32_t>(b.args.size()), &out) != 0);
    TakenError t = TakeError();
    CHECK(t.kind == b.kind);
    if (b.message[0] != '\0') CHECK(t.message == b.message);
  }
}

TEST_CASE("ffi.Map and ffi.Dict keep pairs in insertion order in upstream's small-map layout") {
  AllocatorScope scope;
  String long_key = String::FromCStr(kLong).value();
  Any map = Must("ffi.Map", {"a", int64_t{1}, long_key, int64_t{2}, int64_t{7}, "seven", "a",
                             int64_t{3}});  // a repeated key keeps its place, takes the value
  REQUIRE(map.type_index() == kTVMFFIMap);
  const auto* m = reinterpret_cast<const MapObj*>(map.raw().v_obj);
  CHECK(offsetof(MapObj, data) == sizeof(TVMFFIObject));
  CHECK(m->size == 3);
  CHECK((m->slots & kSmallMapTag) != 0);  // upstream reads it as its small form
  const auto* pairs = static_cast<const TVMFFIAny*>(m->data);  // key, value, key, value...
  CHECK(pairs[0].type_index == kTVMFFISmallStr);
  CHECK(pairs[1].v_int64 == 3);
  CHECK(pairs[4].v_int64 == 7);

  CHECK(Int(Must("ffi.MapSize", {map})) == 3);
  // Keys compare by value in either string form.
  CHECK(Int(Must("ffi.MapGetItem", {map, String::FromCStr(kLong).value()})) == 2);
  CHECK(Int(Must("ffi.MapGetItem", {map, "a"})) == 3);
  CHECK(Int(Must("ffi.MapCount", {map, int64_t{7}})) == 1);
  CHECK(Int(Must("ffi.MapCount", {map, 7.0})) == 0);  // an int key is not a float
  Any missing = Must("ffi.MapGetItemOrMissing", {map, "b"});
  CHECK(missing.raw().v_obj == MissingObject().raw().v_obj);
  Any out;
  const AnyView absent[] = {map, "b"};
  CHECK(CallGlobal("ffi.MapGetItem", absent, 2, &out) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "KeyError");
  CHECK(t.message == "key is not in Map");
  const AnyView odd[] = {"a"};
  CHECK(CallGlobal("ffi.Map", odd, 1, &out) != 0);
  CHECK(TakeError().kind == "ValueError");

  // The iteration functor walks the pairs in order.
  Any iter = Must("ffi.MapForwardIterFunctor", {map});
  Function walk = iter.As<Function>().value();
  CHECK(walk(int64_t{0}).value().As<String>().value().Equals("a", 1));
  CHECK(walk(int64_t{2}).value().As<bool>().value());
  CHECK(Int(walk(int64_t{1}).value()) == 2);
  CHECK(walk(int64_t{2}).value().As<bool>().value());
  CHECK(Int(walk(int64_t{0}).value()) == 7);
  CHECK_FALSE(walk(int64_t{2}).value().As<bool>().value());
  CHECK_FALSE(walk(int64_t{0}).ok());
  CHECK(TakeError().kind == "IndexError");

  Any dict = Must("ffi.Dict", {int64_t{1}, "one"});
  REQUIRE(dict.type_index() == kTVMFFIDict);
  Any same = dict;
  for (int64_t i = 2; i <= 12; ++i) Must("ffi.DictSetItem", {dict, i, long_key});
  CHECK(Int(Must("ffi.DictSize", {same})) == 12);
  Must("ffi.DictErase", {dict, int64_t{1}});
  Must("ffi.DictSetItem", {dict, int64_t{1}, "again"});  // goes last now
  // 12 pairs: upstream's dense form, still in insertion order.
  const Dict d = dict.As<Dict>().value();
  CHECK((d.object()->slots & kSmallMapTag) == 0);
  CHECK(Int((*d.begin()).key) == 2);
  int64_t last = 0;
  for (const MapPair& p : d) last = Int(p.key);
  CHECK(last == 1);
  CHECK(Int(Must("ffi.DictCount", {dict, int64_t{12}})) == 1);
  CHECK(Must("ffi.DictGetItemOrMissing", {dict, int64_t{13}}).raw().v_obj ==
        MissingObject().raw().v_obj);
  const AnyView erase_absent[] = {dict, int64_t{13}};
  CHECK(CallGlobal("ffi.DictErase", erase_absent, 2, &out) != 0);
  CHECK(TakeError().kind == "KeyError");
  Must("ffi.DictClear", {dict});
  CHECK(Int(Must("ffi.DictSize", {same})) == 0);
  const AnyView wrong_kind[] = {map, int64_t{1}, int64_t{2}};
  CHECK(CallGlobal("ffi.DictSetItem", wrong_kind, 3, &out) != 0);  // a Map is not a Dict
  CHECK(TakeError().kind == "TypeError");
}

namespace {

// A kernel as upstream's headers would compile one: it reads an Array of
// tensors inline (the cell after the header) and returns a tuple (sum of
// all elements, tensor count) made with ffi.Array.
int SumTensors(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (num_args != 1 || args[0].type_index != kTVMFFIArray) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "sum_tensors expects an Array");
    return -1;
  }
  const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(args[0].v_obj + 1);
  const auto* items = static_cast<const TVMFFIAny*>(cell->data);
  float sum = 0;
  for (int64_t i = 0; i < cell->size; ++i) {
    if (items[i].type_index != kTVMFFITensor) {
      TVMFFIErrorSetRaisedFromCStr("TypeError", "sum_tensors expects tensors");
      return -1;
    }
    const DLTensor* t = TVMFFITensorGetDLTensorPtr(items[i].v_obj);
    for (int64_t k = 0; k < t->shape[0]; ++k) sum += static_cast<const float*>(t->data)[k];
  }
  TVMFFIAny tuple[2] = {AnyView(static_cast<double>(sum)).raw(), AnyView(cell->size).raw()};
  TVMFFIByteArray name{"ffi.Array", 9};
  TVMFFIObjectHandle make = nullptr;
  if (TVMFFIFunctionGetGlobal(&name, &make) != 0) return -1;
  const int rc = TVMFFIFunctionCall(make, tuple, 2, result);
  TVMFFIObjectDecRef(make);
  return rc;
}

struct Borrowed {
  static void Free(DLManagedTensor*) {}
};

}  // namespace

TEST_CASE("a kernel takes an Array of tensors and returns a tuple") {
  AllocatorScope scope;
  float a[3] = {1, 2, 3};
  float b[2] = {10, 20};
  int64_t shape_a[1] = {3};
  int64_t shape_b[1] = {2};
  float* data[2] = {a, b};
  int64_t* shapes[2] = {shape_a, shape_b};
  DLManagedTensor managed[2] = {};  // the tensors keep them until released, below
  Any tensors[2];
  for (int i = 0; i < 2; ++i) {
    managed[i].dl_tensor.data = data[i];
    managed[i].dl_tensor.device = DLDevice{kDLCPU, 0};
    managed[i].dl_tensor.ndim = 1;
    managed[i].dl_tensor.dtype = DLDataType{kDLFloat, 32, 1};
    managed[i].dl_tensor.shape = shapes[i];
    managed[i].deleter = &Borrowed::Free;
    TVMFFIObjectHandle t = nullptr;
    REQUIRE(TVMFFITensorFromDLPack(&managed[i], 0, 0, &t) == 0);
    TVMFFIAny raw = NoneAny();
    raw.type_index = kTVMFFITensor;
    raw.v_obj = static_cast<TVMFFIObject*>(t);
    tensors[i] = Any::AdoptRaw(raw);
  }
  Any arr = Must("ffi.Array", {tensors[0], tensors[1]});
  TVMFFIObjectHandle kernel = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &SumTensors, nullptr, &kernel) == 0);
  TVMFFIAny arg = arr.raw();
  TVMFFIAny out = NoneAny();
  REQUIRE(TVMFFIFunctionCall(kernel, &arg, 1, &out) == 0);
  Any tuple = Any::AdoptRaw(out);
  REQUIRE(tuple.type_index() == kTVMFFIArray);
  const TVMFFIAny* items = static_cast<const TVMFFIAny*>(CellOf(tuple)->data);
  CHECK(items[0].v_float64 == 36.0);
  CHECK(items[1].v_int64 == 2);
  TVMFFIAny wrong = AnyView(int64_t{1}).raw();
  out = NoneAny();
  CHECK(TVMFFIFunctionCall(kernel, &wrong, 1, &out) != 0);
  CHECK(TakeError().message == "sum_tensors expects an Array");
  CHECK(TVMFFIObjectDecRef(kernel) == 0);
}

TEST_CASE("ffi.Shape and the search for a tensor off the CPU") {
  AllocatorScope scope;
  Any shape = Must("ffi.Shape", {int64_t{2}, int64_t{3}});
  REQUIRE(shape.type_index() == kTVMFFIShape);
  const TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(shape.raw().v_obj);
  CHECK(cell->size == 2);
  CHECK(cell->data[1] == 3);

  int64_t dims[1] = {4};
  float data[4] = {};
  DLTensor cpu{};
  cpu.data = data;
  cpu.device = DLDevice{kDLCPU, 0};
  cpu.ndim = 1;
  cpu.dtype = DLDataType{kDLFloat, 32, 1};
  cpu.shape = dims;
  DLTensor gpu = cpu;
  gpu.device = DLDevice{kDLCUDA, 1};
  Any nested = Must(
      "ffi.List", {int64_t{1}, Must("ffi.Map", {"x", &cpu, "y", Must("ffi.Array", {&cpu, &gpu})})});
  Any found = Must("ffi.ContainerFindFirstNonCPUDevice", {nested});
  REQUIRE(found.type_index() == kTVMFFIDevice);
  CHECK(found.raw().v_device.device_type == kDLCUDA);
  CHECK(found.raw().v_device.device_id == 1);
  CHECK(Must("ffi.ContainerFindFirstNonCPUDevice", {Must("ffi.Array", {&cpu})}).is_none());
}

// Keys of three kinds: ints, small strings, strings longer than the small form.
Any DenseKey(int64_t i) {
  if (i % 3 == 0) return Any(i);
  const std::string text = (i % 3 == 1 ? "k" : "a key longer than small ") + std::to_string(i);
  return Any(String::FromBytes(text.data(), text.size()).value());
}

TEST_CASE("Dict past 4 pairs: upstream's dense form, found by hash, kept in insertion order") {
  AllocatorScope scope;
  Dict d = Dict::FromPairs(nullptr, 0).value();
  constexpr int64_t kN = 300;
  for (int64_t i = 0; i < kN; ++i) {
    REQUIRE(d.Set(DenseKey(i), i).ok());
    if (i == 3) CHECK((d.object()->slots & kSmallMapTag) != 0);  // 4 pairs: still small
    if (i == 4) CHECK((d.object()->slots & kSmallMapTag) == 0);  // the 5th: dense
  }
  const MapObj* m = d.object().get();
  CHECK(m->size == static_cast<uint64_t>(kN));
  CHECK((m->slots & (m->slots - 1)) == 0);  // a power of two
  CHECK(static_cast<double>(m->size) <= static_cast<double>(m->slots) * 0.99);
  for (int64_t i = 0; i < kN; ++i)
    CHECK(Int(Any::FromView(d.At(DenseKey(i)).value()).value()) == i);
  CHECK(d.Find(DenseKey(kN)) == nullptr);
  int64_t expect = 0;
  for (const MapPair& p : d) CHECK(Int(p.value) == expect++);
  CHECK(expect == kN);

  // Erasing keeps every other key reachable and the order of the rest.
  for (int64_t i = 0; i < kN; i += 4) REQUIRE(d.Erase(DenseKey(i)).ok());
  CHECK_FALSE(d.Erase(DenseKey(0)).ok());
  CHECK(TakeError().kind == "KeyError");
  for (int64_t i = 0; i < kN; ++i) CHECK((d.Find(DenseKey(i)) != nullptr) == (i % 4 != 0));
  expect = 1;
  for (const MapPair& p : d) {
    CHECK(Int(p.value) == expect);
    expect += expect % 4 == 3 ? 2 : 1;
  }
  // As upstream's dense form: setting a present key moves it last.
  REQUIRE(d.Set(DenseKey(1), int64_t{-1}).ok());
  int64_t last = 0;
  for (const MapPair& p : d) last = Int(p.value);
  CHECK(last == -1);
  CHECK(d.size() == static_cast<size_t>(kN - kN / 4));

  d.Clear();
  CHECK(d.size() == 0);
  CHECK(d.begin() == d.end());
  REQUIRE(d.Set(DenseKey(7), int64_t{7}).ok());
  CHECK(Int(Any::FromView(d.At(DenseKey(7)).value()).value()) == 7);
}

namespace {
// A TVMFFICustomAllocator over TestHeap that counts live blocks and the
// buffers (type index kTVMFFINone) it was asked for.
struct CountingCustom {
  long live = 0;
  long buffers = 0;
  static CountingCustom* self;
  static void DeleteSpace(void* body) {
    void* block = static_cast<void**>(body)[-2];
    Deallocate(*TestHeap(), block, 0, 0);
    --self->live;
  }
  static void* Allocate(size_t size, size_t alignment, int32_t type_index, void*) {
    // The block's start and the alloc header sit in the two words before the body.
    const size_t head = 2 * sizeof(void*);
    const size_t align = alignment < alignof(void*) ? alignof(void*) : alignment;
    void* block = ffi_core::Allocate(*TestHeap(), size + head + align, align);
    if (block == nullptr) {
      TVMFFIErrorSetRaisedFromCStr("MemoryError", "test: out of memory");
      return nullptr;
    }
    char* body = static_cast<char*>(block) + AlignUp(head, align);
    static_cast<void**>(static_cast<void*>(body))[-2] = block;
    reinterpret_cast<TVMFFIObjectAllocHeader*>(body - sizeof(TVMFFIObjectAllocHeader))
        ->delete_space = &DeleteSpace;
    ++self->live;
    if (type_index == kTVMFFINone) ++self->buffers;
    return body;
  }
};
CountingCustom* CountingCustom::self = nullptr;
}  // namespace

TEST_CASE("with only a TVMFFICustomAllocator, containers of any size take every byte from it") {
  Allocator* previous = GetAllocator();
  SetAllocator(nullptr);  // no other source: anything not asked of the custom one fails
  CountingCustom counts;
  CountingCustom::self = &counts;
  TVMFFICustomAllocator custom = {&CountingCustom::Allocate, nullptr};
  REQUIRE(TVMFFISetCustomAllocator(&custom) == 0);
  {
    Dict d = Dict::FromPairs(nullptr, 0).value();
    for (int64_t i = 0; i < 300; ++i) REQUIRE(d.Set(DenseKey(i), i).ok());
    for (int64_t i = 0; i < 300; ++i)
      CHECK(Int(Any::FromView(d.At(DenseKey(i)).value()).value()) == i);
    List l = List::FromViews(nullptr, 0).value();
    for (int64_t i = 0; i < 40; ++i) REQUIRE(l.Append(DenseKey(i)).ok());
    Any map = Must("ffi.Map", {int64_t{1}, kLong, int64_t{2}, kLong, int64_t{3}, kLong, int64_t{4},
                               kLong, int64_t{5}, kLong, int64_t{6}, kLong});
    CHECK(Int(Must("ffi.MapSize", {map})) == 6);
    CHECK(counts.buffers > 0);
    CHECK(counts.live > 0);
  }
  CHECK(counts.live == 0);
  REQUIRE(TVMFFISetCustomAllocator(nullptr) == 0);
  SetAllocator(previous);
}

namespace {

// Object key hooks that make a Shape a key by its dimensions, as a type's
// __any_hash__ / __any_equal__ make one on the host.
bool ShapeDimsHash(const TVMFFIAny& key, uint64_t* hash) {
  if (key.type_index != kTVMFFIShape) return false;
  const TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(key.v_obj);
  *hash = HashBytes(reinterpret_cast<const char*>(cell->data), cell->size * sizeof(int64_t));
  return true;
}

bool ShapeDimsEqual(const TVMFFIAny& a, const TVMFFIAny& b, bool* equal) {
  if (a.type_index != kTVMFFIShape) return false;
  const TVMFFIShapeCell* x = TVMFFIShapeGetCellPtr(a.v_obj);
  const TVMFFIShapeCell* y = TVMFFIShapeGetCellPtr(b.v_obj);
  *equal = x->size == y->size && std::memcmp(x->data, y->data, x->size * sizeof(int64_t)) == 0;
  return true;
}

constexpr ObjectKeyHooks kShapeDims = {&ShapeDimsHash, &ShapeDimsEqual};

Shape ShapeOf(int64_t a, int64_t b) {
  const int64_t dims[2] = {a, b};
  return Shape::FromDims(dims, 2).value();
}

// Keys 0..n-1 set in a new Dict, each a fresh Shape {i, i}.
Dict DictOfShapes(int64_t n) {
  Dict d = Dict::FromPairs(nullptr, 0).value();
  for (int64_t i = 0; i < n; ++i) REQUIRE(d.Set(ShapeOf(i, i), i).ok());
  return d;
}

}  // namespace

TEST_CASE("object keys hash and compare by identity, or by value where hooks are installed") {
  AllocatorScope scope;
  const Shape a = ShapeOf(2, 3);
  const Shape b = ShapeOf(2, 3);
  CHECK_FALSE(AnyEqual(a, b));  // no hooks: two objects, two keys
  CHECK(AnyHash(a) != AnyHash(b));
  CHECK(DictOfShapes(3).Find(ShapeOf(1, 1)) == nullptr);

  SetObjectKeyHooks(&kShapeDims);
  CHECK(AnyEqual(a, b));
  CHECK_FALSE(AnyEqual(a, ShapeOf(3, 2)));
  uint64_t by_value = 0;
  REQUIRE(ShapeDimsHash(AnyView(a).raw(), &by_value));
  CHECK(AnyHash(a) == HashCombine(kTVMFFIShape, by_value));  // as upstream combines it
  CHECK(AnyHash(a) == AnyHash(b));
  CHECK(AnyHash(int64_t{7}) == HashCombine(kTVMFFIInt, 7));  // plain values as before
  // An equal key is the same key, in the small form and in the dense one.
  for (int64_t n : {3, 40}) {
    Dict d = DictOfShapes(n);
    REQUIRE(d.Set(ShapeOf(1, 1), int64_t{-1}).ok());
    CHECK(d.size() == static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t want = i == 1 ? -1 : i;
      CHECK(Int(Any::FromView(d.At(ShapeOf(i, i)).value()).value()) == want);
    }
    CHECK(d.Find(ShapeOf(n, n)) == nullptr);
    REQUIRE(d.Erase(ShapeOf(0, 0)).ok());
    CHECK(d.Find(ShapeOf(0, 0)) == nullptr);
  }
  SetObjectKeyHooks(nullptr);
  CHECK_FALSE(AnyEqual(a, b));
}
