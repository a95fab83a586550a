// The minimal firmware of the footprint report: ffi-core doing its core
// job and nothing else. Builds Anys, calls a packed function with two
// arguments through TVMFFIFunctionCall, raises an error and reads it back,
// and creates and releases a String object from a pool allocator. Built with
// FFI_CORE_FOOTPRINT_WITH_TYPES=1 it also registers a type with a reflected
// field, a method and a type attribute, and reads them back; with
// FFI_CORE_FOOTPRINT_WITH_CONTAINERS=1 it builds an Array and a Map through
// ffi.Array and ffi.Map (linking ffi_core::containers) and reads them inline.
#include <ffi_core/any.h>
#include <ffi_core/pool_allocator.h>
#include <ffi_core/string.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>

namespace {

#if FFI_CORE_FOOTPRINT_WITH_CONTAINERS
ffi_core::StaticPool<160, 4> g_pool;  // a map's pairs take a block of their own
#else
ffi_core::StaticPool<96, 2> g_pool;
#endif

int Add(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (num_args != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add expects two ints");
    return -1;
  }
  ffi_core::TypeTraits<int64_t>::Write(args[0].v_int64 + args[1].v_int64, result);
  return 0;
}

#if FFI_CORE_FOOTPRINT_WITH_TYPES
struct Point {
  TVMFFIObject header;
  int64_t x;
};

int GetX(void* field, TVMFFIAny* result) {
  ffi_core::TypeTraits<int64_t>::Write(*static_cast<int64_t*>(field), result);
  return 0;
}

int RegisterPoint() {
  const TVMFFIByteArray key{"app.Point", 9};
  const int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, kTVMFFIObject);
  if (index < kTVMFFIDynObjectBegin) return 1;
  TVMFFIFieldInfo field{};
  field.name = TVMFFIByteArray{"x", 1};
  field.size = sizeof(int64_t);
  field.offset = offsetof(Point, x);
  field.getter = &GetX;
  field.field_static_type_index = kTVMFFIInt;
  TVMFFIMethodInfo method{};
  method.name = TVMFFIByteArray{"add", 3};
  method.method.type_index = kTVMFFIFunction;
  if (TVMFFIFunctionCreate(nullptr, &Add, nullptr,
                           reinterpret_cast<void**>(&method.method.v_obj))) {
    return 1;
  }
  const TVMFFIByteArray attr{"app.size", 8};
  TVMFFIAny size = ffi_core::NoneAny();
  ffi_core::TypeTraits<int64_t>::Write(int64_t{sizeof(Point)}, &size);
  const bool registered = TVMFFITypeRegisterField(index, &field) == 0 &&
                          TVMFFITypeRegisterMethod(index, &method) == 0 &&
                          TVMFFITypeRegisterAttr(index, &attr, &size) == 0;
  TVMFFIObjectDecRef(method.method.v_obj);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&attr);
  Point p{{}, 7};
  TVMFFIAny x = ffi_core::NoneAny();
  if (!registered || info == nullptr || info->num_fields != 1 || column == nullptr ||
      info->fields[0].getter(&p.x, &x) != 0 || x.v_int64 != 7) {
    return 1;
  }
  return column->data[index - column->begin_index].v_int64 == int64_t{sizeof(Point)} ? 0 : 1;
}
#endif

#if FFI_CORE_FOOTPRINT_WITH_CONTAINERS
// The size a container global reports of what it builds from `items`.
int64_t BuildAndCount(const char* global, TVMFFIAny* items, int32_t n) {
  TVMFFIByteArray name{global, __builtin_strlen(global)};
  TVMFFIObjectHandle f = nullptr;
  TVMFFIAny out = ffi_core::NoneAny();
  if (TVMFFIFunctionGetGlobal(&name, &f) != 0 || f == nullptr) return -1;
  const int rc = TVMFFIFunctionCall(f, items, n, &out);
  TVMFFIObjectDecRef(f);
  if (rc != 0 || out.type_index < kTVMFFIStaticObjectBegin) return -1;
  // Both cells start with a data pointer and then the size.
  const int64_t size = reinterpret_cast<const TVMFFISeqCell*>(out.v_obj + 1)->size;
  TVMFFIObjectDecRef(out.v_obj);
  return size;
}

int UseContainers() {
  TVMFFIAny items[4];
  for (int64_t i = 0; i < 4; ++i) ffi_core::TypeTraits<int64_t>::Write(i, &items[i]);
  return BuildAndCount("ffi.Array", items, 4) == 4 && BuildAndCount("ffi.Map", items, 4) == 2 ? 0
                                                                                              : 1;
}
#endif

}  // namespace

int main() {
  ffi_core::SetAllocator(g_pool.allocator());
  int failures = 0;

  TVMFFIObjectHandle add = nullptr;
  if (TVMFFIFunctionCreate(nullptr, &Add, nullptr, &add) != 0) return 2;
  ffi_core::AnyView args[2] = {ffi_core::AnyView(int64_t{40}), ffi_core::AnyView(int64_t{2})};
  TVMFFIAny result = ffi_core::NoneAny();
  TVMFFIAny* raw = const_cast<TVMFFIAny*>(&args[0].raw());
  if (TVMFFIFunctionCall(add, raw, 2, &result) != 0 || result.v_int64 != 42) ++failures;

  // A bad call raises; read the error back through its cell.
  result = ffi_core::NoneAny();
  if (TVMFFIFunctionCall(add, raw, 1, &result) == 0) ++failures;
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == nullptr || TVMFFIErrorGetCellPtr(err)->kind.size != 9) ++failures;
  if (err != nullptr) TVMFFIObjectDecRef(err);
  TVMFFIObjectDecRef(add);

  {
    ffi_core::Expected<ffi_core::String> s =
        ffi_core::String::FromCStr("a string object from the pool");
    if (!s.ok() || s->is_small() || g_pool.live_blocks() != 1) ++failures;
  }
  if (g_pool.live_blocks() != 0) ++failures;
#if FFI_CORE_FOOTPRINT_WITH_TYPES
  failures += RegisterPoint();
#endif
#if FFI_CORE_FOOTPRINT_WITH_CONTAINERS
  failures += UseContainers();
#endif
  return failures;
}
