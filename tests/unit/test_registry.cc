#include <string>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {
TVMFFIByteArray Name(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }
}  // namespace

namespace {
// A distinct four-character name per i (a prefix, then i in base 62), for
// tables of any capacity.
void GlobalName(char prefix, int i, char (&name)[5]) {
  constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  name[0] = prefix;
  for (int d = 3; d >= 1; --d, i /= 62) name[d] = kDigits[i % 62];
  name[4] = '\0';
}
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

TEST_CASE("global functions keep the metadata they were registered with until replaced") {
  AllocatorScope scope;
  Expected<Function> f = Function::FromTyped([](int64_t x) { return x + 1; });
  REQUIRE(f.ok());
  const char* kName = "testing.with_metadata";
  const std::string metadata = R"({"type_schema":"{\"type\":\"ffi.Function\"}","int_attr":1})";
  TVMFFIMethodInfo info{};
  info.name = Name(kName);
  info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
  info.method = AnyView(*f).raw();
  REQUIRE(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0) == 0);
  Expected<String> got = GlobalFunctionMetadata(kName, std::strlen(kName));
  REQUIRE(got.ok());
  CHECK(std::string_view(got->data(), got->size()) == metadata);

  // A plain registration under the name drops it, as upstream's table does.
  TVMFFIByteArray name = Name(kName);
  REQUIRE(TVMFFIFunctionSetGlobal(&name, f->object().get(), 1) == 0);
  got = GlobalFunctionMetadata(kName, std::strlen(kName));
  REQUIRE(got.ok());
  CHECK(got->size() == 0);

  // Registered again with metadata; a refused registration keeps it. Then
  // removed: nothing is left (the scope checks the memory).
  REQUIRE(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 1) == 0);
  const std::string other = R"({"int_attr":2})";
  TVMFFIMethodInfo again = info;
  again.metadata = TVMFFIByteArray{other.data(), other.size()};
  CHECK(TVMFFIFunctionSetGlobalFromMethodInfo(&again, 0) != 0);
  CHECK(TakeError().kind == "KeyError");
  CHECK(GlobalFunctionMetadata(kName, std::strlen(kName))->size() == metadata.size());
  CHECK(RemoveGlobalFunction(kName, std::strlen(kName)));
  CHECK(GlobalFunctionMetadata(kName, std::strlen(kName))->size() == 0);

  // NULL metadata bytes are refused before anything is registered.
  info.metadata = TVMFFIByteArray{nullptr, 3};
  CHECK(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 1) != 0);
  CHECK(TakeError().kind == "ValueError");
  CHECK(GlobalFunctionCount() == 0);
  ClearGlobalFunctions();
}

TEST_CASE("the global table reports when it is full") {
  AllocatorScope scope;
  Expected<Function> f = Function::FromTyped([] { return 0; });
  REQUIRE(f.ok());
  char name[5];
  for (int i = 0; i < FFI_CORE_GLOBAL_FUNCTION_CAPACITY; ++i) {
    GlobalName('f', i, name);
    REQUIRE(RegisterGlobalFunction(name, 4, *f, false).ok());
  }
  Status s = RegisterGlobalFunction("one.too.many", 12, *f, false);
  CHECK(s.kind() == ErrorKind::kMemoryError);
  TakenError t = TakeError();
  CHECK(Contains(t.message, "table is full"));
  ClearGlobalFunctions();
}

TEST_CASE("removing global functions keeps every other one findable") {
  AllocatorScope scope;
  Expected<Function> f = Function::FromTyped([] { return 0; });
  REQUIRE(f.ok());
  // A full table: every run of entries wraps and collides.
  constexpr int kN = FFI_CORE_GLOBAL_FUNCTION_CAPACITY;
  auto name_of = [](int i, char(&name)[5]) { GlobalName('r', i, name); };
  char name[5];
  for (int i = 0; i < kN; ++i) {
    name_of(i, name);
    REQUIRE(RegisterGlobalFunction(name, 4, *f, false).ok());
  }
  bool present[kN];
  for (bool& p : present) p = true;
  // Every third, then every other remaining one: holes in and between runs.
  for (int step : {3, 2}) {
    for (int i = 0; i < kN; i += step) {
      name_of(i, name);
      CHECK(RemoveGlobalFunction(name, 4) == present[i]);
      present[i] = false;
    }
    for (int i = 0; i < kN; ++i) {
      name_of(i, name);
      Expected<Function> got = GetGlobalFunction(name, 4);
      REQUIRE(got.ok());
      CHECK_MESSAGE(static_cast<bool>(*got) == present[i], name);
    }
  }
  size_t left = 0;
  for (bool p : present) left += p ? 1 : 0;
  CHECK(GlobalFunctionCount() == left);
  // Freed entries take new names again, up to the capacity.
  for (int i = 0; i < kN; ++i) {
    name_of(i, name);
    if (!present[i]) REQUIRE(RegisterGlobalFunction(name, 4, *f, false).ok());
  }
  CHECK(GlobalFunctionCount() == static_cast<size_t>(kN));
  CHECK_FALSE(RemoveGlobalFunction("absent", 6));
  CHECK_FALSE(RemoveGlobalFunction(nullptr, 0));
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
