#include <cstdlib>
#include <vector>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

int Sum(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  int64_t total = handle != nullptr ? *static_cast<int64_t*>(handle) : 0;
  for (int32_t i = 0; i < num_args; ++i) {
    if (args[i].type_index != kTVMFFIInt) {
      TVMFFIErrorSetRaisedFromCStr("TypeError", "Sum takes ints");
      return -1;
    }
    total += args[i].v_int64;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = total;
  return 0;
}

int g_deleted = 0;
void CountDelete(void*) { ++g_deleted; }

}  // namespace

TEST_CASE("TVMFFIGetVersion reports the ABI version") {
  TVMFFIVersion v{};
  TVMFFIGetVersion(&v);
  CHECK(v.major == TVM_FFI_VERSION_MAJOR);
  CHECK(v.minor == TVM_FFI_VERSION_MINOR);
  CHECK(v.patch == TVM_FFI_VERSION_PATCH);
  TVMFFIGetVersion(nullptr);
}

TEST_CASE("TVMFFIFunctionCreate: handle, call, deleter") {
  AllocatorScope scope;
  int64_t base = 100;
  g_deleted = 0;
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(&base, &Sum, &CountDelete, &f) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(f) == kTVMFFIFunction);
  CHECK(TVMFFIFunctionGetCellPtr(f)->cpp_call == nullptr);
  TVMFFIAny args[2];
  TypeTraits<int>::Write(1, &args[0]);
  TypeTraits<int>::Write(2, &args[1]);
  TVMFFIAny result = NoneAny();
  REQUIRE(TVMFFIFunctionCall(f, args, 2, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt);
  CHECK(result.v_int64 == 103);

  TypeTraits<double>::Write(1.0, &args[1]);
  result = NoneAny();
  CHECK(TVMFFIFunctionCall(f, args, 2, &result) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(t.message == "Sum takes ints");

  CHECK(TVMFFIObjectDecRef(f) == 0);
  CHECK(g_deleted == 1);
}

TEST_CASE("a function without handle or deleter receives itself as handle") {
  AllocatorScope scope;
  static void* seen = nullptr;
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(
              nullptr,
              [](void* h, const TVMFFIAny*, int32_t, TVMFFIAny*) {
                seen = h;
                return 0;
              },
              nullptr, &f) == 0);
  TVMFFIAny result = NoneAny();
  REQUIRE(TVMFFIFunctionCall(f, nullptr, 0, &result) == 0);
  CHECK(seen == f);
  CHECK(TVMFFIObjectDecRef(f) == 0);
}

TEST_CASE("TVMFFIFunctionCall rejects bad calls with clear errors") {
  AllocatorScope scope;
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &Sum, nullptr, &f) == 0);
  TVMFFIAny result = NoneAny();
  TVMFFIAny arg = NoneAny();

  CHECK(TVMFFIFunctionCall(nullptr, nullptr, 0, &result) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "ValueError");
  CHECK(Contains(t.message, "func is NULL"));

  CHECK(TVMFFIFunctionCall(f, &arg, 1, nullptr) != 0);
  CHECK(Contains(TakeError().message, "result is NULL"));

  CHECK(TVMFFIFunctionCall(f, &arg, -1, &result) != 0);
  CHECK(Contains(TakeError().message, "negative"));

  CHECK(TVMFFIFunctionCall(f, nullptr, 2, &result) != 0);
  CHECK(Contains(TakeError().message, "args is NULL"));

  // A handle that is not a Function.
  TVMFFIByteArray s{"not a function!", 15};
  TVMFFIAny str = NoneAny();
  REQUIRE(TVMFFIStringFromByteArray(&s, &str) == 0);
  CHECK(TVMFFIFunctionCall(str.v_obj, nullptr, 0, &result) != 0);
  t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(Contains(t.message, "func is not a Function (type index 65)"));
  CHECK(TVMFFIObjectDecRef(str.v_obj) == 0);

  CHECK(TVMFFIFunctionCreate(nullptr, nullptr, nullptr, &f) != 0);
  CHECK(TakeError().kind == "ValueError");
  CHECK(TVMFFIObjectDecRef(f) == 0);
}

TEST_CASE("TVMFFIAnyViewToOwnedAny") {
  AllocatorScope scope;
  TVMFFIAny view = NoneAny();
  view.type_index = kTVMFFIRawStr;
  view.v_c_str = "a raw C string that is long";
  TVMFFIAny owned = NoneAny();
  REQUIRE(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  CHECK(owned.type_index == kTVMFFIStr);
  CHECK(View(*TVMFFIBytesGetByteArrayPtr(owned.v_obj)) == "a raw C string that is long");
  // Owning an object view adds a reference.
  TVMFFIAny again = NoneAny();
  REQUIRE(TVMFFIAnyViewToOwnedAny(&owned, &again) == 0);
  CHECK(again.v_obj == owned.v_obj);
  CHECK(ObjectStrongCount(owned.v_obj) == 2);
  CHECK(TVMFFIObjectDecRef(again.v_obj) == 0);
  CHECK(TVMFFIObjectDecRef(owned.v_obj) == 0);

  view.v_c_str = "short";
  REQUIRE(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  CHECK(owned.type_index == kTVMFFISmallStr);

  CHECK(TVMFFIAnyViewToOwnedAny(nullptr, &owned) != 0);
  CHECK(TakeError().kind == "ValueError");
  CHECK(TVMFFIAnyViewToOwnedAny(&view, nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}

namespace {

int AcceptAnything(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) { return 0; }

}  // namespace

TEST_CASE("TVMFFIAnyViewToOwnedAny refuses exactly what TVMFFIFunctionCall refuses") {
  if (!FFI_CORE_CHECK_PADDING) return;
  AllocatorScope scope;
  Expected<Bytes> bytes = Bytes::FromBytes("bytes, not a string", 19);
  REQUIRE(bytes.ok());
  std::vector<TVMFFIAny> bad;
  for (int32_t t : {-1, 13, 14, 63}) {
    TVMFFIAny v = NoneAny();
    v.type_index = t;
    bad.push_back(v);
  }
  TVMFFIAny small = NoneAny();
  small.type_index = kTVMFFISmallStr;
  small.small_str_len = 9;
  bad.push_back(small);
  TVMFFIAny flag = NoneAny();
  flag.type_index = kTVMFFIBool;
  flag.v_int64 = 2;
  bad.push_back(flag);
  TVMFFIAny padded = NoneAny();
  padded.type_index = kTVMFFIInt;
  padded.zero_padding = 1;
  bad.push_back(padded);
  TVMFFIAny mislabelled = bytes->any().raw();
  mislabelled.type_index = kTVMFFIStr;  // a Str tag on a Bytes object
  bad.push_back(mislabelled);

  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &AcceptAnything, nullptr, &f) == 0);
  for (const TVMFFIAny& v : bad) {
    CAPTURE(v.type_index);
    TVMFFIAny arg = v;
    TVMFFIAny result = NoneAny();
    CHECK(TVMFFIFunctionCall(f, &arg, 1, &result) != 0);
    CHECK(TakeError().kind == "ValueError");
    TVMFFIAny out = NoneAny();
    CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) != 0);
    CHECK(out.type_index == kTVMFFINone);
    CHECK(TakeError().kind == "ValueError");
  }
  CHECK(ObjectStrongCount(bytes->any().raw().v_obj) == 1);
  CHECK(TVMFFIObjectDecRef(f) == 0);
}

namespace {

// A custom object allocator following upstream's contract: each body is
// preceded by a TVMFFIObjectAllocHeader whose delete_space frees it.
struct Tracking {
  int live = 0;
  int allocations = 0;
  int32_t last_type_index = -1;
};
Tracking g_tracking;

void TrackingDeleteSpace(void* body) {
  --g_tracking.live;
  std::free(static_cast<char*>(body) - 16);
}
void* TrackingAllocate(size_t size, size_t alignment, int32_t type_index, void* context) {
  Tracking* t = static_cast<Tracking*>(context);
  if (alignment > 16) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "alignment too large for the test allocator");
    return nullptr;
  }
  char* block = static_cast<char*>(std::malloc(size + 16));
  char* body = block + 16;
  reinterpret_cast<TVMFFIObjectAllocHeader*>(body - sizeof(TVMFFIObjectAllocHeader))->delete_space =
      &TrackingDeleteSpace;
  ++t->live;
  ++t->allocations;
  t->last_type_index = type_index;
  return body;
}

}  // namespace

TEST_CASE("TVMFFISetCustomAllocator routes object storage through the caller") {
  TVMFFICustomAllocator custom{&TrackingAllocate, &g_tracking};
  TVMFFICustomAllocator* builtin = TVMFFIGetCustomAllocator();
  REQUIRE(TVMFFISetCustomAllocator(&custom) == 0);
  CHECK(TVMFFIGetCustomAllocator() == &custom);
  {
    Expected<String> s = String::FromCStr("allocated by the custom allocator");
    REQUIRE(s.ok());
    CHECK(g_tracking.live == 1);
    CHECK(g_tracking.last_type_index == kTVMFFIStr);
  }
  CHECK(g_tracking.live == 0);
  REQUIRE(TVMFFISetCustomAllocator(nullptr) == 0);
  CHECK(TVMFFIGetCustomAllocator() == builtin);

  TVMFFICustomAllocator broken{nullptr, nullptr};
  CHECK(TVMFFISetCustomAllocator(&broken) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("a custom allocator that fails without raising still yields a MemoryError") {
  TVMFFICustomAllocator failing{[](size_t, size_t, int32_t, void*) -> void* { return nullptr; },
                                nullptr};
  REQUIRE(TVMFFISetCustomAllocator(&failing) == 0);
  CHECK_FALSE(String::FromCStr("needs an object!").ok());
  TakenError t = TakeError();
  CHECK(t.kind == "MemoryError");
  REQUIRE(TVMFFISetCustomAllocator(nullptr) == 0);
}
