#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

DLDataType Parse(const char* text) {
  DLDataType out{0, 0, 0};
  TVMFFIByteArray s{text, std::strlen(text)};
  REQUIRE_MESSAGE(TVMFFIDataTypeFromString(&s, &out) == 0, text);
  return out;
}

bool Same(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

std::string_view Print(DLDataType dt, char (&buf)[kDataTypeNameCapacity]) {
  size_t n = 0;
  REQUIRE(DataTypeToString(dt, buf, &n).ok());
  return std::string_view(buf, n);
}

}  // namespace

TEST_CASE("dtype strings parse with upstream's spellings") {
  CHECK(Same(Parse("int32"), DLDataType{kDLInt, 32, 1}));
  CHECK(Same(Parse("uint8"), DLDataType{kDLUInt, 8, 1}));
  CHECK(Same(Parse("float16x4"), DLDataType{kDLFloat, 16, 4}));
  CHECK(Same(Parse("bfloat16"), DLDataType{kDLBfloat, 16, 1}));
  CHECK(Same(Parse("bool"), DLDataType{kDLBool, 8, 1}));
  CHECK(Same(Parse("handle"), DLDataType{kDLOpaqueHandle, 64, 1}));
  CHECK(Same(Parse("void"), DLDataType{kDLOpaqueHandle, 0, 0}));
  CHECK(Same(Parse(""), DLDataType{kDLOpaqueHandle, 0, 0}));
  CHECK(Same(Parse("float8_e4m3fn"), DLDataType{kDLFloat8_e4m3fn, 8, 1}));
  CHECK(Same(Parse("float8_e5m2x2"), DLDataType{kDLFloat8_e5m2, 8, 2}));
  CHECK(Same(Parse("float4_e2m1fn"), DLDataType{kDLFloat4_e2m1fn, 4, 1}));
  CHECK(Same(Parse("i32"), DLDataType{kDLInt, 32, 1}));
  CHECK(Same(Parse("u8"), DLDataType{kDLUInt, 8, 1}));
  CHECK(Same(Parse("f32"), DLDataType{kDLFloat, 32, 1}));
  CHECK(Same(Parse("bf16"), DLDataType{kDLBfloat, 16, 1}));
  CHECK(Same(Parse("fp8_e4m3fn"), DLDataType{kDLFloat8_e4m3fn, 8, 1}));
  CHECK(Same(Parse("boolx4"), DLDataType{kDLBool, 8, 4}));
  CHECK(Same(Parse("bool8x4"), DLDataType{kDLBool, 8, 4}));
  CHECK(Same(Parse("bool1"), DLDataType{kDLBool, 1, 1}));
  CHECK(Same(Parse("float4_e2m1fn_x2"), DLDataType{kDLFloat4_e2m1fn, 4, 2}));
  CHECK(Same(Parse("fp4_e2m1fn_x2"), DLDataType{kDLFloat4_e2m1fn, 4, 2}));
}

TEST_CASE("bad dtype strings are ValueErrors") {
  for (const char* bad : {"int",
                          "int32x",
                          "int32x0",
                          "int999",
                          "floaty",
                          "quux8",
                          "int32x70000",
                          "int32x65535",
                          "int32x32768",
                          "int32 ",
                          "uint8x4z",
                          "float4_e2m1fn_",
                          "float4_e2m1fn_2",
                          "float8_e5m2_x2",
                          "boolx",
                          "bool_x4",
                          "int32xvscale",
                          "int32xvscalex0",
                          "boolxvscalex1",
                          "int32xvscalex32769",
                          "float8_e5m2xvscalex2"}) {
    DLDataType out{};
    TVMFFIByteArray s{bad, std::strlen(bad)};
    CHECK_MESSAGE(TVMFFIDataTypeFromString(&s, &out) != 0, bad);
    TakenError t = TakeError();
    CHECK(t.kind == "ValueError");
    CHECK(Contains(t.message, "invalid dtype"));
  }
  CHECK(TVMFFIDataTypeFromString(nullptr, nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("dtype names print canonically and round-trip") {
  char buf[kDataTypeNameCapacity];
  CHECK(Print(DLDataType{kDLInt, 32, 1}, buf) == "int32");
  CHECK(Print(DLDataType{kDLFloat, 16, 4}, buf) == "float16x4");
  CHECK(Print(DLDataType{kDLBool, 8, 1}, buf) == "bool");
  CHECK(Print(DLDataType{kDLBool, 8, 4}, buf) == "boolx4");
  CHECK(Print(DLDataType{kDLBool, 1, 4}, buf) == "bool1x4");
  CHECK(Print(DLDataType{kDLFloat4_e2m1fn, 4, 2}, buf) == "float4_e2m1fnx2");
  CHECK(Print(DLDataType{kDLOpaqueHandle, 64, 1}, buf) == "handle");
  CHECK(Print(DLDataType{kDLOpaqueHandle, 0, 0}, buf) == "");
  // Lanes read as an int16_t, as upstream prints them: the widest is 32767,
  // and below -1 a scalable vector.
  CHECK(Print(DLDataType{kDLFloat8_e4m3b11fnuz, 8, 32767}, buf) == "float8_e4m3b11fnuzx32767");
  CHECK(Print(DLDataType{kDLInt, 32, static_cast<uint16_t>(-4)}, buf) == "int32xvscalex4");
  CHECK(Print(DLDataType{kDLInt, 32, 65535}, buf) == "int32");
  for (const char* name :
       {"int8", "uint64x2", "float32", "bfloat16", "float8_e5m2fnuz", "float6_e3m2fn", "bool",
        "handle", "complex64", "int32xvscalex4", "float16xvscalex32768"}) {
    CHECK(Print(Parse(name), buf) == name);
  }
  DLDataType unknown{99, 8, 1};
  size_t n = 0;
  CHECK_FALSE(DataTypeToString(unknown, buf, &n).ok());
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("TVMFFIDataTypeToString returns an owned string") {
  AllocatorScope scope;
  DLDataType dt{kDLFloat, 32, 1};
  TVMFFIAny out = NoneAny();
  REQUIRE(TVMFFIDataTypeToString(&dt, &out) == 0);
  CHECK(out.type_index == kTVMFFISmallStr);
  CHECK(View(TVMFFISmallBytesGetContentByteArray(&out)) == "float32");
  dt = DLDataType{kDLFloat8_e4m3fn, 8, 4};
  REQUIRE(TVMFFIDataTypeToString(&dt, &out) == 0);
  CHECK(out.type_index == kTVMFFIStr);
  CHECK(View(*TVMFFIBytesGetByteArrayPtr(out.v_obj)) == "float8_e4m3fnx4");
  CHECK(TVMFFIObjectDecRef(out.v_obj) == 0);
}
