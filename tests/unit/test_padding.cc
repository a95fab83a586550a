#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

int Echo(void*, const TVMFFIAny* args, int32_t, TVMFFIAny* result) {
  *result = args[0];
  return 0;
}

// Calls Echo with one hand-built argument; returns the call's code.
int CallWith(const TVMFFIAny& arg) {
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &Echo, nullptr, &f) == 0);
  TVMFFIAny a = arg;
  TVMFFIAny result = NoneAny();
  const int rc = TVMFFIFunctionCall(f, &a, 1, &result);
  CHECK(TVMFFIObjectDecRef(f) == 0);
  return rc;
}

}  // namespace

TEST_CASE("CheckAnyInvariants accepts what the writers produce") {
  int x = 0;
  for (const AnyView& v :
       {AnyView(1), AnyView(true), AnyView(2.0), AnyView(nullptr), AnyView(static_cast<void*>(&x)),
        AnyView("raw"), AnyView(DLDataType{kDLInt, 8, 4}), AnyView(DLDevice{kDLCPU, 0})}) {
    CHECK(CheckAnyInvariants(v.raw(), 0).ok());
  }
  Expected<String> s = String::FromCStr("small");
  REQUIRE(s.ok());
  CHECK(CheckAnyInvariants(s->any().raw(), 0).ok());
}

TEST_CASE("CheckAnyInvariants names each broken rule") {
  TVMFFIAny v = NoneAny();
  v.type_index = kTVMFFIInt;
  v.zero_padding = 7;
  CHECK_FALSE(CheckAnyInvariants(v, 3).ok());
  TakenError t = TakeError();
  CHECK(t.kind == "ValueError");
  CHECK(t.message == "argument #3 (type index 1): zero_padding is not zero");

  v = NoneAny();
  v.type_index = kTVMFFISmallStr;
  v.small_str_len = 9;
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "length over 7"));

  v = NoneAny();
  v.type_index = kTVMFFISmallStr;
  v.small_str_len = 2;
  std::memcpy(v.v_bytes, "abc", 3);
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "past its length"));

  v = NoneAny();
  v.type_index = kTVMFFIBool;
  v.v_int64 = 2;
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "neither 0 nor 1"));

  v = NoneAny();
  v.type_index = 20;  // between the POD range and the object range
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "unknown type index"));

  v = NoneAny();
  v.type_index = kTVMFFIStr;
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "NULL object pointer"));

  v = NoneAny();
  v.type_index = kTVMFFIDLTensorPtr;
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "NULL pointer"));

  v = NoneAny();
  v.type_index = kTVMFFIDataType;
  v.v_dtype = DLDataType{kDLFloat, 32, 1};
  v.v_bytes[6] = 1;
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "DataType padding"));
}

TEST_CASE("a pointer whose high word is garbage is caught on 32-bit targets") {
  int x = 0;
  TVMFFIAny v = AnyView(static_cast<void*>(&x)).raw();
  if (sizeof(void*) == 4) {
    v.v_bytes[5] = 0x5a;
    CHECK_FALSE(CheckAnyInvariants(v, 1).ok());
    CHECK(Contains(TakeError().message, "high word of a 4-byte pointer"));
  } else {
    CHECK(CheckAnyInvariants(v, 1).ok());
  }
}

TEST_CASE(
    "a DLDevice with garbage in bytes 1-3 of device_type is caught; readers see the low byte") {
  TVMFFIAny v = AnyView(DLDevice{kDLCPU, 2}).raw();
  CHECK(CheckAnyInvariants(v, 0).ok());
  v.v_bytes[1] = static_cast<char>(0xAB);  // what a short-enum C writer can leave behind
  CHECK_FALSE(CheckAnyInvariants(v, 4).ok());
  CHECK(Contains(TakeError().message,
                 "argument #4 (type index 6): DLDevice.device_type has non-zero bytes 1-3"));
  DLDevice d{};
  CHECK(AnyView::FromRaw(v).TryAs(&d) == Conversion::kOk);
  CHECK(DeviceTypeOf(d) == kDLCPU);
  CHECK(d.device_id == 2);
}

TEST_CASE("an object whose header disagrees with the tag is caught") {
  AllocatorScope scope;
  Expected<String> s = String::FromCStr("a string object!");
  REQUIRE(s.ok());
  TVMFFIAny v = s->any().raw();
  v.type_index = kTVMFFIFunction;
  CHECK_FALSE(CheckAnyInvariants(v, 0).ok());
  CHECK(Contains(TakeError().message, "differs from the object's header"));
}

TEST_CASE("TVMFFIFunctionCall checks arguments and result in checking mode") {
  AllocatorScope scope;
  TVMFFIAny bad = NoneAny();
  bad.type_index = kTVMFFIInt;
  bad.zero_padding = 1;
  if (FFI_CORE_CHECK_PADDING) {
    CHECK(CallWith(bad) != 0);
    CHECK(Contains(TakeError().message, "zero_padding"));
    TVMFFIObjectHandle f = nullptr;
    REQUIRE(TVMFFIFunctionCreate(nullptr, &Echo, nullptr, &f) == 0);
    TVMFFIAny arg = AnyView(1).raw();
    TVMFFIAny dirty_result = AnyView(5).raw();
    CHECK(TVMFFIFunctionCall(f, &arg, 1, &dirty_result) != 0);
    CHECK(Contains(TakeError().message, "result must be set to None"));
    CHECK(TVMFFIObjectDecRef(f) == 0);
  } else {
    CHECK(CallWith(bad) == 0);
  }
  CHECK(CallWith(AnyView(1).raw()) == 0);
}

TEST_CASE("The call path's fast check leaves every broken object argument to the full check") {
  AllocatorScope scope;
  TVMFFIObjectHandle g = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &Echo, nullptr, &g) == 0);
  TVMFFIAny good = NoneAny();
  good.type_index = kTVMFFIFunction;
  good.v_obj = static_cast<TVMFFIObject*>(g);
  TVMFFIAny wrong_type = good;
  wrong_type.type_index = kTVMFFIStr;
  TVMFFIAny null_object = good;
  null_object.v_obj = nullptr;
  TVMFFIAny padded = good;
  padded.zero_padding = 1;
  TVMFFIAny padded_float = AnyView(2.0).raw();
  padded_float.zero_padding = 1;
  CHECK(CallWith(good) == 0);
  const char* rules[] = {"differs from the object's header", "NULL object pointer", "zero_padding",
                         "zero_padding"};
  const TVMFFIAny* broken[] = {&wrong_type, &null_object, &padded, &padded_float};
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    if (FFI_CORE_CHECK_PADDING) {
      CHECK(CallWith(*broken[i]) != 0);
      CHECK(Contains(TakeError().message, rules[i]));
    }
  }
  CHECK(TVMFFIObjectDecRef(g) == 0);
}

TEST_CASE("upstream Python's unwritten zero_padding: accepted on containers only, kept clean") {
  AllocatorScope scope;
  Expected<Array> array = Array::FromViews(nullptr, 0);
  Expected<List> list = List::FromViews(nullptr, 0);
  Expected<String> str = String::FromCStr("a string object!");
  REQUIRE(array.ok());
  REQUIRE(list.ok());
  REQUIRE(str.ok());
  // What its container setter passes: type index and pointer written, the
  // rest left as the stack had it.
  for (const TVMFFIAny& container : {AnyView(*array).raw(), AnyView(*list).raw()}) {
    TVMFFIAny dirty;
    std::memset(&dirty, 0xA5, sizeof(dirty));
    dirty.type_index = container.type_index;
    dirty.v_obj = container.v_obj;
    CHECK(CheckAnyInvariants(dirty, 0).ok() == static_cast<bool>(FFI_CORE_ACCEPT_UPSTREAM_PADDING));
    if (!FFI_CORE_ACCEPT_UPSTREAM_PADDING) {
      CHECK(Contains(TakeError().message, "zero_padding is not zero"));
      continue;
    }
    CHECK(CallWith(dirty) == 0);
    // An owned copy is written clean.
    Expected<Any> owned = Any::FromView(AnyView::FromRaw(dirty));
    REQUIRE(owned.ok());
    CHECK(owned->raw().zero_padding == 0);
    CHECK(owned->raw().v_obj == container.v_obj);
  }
  // Every other kind stays strict.
  TVMFFIAny dirty_string = str->any().raw();
  dirty_string.zero_padding = 0xA5A5A5A5u;
  CHECK_FALSE(CheckAnyInvariants(dirty_string, 0).ok());
  CHECK(Contains(TakeError().message, "zero_padding is not zero"));
}
