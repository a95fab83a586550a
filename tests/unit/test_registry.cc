#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {
TVMFFIByteArray Name(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }
}  // namespace

TEST_CASE("global functions: set, get, override rules") {
  AllocatorScope scope;
  Expected<Function> f = Function::FromTyped([](int x) { return x * 3; });
  REQUIRE(f.ok());
  TVMFFIByteArray name = Name("testing.triple_a_function_name");
  REQUIRE(TVMFFIFunctionSetGlobal(&name, f->object().get(), 0) == 0);

  TVMFFIObjectHandle got = nullptr;
  REQUIRE(TVMFFIFunctionGetGlobal(&name, &got) == 0);
  REQUIRE(got != nullptr);
  TVMFFIAny arg = NoneAny();
  TypeTraits<int>::Write(7, &arg);
  TVMFFIAny result = NoneAny();
  REQUIRE(TVMFFIFunctionCall(got, &arg, 1, &result) == 0);
  CHECK(result.v_int64 == 21);
  CHECK(TVMFFIObjectDecRef(got) == 0);

  CHECK(TVMFFIFunctionSetGlobal(&name, f->object().get(), 0) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "KeyError");
  CHECK(Contains(t.message, "already registered"));
  CHECK(TVMFFIFunctionSetGlobal(&name, f->object().get(), 1) == 0);

  TVMFFIByteArray missing = Name("testing.missing");
  got = reinterpret_cast<TVMFFIObjectHandle>(1);
  REQUIRE(TVMFFIFunctionGetGlobal(&missing, &got) == 0);
  CHECK(got == nullptr);
  ClearGlobalFunctions();
  CHECK(GlobalFunctionCount() == 0);
}

TEST_CASE("the global table reports when it is full") {
  AllocatorScope scope;
  Expected<Function> f = Function::FromTyped([] { return 0; });
  REQUIRE(f.ok());
  char name[16];
  for (int i = 0; i < FFI_CORE_GLOBAL_FUNCTION_CAPACITY; ++i) {
    name[0] = 'f';
    name[1] = static_cast<char>('A' + i / 26);
    name[2] = static_cast<char>('a' + i % 26);
    REQUIRE(RegisterGlobalFunction(name, 3, *f, false).ok());
  }
  Status s = RegisterGlobalFunction("one.too.many", 12, *f, false);
  CHECK(s.kind() == ErrorKind::kMemoryError);
  TakenError t = TakeError();
  CHECK(Contains(t.message, "table is full"));
  ClearGlobalFunctions();
}

TEST_CASE("bad registry input") {
  TVMFFIByteArray empty{"", 0};
  CHECK(TVMFFIFunctionSetGlobal(&empty, reinterpret_cast<void*>(8), 0) != 0);
  (void)TakeError();
  TVMFFIObjectHandle out = nullptr;
  CHECK(TVMFFIFunctionGetGlobal(nullptr, &out) != 0);
  CHECK(TakeError().kind == "ValueError");
  AllocatorScope scope;
  TVMFFIByteArray s{"a string object", 15};
  TVMFFIAny str = NoneAny();
  REQUIRE(TVMFFIStringFromByteArray(&s, &str) == 0);
  TVMFFIByteArray name = Name("not.a.function");
  CHECK(TVMFFIFunctionSetGlobal(&name, str.v_obj, 0) != 0);
  CHECK(TakeError().kind == "TypeError");
  CHECK(TVMFFIObjectDecRef(str.v_obj) == 0);
}
