#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

TEST_CASE("AnyView writes each POD with the ABI's tag and zeroed padding") {
  CHECK(sizeof(TVMFFIAny) == 16);
  AnyView i(int64_t{-5});
  CHECK(i.type_index() == kTVMFFIInt);
  CHECK(i.raw().zero_padding == 0);
  CHECK(i.raw().v_int64 == -5);

  AnyView b(true);
  CHECK(b.type_index() == kTVMFFIBool);
  CHECK(b.raw().v_int64 == 1);

  AnyView f(2.5);
  CHECK(f.type_index() == kTVMFFIFloat);
  CHECK(f.raw().v_float64 == 2.5);

  AnyView none(nullptr);
  CHECK(none.is_none());
  CHECK(none.raw().v_uint64 == 0);

  int x = 0;
  AnyView p(static_cast<void*>(&x));
  CHECK(p.type_index() == kTVMFFIOpaquePtr);
  CHECK(p.raw().v_ptr == &x);
  // A 4-byte pointer must leave the high word zero; an 8-byte one fills it.
  CHECK(p.raw().v_uint64 == reinterpret_cast<uintptr_t>(&x));

  AnyView null_ptr(static_cast<void*>(nullptr));
  CHECK(null_ptr.is_none());

  DLDataType dt{kDLFloat, 32, 1};
  AnyView d(dt);
  CHECK(d.type_index() == kTVMFFIDataType);
  CHECK(d.raw().v_uint64 == (uint64_t{kDLFloat} | (uint64_t{32} << 8) | (uint64_t{1} << 16)));

  DLDevice dev{kDLCPU, 3};
  AnyView dv(dev);
  CHECK(dv.type_index() == kTVMFFIDevice);
  CHECK(dv.raw().v_device.device_id == 3);

  AnyView s("hi");
  CHECK(s.type_index() == kTVMFFIRawStr);
}

TEST_CASE("AnyView reads with upstream's conversions") {
  AnyView b(true);
  CHECK(b.As<int>().value() == 1);
  AnyView i(int64_t{7});
  CHECK(i.As<bool>().value() == true);
  CHECK(i.As<double>().value() == 7.0);
  AnyView f(1.5);
  int out = 0;
  CHECK(f.TryAs(&out) == Conversion::kMismatch);
  void* p = reinterpret_cast<void*>(1);
  CHECK(AnyView(nullptr).TryAs(&p) == Conversion::kOk);
  CHECK(p == nullptr);
}

TEST_CASE("narrowing an integer out of range is refused, not truncated") {
  AnyView big(int64_t{1} << 40);
  int32_t v = 0;
  CHECK(big.TryAs(&v) == Conversion::kOutOfRange);
  CHECK(v == 0);
  uint8_t u = 0;
  CHECK(AnyView(int64_t{-1}).TryAs(&u) == Conversion::kOutOfRange);
  CHECK(AnyView(int64_t{255}).TryAs(&u) == Conversion::kOk);
  CHECK(u == 255);

  Expected<int8_t> e = AnyView(int64_t{300}).As<int8_t>();
  CHECK_FALSE(e.ok());
  CHECK(e.status().kind() == ErrorKind::kTypeError);
  TakenError t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(Contains(t.message, "out of range"));
}

TEST_CASE("As<T> on a mismatch raises a TypeError naming both types") {
  Expected<double> r = AnyView("text").As<double>();
  CHECK_FALSE(r.ok());
  TakenError t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(Contains(t.message, "expected float"));
  CHECK(Contains(t.message, "got const char*"));
}

TEST_CASE("Any owns objects: copies retain, destruction releases") {
  AllocatorScope scope;
  Expected<String> s = String::FromCStr("a string longer than seven bytes");
  REQUIRE(s.ok());
  TVMFFIObject* obj = s->any().raw().v_obj;
  CHECK(ObjectStrongCount(obj) == 1);
  {
    Any a(*s);
    CHECK(ObjectStrongCount(obj) == 2);
    Any b = a;
    CHECK(ObjectStrongCount(obj) == 3);
    Any c = std::move(b);
    CHECK(b.is_none());
    CHECK(ObjectStrongCount(obj) == 3);
  }
  CHECK(ObjectStrongCount(obj) == 1);
}

TEST_CASE("Any::FromView makes raw strings owned and moves rvalue refs") {
  AllocatorScope scope;
  Expected<Any> small = Any::FromView(AnyView("abc"));
  REQUIRE(small.ok());
  CHECK(small->type_index() == kTVMFFISmallStr);
  CHECK(small->raw().small_str_len == 3);

  Expected<Any> big = Any::FromView(AnyView("more than seven"));
  REQUIRE(big.ok());
  CHECK(big->type_index() == kTVMFFIStr);

  TVMFFIByteArray bytes{"\x01\x02\x00\x03", 4};
  TVMFFIAny raw = NoneAny();
  raw.type_index = kTVMFFIByteArrayPtr;
  raw.v_ptr = &bytes;
  Expected<Any> b = Any::FromView(AnyView::FromRaw(raw));
  REQUIRE(b.ok());
  CHECK(b->type_index() == kTVMFFISmallBytes);
  CHECK(b->raw().small_str_len == 4);
  CHECK(b->raw().v_bytes[2] == 0);
  CHECK(b->raw().v_bytes[3] == 3);

  // An rvalue reference hands its object over and is left NULL.
  Expected<String> s = String::FromCStr("handed over in a move");
  REQUIRE(s.ok());
  TVMFFIObject* handle = Any(*s).ReleaseRaw().v_obj;  // one extra owned ref
  TVMFFIAny rref = NoneAny();
  rref.type_index = kTVMFFIObjectRValueRef;
  rref.v_ptr = &handle;
  Expected<Any> moved = Any::FromView(AnyView::FromRaw(rref));
  REQUIRE(moved.ok());
  CHECK(handle == nullptr);
  CHECK(moved->type_index() == kTVMFFIStr);
  CHECK(ObjectStrongCount(moved->raw().v_obj) == 2);
}

TEST_CASE("Any::FromView rejects NULL strings and NULL objects") {
  TVMFFIAny raw = NoneAny();
  raw.type_index = kTVMFFIRawStr;
  CHECK_FALSE(Any::FromView(AnyView::FromRaw(raw)).ok());
  CHECK(TakeError().kind == "ValueError");
  raw.type_index = kTVMFFIStr;
  CHECK_FALSE(Any::FromView(AnyView::FromRaw(raw)).ok());
  CHECK(TakeError().kind == "ValueError");
}
