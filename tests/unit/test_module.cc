#include <cstdio>

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

namespace {

// Names a registration keeps for the rest of the program.
char g_fill_names[FFI_CORE_SYSTEM_LIB_CAPACITY + 4][24];

bool InSystemLib(const char* name) {
  Expected<Module> m = Module::SystemLib();
  if (!m.ok()) return false;
  Expected<Function> f = m->GetFunction(name, std::strlen(name));
  return f.ok() && static_cast<bool>(*f);
}

}  // namespace

TEST_CASE("the system library grows by the slots objects bring, and a full table is refused") {
  AllocatorScope scope;
  void* kernel = reinterpret_cast<void*>(&__tvm_ffi_test_scale);
  // Fill what is left of the static table.
  int free_slots = 0;
  int rc = 0;
  for (; free_slots <= FFI_CORE_SYSTEM_LIB_CAPACITY; ++free_slots) {
    std::snprintf(g_fill_names[free_slots], sizeof(g_fill_names[0]), "__tvm_ffi_fill_%d",
                  free_slots);
    rc = TVMFFIEnvModRegisterSystemLibSymbol(g_fill_names[free_slots], kernel);
    if (rc != 0) break;
  }
  REQUIRE(rc != 0);
  TakenError full = TakeError();
  CHECK(full.kind == "MemoryError");
  CHECK(Contains(full.message, "system library full"));
  CHECK(Contains(full.message, g_fill_names[free_slots]));

  // Two added slots take the refused symbol and one more; then full again.
  static FFICoreSystemLibSlot two[2] = {{"__tvm_ffi_stale", kernel}, {nullptr, nullptr}};
  static FFICoreSystemLibBlock block{two, 2, nullptr};
  REQUIRE(FFICoreSystemLibAddSlots(&block) == 0);
  CHECK_FALSE(InSystemLib("__tvm_ffi_stale"));  // added slots start empty
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol(g_fill_names[free_slots], kernel) == 0);
  std::snprintf(g_fill_names[free_slots + 1], sizeof(g_fill_names[0]), "__tvm_ffi_fill_%d",
                free_slots + 1);
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol(g_fill_names[free_slots + 1], kernel) == 0);
  std::snprintf(g_fill_names[free_slots + 2], sizeof(g_fill_names[0]), "__tvm_ffi_fill_%d",
                free_slots + 2);
  CHECK(TVMFFIEnvModRegisterSystemLibSymbol(g_fill_names[free_slots + 2], kernel) != 0);
  full = TakeError();
  CHECK(full.kind == "MemoryError");
  CHECK(Contains(full.message, "2 added slots"));
  // Every symbol is found, in the static table and in the added slots.
  CHECK(InSystemLib(g_fill_names[0]));
  CHECK(InSystemLib(g_fill_names[free_slots]));
  CHECK(InSystemLib(g_fill_names[free_slots + 1]));
  CHECK_FALSE(InSystemLib(g_fill_names[free_slots + 2]));
  // Re-registering replaces in place, even when the table is full.
  CHECK(TVMFFIEnvModRegisterSystemLibSymbol(g_fill_names[free_slots + 1], kernel) == 0);

  // A block is added once.
  CHECK(FFICoreSystemLibAddSlots(&block) != 0);
  CHECK(TakeError().message == "FFICoreSystemLibAddSlots: the block was already added");
  static FFICoreSystemLibBlock no_slots{nullptr, 3, nullptr};
  CHECK(FFICoreSystemLibAddSlots(&no_slots) != 0);
  CHECK(TakeError().kind == "ValueError");

  // Room for the tests that run after this one.
  static FFICoreSystemLibSlot spare[16];
  static FFICoreSystemLibBlock room{spare, 16, nullptr};
  REQUIRE(FFICoreSystemLibAddSlots(&room) == 0);
}

namespace {

void* g_prefixed_ctx = nullptr;
int g_init_calls = 0;

int InitHandle(void** result) {
  ++g_init_calls;
  *result = &g_init_calls;
  return 0;
}

int FailInit(void** /*result*/) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "init failed");
  return -1;
}

int DeinitHandle(void* /*handle*/) { return 0; }

}  // namespace

TEST_CASE("a system library per prefix binds its library context and prefers prefixed symbols") {
  AllocatorScope scope;
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("pfx___tvm_ffi__library_ctx", &g_prefixed_ctx) == 0);
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_pfx_test_scale",
                                              reinterpret_cast<void*>(&__tvm_ffi_test_scale)) == 0);
  Expected<Module> m = Module::SystemLib("pfx_", 4);
  REQUIRE(m.ok());
  // Generated code finds its module through the context variable.
  CHECK(g_prefixed_ctx == m->object().get());
  Expected<Module> again = Module::SystemLib("pfx_", 4);
  REQUIRE(again.ok());
  CHECK(again->object().get() == m->object().get());
  Expected<Function> f = m->GetFunction("test_scale", 10);
  REQUIRE(f.ok());
  REQUIRE(*f);
  CHECK((*f)(int64_t{4}, 2.0).value().As<int64_t>().value() == 8);
  // A prefix too long for the table is refused.
  CHECK(!Module::SystemLib("a_prefix_much_longer_than_the_limit_", 36).ok());
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("TVMFFIEnvModLookupFromImports finds globals, keeps them, and reports what is missing") {
  // The module keeps what it hands out for good: use memory that stays.
  static StaticPool<96, 4> pool;
  Allocator* previous = GetAllocator();
  SetAllocator(pool.allocator());
  Expected<Function> target = Function::FromTyped([](int64_t x) { return x * 3; });
  REQUIRE(target.ok());
  TVMFFIByteArray name{"t.triple", 8};
  REQUIRE(TVMFFIFunctionSetGlobal(&name, target->object().get(), 1) == 0);
  Expected<Module> m = Module::SystemLib();
  REQUIRE(m.ok());
  TVMFFIObjectHandle out = nullptr;
  REQUIRE(TVMFFIEnvModLookupFromImports(m->object().get(), "t.triple", &out) == 0);
  CHECK(out == target->object().get());
  TVMFFIObjectHandle again = nullptr;
  REQUIRE(TVMFFIEnvModLookupFromImports(m->object().get(), "t.triple", &again) == 0);
  CHECK(again == out);
  CHECK(TVMFFIEnvModLookupFromImports(m->object().get(), "t.missing", &out) != 0);
  TakenError missing = TakeError();
  CHECK(missing.kind == "RuntimeError");
  CHECK(Contains(missing.message, "t.missing"));
  CHECK(TVMFFIEnvModLookupFromImports(nullptr, "t.triple", &out) != 0);
  CHECK(TakeError().kind == "ValueError");
  TVMFFIAny not_module = AnyView("a string longer than seven").raw();
  CHECK(TVMFFIEnvModLookupFromImports(not_module.v_obj, "t.triple", &out) != 0);
  CHECK(TakeError().kind == "TypeError");
  SetAllocator(previous);
}

TEST_CASE("TVMFFIHandleInitOnce runs its init once and passes failures on") {
  void* handle = nullptr;
  g_init_calls = 0;
  CHECK(TVMFFIHandleInitOnce(&handle, &InitHandle) == 0);
  CHECK(TVMFFIHandleInitOnce(&handle, &InitHandle) == 0);
  CHECK(g_init_calls == 1);
  CHECK(handle == &g_init_calls);
  CHECK(TVMFFIHandleDeinitOnce(&handle, &DeinitHandle) == 0);
  CHECK(handle == nullptr);
  CHECK(TVMFFIHandleDeinitOnce(&handle, &DeinitHandle) == 0);

  void* failing = nullptr;
  CHECK(TVMFFIHandleInitOnce(&failing, &FailInit) != 0);
  CHECK(failing == nullptr);
  TakenError t = TakeError();
  CHECK(t.kind == "ValueError");
  CHECK(t.message == "init failed");
  CHECK(TVMFFIHandleInitOnce(nullptr, &InitHandle) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("context symbols are validated and the table is bounded") {
  AllocatorScope scope;
  CHECK(TVMFFIEnvModRegisterContextSymbol(nullptr, nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
  static const char* const kNames[] = {"__ctx0",  "__ctx1",  "__ctx2", "__ctx3", "__ctx4",
                                       "__ctx5",  "__ctx6",  "__ctx7", "__ctx8", "__ctx9",
                                       "__ctx10", "__ctx11", "__ctx12"};
  int failures = 0;
  for (const char* n : kNames) failures += TVMFFIEnvModRegisterContextSymbol(n, nullptr) != 0;
  // Re-registering a name replaces it rather than taking a new entry.
  CHECK(TVMFFIEnvModRegisterContextSymbol("__ctx0", &g_init_calls) == 0);
  CHECK(failures >= 1);
  CHECK(TakeError().kind == "MemoryError");
}

TEST_CASE("a C++ ModuleObj made with upstream's headers is refused, not misread") {
  Expected<Module> lib = Module::SystemLib();
  REQUIRE(lib.ok());
  CHECK(IsCoreModule(&lib->object()->header));
  // Upstream's layout puts a vtable pointer before the header and frees
  // through its own deleter: the deleter is what tells them apart.
  struct ForeignModule {
    void* vtable;
    TVMFFIObject header;
  } foreign{};
  foreign.header.type_index = kTVMFFIModule;
  foreign.header.combined_ref_count = 1;
  foreign.header.deleter = [](void*, int) {};
  CHECK_FALSE(IsCoreModule(&foreign.header));
  TVMFFIAny raw = NoneAny();
  raw.type_index = kTVMFFIModule;
  raw.v_obj = &foreign.header;
  Module read;
  CHECK(AnyView::FromRaw(raw).TryAs(&read) == Conversion::kFailed);
  TakenError refused = TakeError();
  CHECK(refused.kind == "TypeError");
  CHECK(Contains(refused.message, "upstream's C++ headers"));
  CHECK_FALSE(read);
}
