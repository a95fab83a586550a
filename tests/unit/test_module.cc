#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

int64_t Scale(int64_t x, double factor) {
  return static_cast<int64_t>(static_cast<double>(x) * factor);
}

}  // namespace

// Typed kernels exported with the one C signature.
FFI_CORE_DLL_EXPORT_TYPED_FUNC(test_scale, Scale);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(test_concat_len, [](String a, String b) {
  return static_cast<int64_t>(a.size() + b.size());
});

TEST_CASE("an exported typed function checks and converts through the C signature") {
  AllocatorScope scope;
  TVMFFIAny args[2] = {AnyView(int64_t{10}).raw(), AnyView(2.5).raw()};
  TVMFFIAny result = NoneAny();
  REQUIRE(__tvm_ffi_test_scale(nullptr, args, 2, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt);
  CHECK(result.v_int64 == 25);

  args[1] = AnyView("x").raw();
  CHECK(__tvm_ffi_test_scale(nullptr, args, 2, &result) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(t.message == "test_scale: argument #1: expected float, got const char*");

  CHECK(__tvm_ffi_test_scale(nullptr, args, 1, &result) != 0);
  CHECK(TakeError().message == "test_scale: expected 2 arguments, got 1");
}

TEST_CASE("the system library finds registered __tvm_ffi_ symbols by name") {
  AllocatorScope scope;
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_test_scale",
                                              reinterpret_cast<void*>(&__tvm_ffi_test_scale)) == 0);
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol(
              "__tvm_ffi_test_concat_len", reinterpret_cast<void*>(&__tvm_ffi_test_concat_len)) ==
          0);
  // Through the globals, exactly as a C loader would.
  TVMFFIByteArray name{"ffi.SystemLib", 13};
  TVMFFIObjectHandle system_lib = nullptr;
  REQUIRE(TVMFFIFunctionGetGlobal(&name, &system_lib) == 0);
  REQUIRE(system_lib != nullptr);
  TVMFFIAny mod = NoneAny();
  REQUIRE(TVMFFIFunctionCall(system_lib, nullptr, 0, &mod) == 0);
  CHECK(mod.type_index == kTVMFFIModule);

  Expected<Function> get = GetGlobalFunction("ffi.ModuleGetFunction", 21);
  REQUIRE(get.ok());
  REQUIRE(*get);
  Module m = AnyView::FromRaw(mod).As<Module>().value();
  Expected<Any> f = (*get)(m, "test_concat_len", false);
  REQUIRE(f.ok());
  Expected<Function> fn = f->As<Function>();
  REQUIRE(fn.ok());
  Expected<Any> r = (*fn)("abc", "a longer string");
  REQUIRE(r.ok());
  CHECK(r->As<int>().value() == 18);

  // Unknown names give None, not an error.
  Expected<Any> missing = (*get)(m, "no_such_kernel", false);
  REQUIRE(missing.ok());
  CHECK(missing->is_none());
  // The prefix may also be given.
  CHECK(m.GetFunction("__tvm_ffi_test_scale", 20).value());

  CHECK(TVMFFIObjectDecRef(mod.v_obj) == 0);
  CHECK(TVMFFIObjectDecRef(system_lib) == 0);
  CHECK(TVMFFIEnvModRegisterSystemLibSymbol(nullptr, nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}
