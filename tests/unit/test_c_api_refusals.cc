// The refusal sweep over the C API (tvm/ffi/c_api.h, tvm/ffi/extra/c_env_api.h):
// every pointer parameter passed NULL with the others valid, every typed
// handle passed a live object of another type, and bad counts and sizes.
// A refusal is a non-zero return with an error whose kind is set and whose
// message names the function; where the contract allows NULL, the
// documented behaviour is checked instead.
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

// A refusal: non-zero, with a kind (`kind` when given) and the function
// named (or `named`: the few checks that live in the C++ core and name it).
void CheckRefused(int rc, const char* function, const char* kind = nullptr,
                  const char* named = nullptr) {
  if (named == nullptr) named = function;
  const std::string who(function);  // doctest prints a char pointer as an address
  CHECK_MESSAGE(rc != 0, who, " accepted bad input");
  TakenError t = TakeError();
  CHECK_MESSAGE(!t.kind.empty(), who, " raised no error");
  CHECK_MESSAGE(Contains(t.message, named), who, ": message '", std::string(t.message),
                "' does not name ", std::string(named));
  if (kind != nullptr) CHECK_MESSAGE(t.kind == kind, who, ": kind ", std::string(t.kind));
}

// Nothing pending: a NULL the contract allows raised nothing.
void CheckNothingRaised(const char* function) {
  TakenError t = TakeError();
  CHECK_MESSAGE(!t.error, std::string(function), " raised ", std::string(t.kind), ": ",
                std::string(t.message));
}

int Noop(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) { return 0; }
int InitNoop(void** result) {
  *result = nullptr;
  return 0;
}
int DeinitNoop(void*) { return 0; }

float g_data[4] = {1, 2, 3, 4};
int64_t g_shape[1] = {4};

DLTensor ValidDLTensor() {
  DLTensor t{};
  t.data = g_data;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 1;
  t.dtype = DLDataType{kDLFloat, 32, 1};
  t.shape = g_shape;
  return t;
}

// Valid arguments for every call, and one live object of each handle type.
struct Valid {
  TVMFFIByteArray name{"refusals.unused", 15};
  TVMFFIByteArray kind{"ValueError", 10};
  TVMFFIByteArray empty{"", 0};
  TVMFFIAny view = NoneAny();
  TVMFFIAny out_any = NoneAny();
  TVMFFIObjectHandle out = nullptr;
  int32_t out_index = 0;
  void* slot = nullptr;
  DLDataType dtype{kDLFloat, 32, 1};
  DLTensor prototype = ValidDLTensor();
  DLManagedTensor managed{ValidDLTensor(), nullptr, nullptr};
  DLManagedTensorVersioned versioned{
      {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, nullptr, nullptr, 0, ValidDLTensor()};
  DLManagedTensor* out_managed = nullptr;
  DLManagedTensorVersioned* out_versioned = nullptr;
  TVMFFIFieldInfo field{};
  TVMFFIMethodInfo method{};
  TVMFFITypeMetadata metadata{};
  // The live objects.
  TVMFFIObjectHandle function = nullptr;
  TVMFFIObjectHandle string = nullptr;
  TVMFFIObjectHandle bytes = nullptr;
  TVMFFIObjectHandle error = nullptr;
  TVMFFIObjectHandle tensor = nullptr;
  TVMFFIObjectHandle shape = nullptr;
  TVMFFIObjectHandle module = nullptr;
  int32_t dynamic_type = -1;  // a registered dynamic type, for reflection

  Valid() {
    const TVMFFIByteArray type_key{"refusals.Reflected", 18};
    dynamic_type = TVMFFITypeGetOrAllocIndex(&type_key, -1, 0, 0, 0, -1);
    REQUIRE(dynamic_type >= kTVMFFIDynObjectBegin);
    method.name = name;
    method.method = NoneAny();
    field.name = name;
    field.default_value_or_factory = NoneAny();
    REQUIRE(TVMFFIFunctionCreate(nullptr, &Noop, nullptr, &function) == 0);
    method.method.type_index = kTVMFFIFunction;
    method.method.v_obj = static_cast<TVMFFIObject*>(function);
    const TVMFFIByteArray long_text{"long enough to be an object", 27};
    TVMFFIAny s = NoneAny();
    REQUIRE(TVMFFIStringFromByteArray(&long_text, &s) == 0);
    string = s.v_obj;
    REQUIRE(TVMFFIBytesFromByteArray(&long_text, &s) == 0);
    bytes = s.v_obj;
    REQUIRE(TVMFFIErrorCreate(&kind, &long_text, &empty, &error) == 0);
    REQUIRE(TVMFFITensorFromDLPack(&managed, 0, 0, &tensor) == 0);
    managed = DLManagedTensor{ValidDLTensor(), nullptr, nullptr};
    Expected<Shape> sh = Shape::FromDims(g_shape, 1);
    REQUIRE(sh.ok());
    shape = detail::HeaderOf(std::move(sh).value().ReleaseObject());
    TVMFFIObjectHandle lib = nullptr;
    const TVMFFIByteArray system_lib{"ffi.SystemLib", 13};
    REQUIRE(TVMFFIFunctionGetGlobal(&system_lib, &lib) == 0);
    REQUIRE(lib != nullptr);
    TVMFFIAny result = NoneAny();
    REQUIRE(TVMFFIFunctionCall(lib, nullptr, 0, &result) == 0);
    REQUIRE(result.type_index == kTVMFFIModule);
    module = result.v_obj;
    REQUIRE(TVMFFIObjectDecRef(lib) == 0);
  }
  ~Valid() {
    for (TVMFFIObjectHandle h : {function, string, bytes, error, tensor, shape, module}) {
      CHECK(TVMFFIObjectDecRef(h) == 0);
    }
  }
};

struct NullCase {
  const char* function;
  const char* argument;
  int (*call)(Valid&);
};

}  // namespace

TEST_CASE("every C entry point refuses a NULL it needs, naming itself") {
  AllocatorScope scope;
  Valid v;
  static const NullCase kCases[] = {
      {"TVMFFIObjectIncRef", "obj", [](Valid&) { return TVMFFIObjectIncRef(nullptr); }},
      {"TVMFFIObjectDecRef", "obj", [](Valid&) { return TVMFFIObjectDecRef(nullptr); }},
      {"TVMFFIObjectCreateOpaque", "out",
       [](Valid&) {
         return TVMFFIObjectCreateOpaque(nullptr, kTVMFFIOpaquePyObject, nullptr, nullptr);
       }},
      {"TVMFFIFunctionCreate", "safe_call",
       [](Valid& a) { return TVMFFIFunctionCreate(nullptr, nullptr, nullptr, &a.out); }},
      {"TVMFFIFunctionCreate", "out",
       [](Valid&) { return TVMFFIFunctionCreate(nullptr, &Noop, nullptr, nullptr); }},
      {"TVMFFIFunctionGetGlobal", "name",
       [](Valid& a) { return TVMFFIFunctionGetGlobal(nullptr, &a.out); }},
      {"TVMFFIFunctionGetGlobal", "out",
       [](Valid& a) { return TVMFFIFunctionGetGlobal(&a.name, nullptr); }},
      {"TVMFFIFunctionSetGlobal", "name",
       [](Valid& a) { return TVMFFIFunctionSetGlobal(nullptr, a.function, 0); }},
      {"TVMFFIFunctionSetGlobal", "f",
       [](Valid& a) { return TVMFFIFunctionSetGlobal(&a.name, nullptr, 0); }},
      {"TVMFFIAnyViewToOwnedAny", "any_view",
       [](Valid& a) { return TVMFFIAnyViewToOwnedAny(nullptr, &a.out_any); }},
      {"TVMFFIAnyViewToOwnedAny", "out",
       [](Valid& a) { return TVMFFIAnyViewToOwnedAny(&a.view, nullptr); }},
      {"TVMFFIFunctionCall", "func",
       [](Valid& a) { return TVMFFIFunctionCall(nullptr, &a.view, 1, &a.out_any); }},
      {"TVMFFIFunctionCall", "args",
       [](Valid& a) { return TVMFFIFunctionCall(a.function, nullptr, 1, &a.out_any); }},
      {"TVMFFIFunctionCall", "result",
       [](Valid& a) { return TVMFFIFunctionCall(a.function, &a.view, 1, nullptr); }},
      {"TVMFFITensorFromDLPack", "from",
       [](Valid& a) { return TVMFFITensorFromDLPack(nullptr, 0, 0, &a.out); }},
      {"TVMFFITensorFromDLPack", "out",
       [](Valid& a) { return TVMFFITensorFromDLPack(&a.managed, 0, 0, nullptr); }},
      {"TVMFFITensorFromDLPackVersioned", "from",
       [](Valid& a) { return TVMFFITensorFromDLPackVersioned(nullptr, 0, 0, &a.out); }},
      {"TVMFFITensorFromDLPackVersioned", "out",
       [](Valid& a) { return TVMFFITensorFromDLPackVersioned(&a.versioned, 0, 0, nullptr); }},
      {"TVMFFITensorToDLPack", "from",
       [](Valid& a) { return TVMFFITensorToDLPack(nullptr, &a.out_managed); }},
      {"TVMFFITensorToDLPack", "out",
       [](Valid& a) { return TVMFFITensorToDLPack(a.tensor, nullptr); }},
      {"TVMFFITensorToDLPackVersioned", "from",
       [](Valid& a) { return TVMFFITensorToDLPackVersioned(nullptr, &a.out_versioned); }},
      {"TVMFFITensorToDLPackVersioned", "out",
       [](Valid& a) { return TVMFFITensorToDLPackVersioned(a.tensor, nullptr); }},
      {"TVMFFITensorCreateUnsafeView", "source",
       [](Valid& a) { return TVMFFITensorCreateUnsafeView(nullptr, &a.prototype, &a.out); }},
      {"TVMFFITensorCreateUnsafeView", "prototype",
       [](Valid& a) { return TVMFFITensorCreateUnsafeView(a.tensor, nullptr, &a.out); }},
      {"TVMFFITensorCreateUnsafeView", "out",
       [](Valid& a) { return TVMFFITensorCreateUnsafeView(a.tensor, &a.prototype, nullptr); }},
      {"TVMFFIStringFromByteArray", "input",
       [](Valid& a) { return TVMFFIStringFromByteArray(nullptr, &a.out_any); }},
      {"TVMFFIStringFromByteArray", "out",
       [](Valid& a) { return TVMFFIStringFromByteArray(&a.name, nullptr); }},
      {"TVMFFIBytesFromByteArray", "input",
       [](Valid& a) { return TVMFFIBytesFromByteArray(nullptr, &a.out_any); }},
      {"TVMFFIBytesFromByteArray", "out",
       [](Valid& a) { return TVMFFIBytesFromByteArray(&a.name, nullptr); }},
      {"TVMFFIDataTypeFromString", "str",
       [](Valid& a) { return TVMFFIDataTypeFromString(nullptr, &a.dtype); }},
      {"TVMFFIDataTypeFromString", "out",
       [](Valid& a) { return TVMFFIDataTypeFromString(&a.name, nullptr); }},
      {"TVMFFIDataTypeToString", "dtype",
       [](Valid& a) { return TVMFFIDataTypeToString(nullptr, &a.out_any); }},
      {"TVMFFIDataTypeToString", "out",
       [](Valid& a) { return TVMFFIDataTypeToString(&a.dtype, nullptr); }},
      {"TVMFFIBigIntFromByteArray", "input",
       [](Valid& a) { return TVMFFIBigIntFromByteArray(nullptr, &a.out_any); }},
      {"TVMFFIBigIntFromByteArray", "out",
       [](Valid& a) { return TVMFFIBigIntFromByteArray(&a.empty, nullptr); }},
      {"TVMFFITypeKeyToIndex", "type_key",
       [](Valid& a) { return TVMFFITypeKeyToIndex(nullptr, &a.out_index); }},
      {"TVMFFITypeKeyToIndex", "out_tindex",
       [](Valid& a) { return TVMFFITypeKeyToIndex(&a.name, nullptr); }},
      {"TVMFFITypeGetOrAllocIndex", "type_key",
       [](Valid&) {
         return static_cast<int>(TVMFFITypeGetOrAllocIndex(nullptr, -1, 0, 0, 0, -1));
       }},
      {"TVMFFITypeRegisterField", "info",
       [](Valid&) { return TVMFFITypeRegisterField(kTVMFFIDynObjectBegin, nullptr); }},
      {"TVMFFITypeRegisterMethod", "info",
       [](Valid&) { return TVMFFITypeRegisterMethod(kTVMFFIDynObjectBegin, nullptr); }},
      {"TVMFFITypeRegisterMetadata", "metadata",
       [](Valid&) { return TVMFFITypeRegisterMetadata(kTVMFFIDynObjectBegin, nullptr); }},
      {"TVMFFITypeRegisterAttr", "attr_name",
       [](Valid& a) { return TVMFFITypeRegisterAttr(kTVMFFIStr, nullptr, &a.view); }},
      {"TVMFFITypeRegisterAttr", "attr_value",
       [](Valid& a) { return TVMFFITypeRegisterAttr(kTVMFFIStr, &a.name, nullptr); }},
      {"TVMFFIFunctionSetGlobalFromMethodInfo", "method_info",
       [](Valid&) { return TVMFFIFunctionSetGlobalFromMethodInfo(nullptr, 0); }},
      {"TVMFFIHandleInitOnce", "handle_addr",
       [](Valid&) { return TVMFFIHandleInitOnce(nullptr, &InitNoop); }},
      {"TVMFFIHandleInitOnce", "init_func",
       [](Valid& a) { return TVMFFIHandleInitOnce(&a.slot, nullptr); }},
      {"TVMFFIHandleDeinitOnce", "handle_addr",
       [](Valid&) { return TVMFFIHandleDeinitOnce(nullptr, &DeinitNoop); }},
      {"TVMFFIHandleDeinitOnce", "deinit_func",
       [](Valid& a) { return TVMFFIHandleDeinitOnce(&a.slot, nullptr); }},
      {"TVMFFIEnvTensorAlloc", "prototype",
       [](Valid& a) { return TVMFFIEnvTensorAlloc(nullptr, &a.out); }},
      {"TVMFFIEnvTensorAlloc", "out",
       [](Valid& a) { return TVMFFIEnvTensorAlloc(&a.prototype, nullptr); }},
      {"TVMFFIEnvRegisterCAPI", "name",
       [](Valid&) { return TVMFFIEnvRegisterCAPI(nullptr, nullptr); }},
      {"TVMFFIEnvModRegisterSystemLibSymbol", "name",
       [](Valid& a) { return TVMFFIEnvModRegisterSystemLibSymbol(nullptr, &a.slot); }},
      {"TVMFFIEnvModRegisterSystemLibSymbol", "symbol",
       [](Valid&) { return TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_refusals", nullptr); }},
      {"FFICoreSystemLibAddSlots", "block",
       [](Valid&) { return FFICoreSystemLibAddSlots(nullptr); }},
      {"TVMFFIEnvModLookupFromImports", "library_ctx",
       [](Valid& a) { return TVMFFIEnvModLookupFromImports(nullptr, "refusals", &a.out); }},
      {"TVMFFIEnvModLookupFromImports", "func_name",
       [](Valid& a) { return TVMFFIEnvModLookupFromImports(a.module, nullptr, &a.out); }},
      {"TVMFFIEnvModLookupFromImports", "out",
       [](Valid& a) { return TVMFFIEnvModLookupFromImports(a.module, "refusals", nullptr); }},
      {"TVMFFIEnvModRegisterContextSymbol", "name",
       [](Valid& a) { return TVMFFIEnvModRegisterContextSymbol(nullptr, &a.slot); }},
  };
  for (const NullCase& c : kCases) {
    const std::string where = std::string(c.function) + ", " + c.argument;
    INFO(where);
    v.out = nullptr;
    CheckRefused(c.call(v), c.function);
    CHECK(v.out == nullptr);
    CHECK(v.out_any.type_index == kTVMFFINone);
  }
}

TEST_CASE("NULLs the C API allows do what its contract says") {
  AllocatorScope scope;
  Valid v;
  TVMFFIGetVersion(nullptr);  // nowhere to write: nothing happens
  CheckNothingRaised("TVMFFIGetVersion");

  // Optional handle and deleter of an opaque object.
  REQUIRE(TVMFFIObjectCreateOpaque(nullptr, kTVMFFIOpaquePyObject, nullptr, &v.out) == 0);
  CHECK(TVMFFIOpaqueObjectGetCellPtr(v.out)->handle == nullptr);
  CHECK(TVMFFIObjectDecRef(v.out) == 0);

  // NULL restores the built-in allocator.
  TVMFFICustomAllocator* builtin = TVMFFIGetCustomAllocator();
  CHECK(TVMFFISetCustomAllocator(nullptr) == 0);
  CHECK(TVMFFIGetCustomAllocator() == builtin);

  // A function with neither self nor deleter.
  REQUIRE(TVMFFIFunctionCreate(nullptr, &Noop, nullptr, &v.out) == 0);
  CHECK(TVMFFIObjectDecRef(v.out) == 0);
  // No arguments may come as NULL.
  TVMFFIAny result = NoneAny();
  CHECK(TVMFFIFunctionCall(v.function, nullptr, 0, &result) == 0);

  // A NULL destination for the raised error leaves it pending.
  TVMFFIErrorSetRaisedFromCStr("TypeError", "kept");
  TVMFFIErrorMoveFromRaised(nullptr);
  TakenError kept = TakeError();
  CHECK(kept.kind == "TypeError");
  CHECK(kept.message == "kept");
  // Setting NULL clears the slot.
  TVMFFIErrorSetRaisedFromCStr("TypeError", "cleared");
  TVMFFIErrorSetRaised(nullptr);
  CheckNothingRaised("TVMFFIErrorSetRaised");
  // A NULL kind is a RuntimeError, a NULL message or part is empty.
  TVMFFIErrorSetRaisedFromCStr(nullptr, "no kind");
  TakenError no_kind = TakeError();
  CHECK(no_kind.kind == "RuntimeError");
  CHECK(no_kind.message == "no kind");
  const char* parts[] = {"a", nullptr, "b"};
  TVMFFIErrorSetRaisedFromCStrParts(nullptr, parts, 3);
  TakenError joined = TakeError();
  CHECK(joined.kind == "RuntimeError");
  CHECK(joined.message == "ab");
  TVMFFIErrorSetRaisedFromCStrParts("TypeError", nullptr, 0);
  CHECK(TakeError().kind == "TypeError");

  // Error creation runs inside error handling: NULLs are refused by the
  // return code alone and the pending error is left as it was.
  TVMFFIErrorSetRaisedFromCStr("TypeError", "pending");
  v.out = nullptr;
  const TVMFFIByteArray msg{"m", 1};
  CHECK(TVMFFIErrorCreate(nullptr, &msg, &v.empty, &v.out) != 0);
  CHECK(TVMFFIErrorCreate(&v.kind, nullptr, &v.empty, &v.out) != 0);
  CHECK(TVMFFIErrorCreate(&v.kind, &msg, &v.empty, nullptr) != 0);
  CHECK(TVMFFIErrorCreateWithCauseAndExtraContext(nullptr, &msg, &v.empty, nullptr, nullptr,
                                                  &v.out) != 0);
  CHECK(TVMFFIErrorCreateWithCauseAndExtraContext(&v.kind, nullptr, &v.empty, nullptr, nullptr,
                                                  &v.out) != 0);
  CHECK(TVMFFIErrorCreateWithCauseAndExtraContext(&v.kind, &msg, &v.empty, nullptr, nullptr,
                                                  nullptr) != 0);
  CHECK(v.out == nullptr);
  CHECK(TakeError().message == "pending");
  // The backtrace, cause and extra context are optional.
  REQUIRE(TVMFFIErrorCreate(&v.kind, &msg, nullptr, &v.out) == 0);
  CHECK(TVMFFIObjectDecRef(v.out) == 0);
  REQUIRE(TVMFFIErrorCreateWithCauseAndExtraContext(&v.kind, &msg, nullptr, nullptr, nullptr,
                                                    &v.out) == 0);
  CHECK(TVMFFIObjectDecRef(v.out) == 0);

  // Accessors answer "none" for NULL.
  const TVMFFIByteArray none = TVMFFIBigIntGetContentByteArray(nullptr);
  CHECK(none.data == nullptr);
  CHECK(none.size == 0);
  CHECK(TVMFFIGetTypeAttrColumn(nullptr) == nullptr);
  CheckNothingRaised("accessors");

  // Optional outputs of the environment API; a NULL stream or allocator is
  // the default one.
  CHECK(TVMFFIEnvSetStream(kDLCPU, 0, nullptr, nullptr) == 0);
  CHECK(TVMFFIEnvGetStream(kDLCPU, 0) == nullptr);
  DLPackManagedTensorAllocator before = TVMFFIEnvGetDLPackManagedTensorAllocator();
  DLPackManagedTensorAllocator previous = nullptr;
  CHECK(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 0, nullptr) == 0);
  CHECK(TVMFFIEnvSetDLPackManagedTensorAllocator(before, 0, &previous) == 0);
  CHECK((previous == nullptr));  // the NULL just set
  // A NULL symbol unregisters a frontend hook; a context symbol may be NULL.
  CHECK(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", nullptr) == 0);
  CHECK(TVMFFIEnvCheckSignals() == 0);
  CheckNothingRaised("environment");
}

namespace {

struct TypedCase {
  const char* function;
  int32_t expected;  // the type index the handle must have
  int (*call)(Valid&, TVMFFIObjectHandle);
};

}  // namespace

TEST_CASE("a handle of another type is refused with a TypeError, not misread") {
  AllocatorScope scope;
  Valid v;
  static const TypedCase kCases[] = {
      {"TVMFFIFunctionSetGlobal", kTVMFFIFunction,
       [](Valid& a, TVMFFIObjectHandle h) { return TVMFFIFunctionSetGlobal(&a.name, h, 1); }},
      {"TVMFFIFunctionCall", kTVMFFIFunction,
       [](Valid& a, TVMFFIObjectHandle h) {
         return TVMFFIFunctionCall(h, nullptr, 0, &a.out_any);
       }},
      {"TVMFFIFunctionSetGlobalFromMethodInfo", kTVMFFIFunction,
       [](Valid& a, TVMFFIObjectHandle h) {
         TVMFFIMethodInfo info = a.method;
         info.method.type_index = TVMFFIObjectGetTypeIndex(h);
         info.method.v_obj = static_cast<TVMFFIObject*>(h);
         return TVMFFIFunctionSetGlobalFromMethodInfo(&info, 1);
       }},
      {"TVMFFITensorToDLPack", kTVMFFITensor,
       [](Valid& a, TVMFFIObjectHandle h) { return TVMFFITensorToDLPack(h, &a.out_managed); }},
      {"TVMFFITensorToDLPackVersioned", kTVMFFITensor,
       [](Valid& a, TVMFFIObjectHandle h) {
         return TVMFFITensorToDLPackVersioned(h, &a.out_versioned);
       }},
      {"TVMFFITensorCreateUnsafeView", kTVMFFITensor,
       [](Valid& a, TVMFFIObjectHandle h) {
         return TVMFFITensorCreateUnsafeView(h, &a.prototype, &a.out);
       }},
      {"TVMFFIEnvModLookupFromImports", kTVMFFIModule,
       [](Valid& a, TVMFFIObjectHandle h) {
         return TVMFFIEnvModLookupFromImports(h, "refusals", &a.out);
       }},
      {"TVMFFITypeRegisterField", kTVMFFIFunction,
       [](Valid& a, TVMFFIObjectHandle h) {
         TVMFFIFieldInfo info = a.field;
         info.flags = kTVMFFIFieldFlagBitSetterIsFunctionObj;
         info.setter = h;
         return TVMFFITypeRegisterField(a.dynamic_type, &info);
       }},
      // Void: the refusal is the raised TypeError, in place of the handle.
      {"TVMFFIErrorSetRaised", kTVMFFIError,
       [](Valid&, TVMFFIObjectHandle h) {
         TVMFFIErrorSetRaised(h);
         return -1;
       }},
  };
  const TVMFFIObjectHandle live[] = {v.function, v.string, v.bytes, v.error,
                                     v.tensor,   v.shape,  v.module};
  for (const TypedCase& c : kCases) {
    for (TVMFFIObjectHandle h : live) {
      if (TVMFFIObjectGetTypeIndex(h) == c.expected) continue;
      const std::string where(c.function);
      INFO(where);
      CAPTURE(TVMFFIObjectGetTypeIndex(h));
      v.out = nullptr;
      const uint32_t count = ObjectStrongCount(static_cast<TVMFFIObject*>(h));
      CheckRefused(c.call(v, h), c.function, "TypeError");
      CHECK(v.out == nullptr);
      CHECK(v.out_managed == nullptr);
      CHECK(v.out_versioned == nullptr);
      CHECK(v.out_any.type_index == kTVMFFINone);
      CHECK(ObjectStrongCount(static_cast<TVMFFIObject*>(h)) == count);
    }
  }
  // An error's cause must be an Error (failure by return code only, nothing
  // raised); the extra context may be any object.
  const TVMFFIByteArray msg{"m", 1};
  for (TVMFFIObjectHandle h : live) {
    if (TVMFFIObjectGetTypeIndex(h) == kTVMFFIError) continue;
    CAPTURE(TVMFFIObjectGetTypeIndex(h));
    const uint32_t count = ObjectStrongCount(static_cast<TVMFFIObject*>(h));
    CHECK(TVMFFIErrorCreateWithCauseAndExtraContext(&v.kind, &msg, nullptr, h, nullptr, &v.out) !=
          0);
    CHECK(v.out == nullptr);
    CheckNothingRaised("TVMFFIErrorCreateWithCauseAndExtraContext");
    CHECK(ObjectStrongCount(static_cast<TVMFFIObject*>(h)) == count);
  }
  REQUIRE(TVMFFIErrorCreateWithCauseAndExtraContext(&v.kind, &msg, nullptr, v.error, v.string,
                                                    &v.out) == 0);
  CHECK(TVMFFIObjectDecRef(v.out) == 0);
}

TEST_CASE("NULL data behind a non-zero size is refused, not read") {
  AllocatorScope scope;
  Valid v;
  static const TVMFFIByteArray kNullData{nullptr, 3};
  static const TVMFFIByteArray kNullLong{nullptr, 100};
  struct Case {
    const char* function;
    int (*call)(Valid&, const TVMFFIByteArray*);
    const char* named;  // when the message names no function (the string fast path)
  };
  static const Case kCases[] = {
      {"TVMFFIFunctionGetGlobal",
       [](Valid& a, const TVMFFIByteArray* b) { return TVMFFIFunctionGetGlobal(b, &a.out); }},
      {"TVMFFIFunctionSetGlobal",
       [](Valid& a, const TVMFFIByteArray* b) {
         return TVMFFIFunctionSetGlobal(b, a.function, 1);
       }},
      {"TVMFFIStringFromByteArray",
       [](Valid& a, const TVMFFIByteArray* b) { return TVMFFIStringFromByteArray(b, &a.out_any); },
       "NULL data with size"},
      {"TVMFFIBytesFromByteArray",
       [](Valid& a, const TVMFFIByteArray* b) { return TVMFFIBytesFromByteArray(b, &a.out_any); },
       "NULL data with size"},
      {"TVMFFIDataTypeFromString",
       [](Valid& a, const TVMFFIByteArray* b) { return TVMFFIDataTypeFromString(b, &a.dtype); }},
      {"TVMFFIBigIntFromByteArray",
       [](Valid& a, const TVMFFIByteArray* b) {
         const TVMFFIByteArray words{b->data, 8};
         return TVMFFIBigIntFromByteArray(&words, &a.out_any);
       }},
      {"TVMFFITypeKeyToIndex",
       [](Valid& a, const TVMFFIByteArray* b) { return TVMFFITypeKeyToIndex(b, &a.out_index); }},
      {"TVMFFITypeGetOrAllocIndex",
       [](Valid&, const TVMFFIByteArray* b) {
         return static_cast<int>(TVMFFITypeGetOrAllocIndex(b, -1, 0, 0, 0, -1));
       }},
      {"TVMFFITypeRegisterAttr",
       [](Valid& a, const TVMFFIByteArray* b) {
         return TVMFFITypeRegisterAttr(kTVMFFIStr, b, &a.view);
       }},
  };
  v.method.name = kNullData;  // delegates to TVMFFIFunctionSetGlobal, which names itself
  CheckRefused(TVMFFIFunctionSetGlobalFromMethodInfo(&v.method, 1),
               "TVMFFIFunctionSetGlobalFromMethodInfo", "ValueError", "TVMFFIFunctionSetGlobal");
  v.method.name = v.name;
  // The texts of reflected fields, methods and metadata.
  for (TVMFFIByteArray TVMFFIFieldInfo::*text :
       {&TVMFFIFieldInfo::name, &TVMFFIFieldInfo::doc, &TVMFFIFieldInfo::metadata}) {
    TVMFFIFieldInfo field = v.field;
    field.*text = kNullData;
    CheckRefused(TVMFFITypeRegisterField(v.dynamic_type, &field), "TVMFFITypeRegisterField",
                 "ValueError");
  }
  for (TVMFFIByteArray TVMFFIMethodInfo::*text :
       {&TVMFFIMethodInfo::name, &TVMFFIMethodInfo::doc, &TVMFFIMethodInfo::metadata}) {
    TVMFFIMethodInfo method = v.method;
    method.*text = kNullData;
    CheckRefused(TVMFFITypeRegisterMethod(v.dynamic_type, &method), "TVMFFITypeRegisterMethod",
                 "ValueError");
  }
  TVMFFITypeMetadata metadata{};
  metadata.doc = kNullLong;
  CheckRefused(TVMFFITypeRegisterMetadata(v.dynamic_type, &metadata), "TVMFFITypeRegisterMetadata",
               "ValueError");
  for (const Case& c : kCases) {
    for (const TVMFFIByteArray* b : {&kNullData, &kNullLong}) {
      const std::string where(c.function);
      INFO(where);
      CAPTURE(b->size);
      v.out = nullptr;
      CheckRefused(c.call(v, b), c.function, "ValueError", c.named);
      CHECK(v.out == nullptr);
      CHECK(v.out_any.type_index == kTVMFFINone);
    }
  }
  // Accessor and error creation: no answer, no error, no read.
  CHECK(TVMFFIGetTypeAttrColumn(&kNullData) == nullptr);
  CHECK(TVMFFIErrorCreate(&kNullData, &v.kind, nullptr, &v.out) != 0);
  CHECK(TVMFFIErrorCreate(&v.kind, &kNullLong, nullptr, &v.out) != 0);
  CHECK(v.out == nullptr);
  CheckNothingRaised("TVMFFIErrorCreate");
}

TEST_CASE("negative and oversized counts are refused") {
  AllocatorScope scope;
  Valid v;
  CheckRefused(TVMFFIFunctionCall(v.function, &v.view, -1, &v.out_any), "TVMFFIFunctionCall",
               "ValueError");
  CheckRefused(TVMFFIFunctionCall(v.function, &v.view, INT32_MIN, &v.out_any), "TVMFFIFunctionCall",
               "ValueError");
  // An opaque object under a built-in type's index would be misread as one.
  for (int32_t index : std::initializer_list<int32_t>{
           -1, INT32_MIN, kTVMFFIInt, kTVMFFIObject, kTVMFFIStr, kTVMFFIError, kTVMFFIFunction,
           kTVMFFITensor, kTVMFFIModule, kTVMFFIBigInt, kTVMFFIStaticObjectEnd,
           kTVMFFIDynObjectBegin - 1}) {
    CAPTURE(index);
    CheckRefused(TVMFFIObjectCreateOpaque(&v.slot, index, nullptr, &v.out),
                 "TVMFFIObjectCreateOpaque", "ValueError");
  }
  CheckRefused(TVMFFITensorFromDLPack(&v.managed, -1, 0, &v.out), "TVMFFITensorFromDLPack",
               "ValueError");
  CheckRefused(TVMFFITensorFromDLPackVersioned(&v.versioned, INT32_MIN, 0, &v.out),
               "TVMFFITensorFromDLPackVersioned", "ValueError");
  // A rank below zero or past the limit, and a shape missing for its rank:
  // refused by the tensor core's layout check, which names its C++ function.
  for (int32_t ndim :
       std::initializer_list<int32_t>{-1, INT32_MIN, FFI_CORE_TENSOR_MAX_NDIM + 1, INT32_MAX}) {
    CAPTURE(ndim);
    v.managed.dl_tensor.ndim = ndim;
    CheckRefused(TVMFFITensorFromDLPack(&v.managed, 0, 0, &v.out), "TVMFFITensorFromDLPack",
                 "ValueError", "FromDLPack");
    v.versioned.dl_tensor.ndim = ndim;
    CheckRefused(TVMFFITensorFromDLPackVersioned(&v.versioned, 0, 0, &v.out),
                 "TVMFFITensorFromDLPackVersioned", "ValueError", "FromDLPackVersioned");
    v.prototype.ndim = ndim;
    CheckRefused(TVMFFITensorCreateUnsafeView(v.tensor, &v.prototype, &v.out),
                 "TVMFFITensorCreateUnsafeView", "ValueError", "UnsafeView");
    CheckRefused(TVMFFIEnvTensorAlloc(&v.prototype, &v.out), "TVMFFIEnvTensorAlloc", "ValueError",
                 "FromEnvAlloc");
  }
  v.managed.dl_tensor = ValidDLTensor();
  v.managed.dl_tensor.shape = nullptr;
  CheckRefused(TVMFFITensorFromDLPack(&v.managed, 0, 0, &v.out), "TVMFFITensorFromDLPack",
               "ValueError", "FromDLPack");
  v.prototype = ValidDLTensor();
  v.prototype.shape = nullptr;
  CheckRefused(TVMFFITensorCreateUnsafeView(v.tensor, &v.prototype, &v.out),
               "TVMFFITensorCreateUnsafeView", "ValueError", "UnsafeView");
  CheckRefused(TVMFFIEnvTensorAlloc(&v.prototype, &v.out), "TVMFFIEnvTensorAlloc", "ValueError",
               "FromEnvAlloc");
  CHECK(v.out == nullptr);

  // Sizes: a string longer than memory, BigInt words not whole.
  const TVMFFIByteArray huge{"x", SIZE_MAX};
  // (The allocator refuses it, on the strings' fast path: no function name.)
  CheckRefused(TVMFFIStringFromByteArray(&huge, &v.out_any), "TVMFFIStringFromByteArray",
               "MemoryError", "cannot allocate");
  CheckRefused(TVMFFIBytesFromByteArray(&huge, &v.out_any), "TVMFFIBytesFromByteArray",
               "MemoryError", "cannot allocate");
  const TVMFFIByteArray seven{"1234567", 7};
  CheckRefused(TVMFFIBigIntFromByteArray(&seven, &v.out_any), "TVMFFIBigIntFromByteArray",
               "ValueError");
  CHECK(v.out_any.type_index == kTVMFFINone);

  // Error message parts: a negative count, or no parts for a count, raise
  // the caller's kind with why the message is missing (nothing is read).
  TVMFFIErrorSetRaisedFromCStrParts("TypeError", nullptr, 2);
  TakenError no_parts = TakeError();
  CHECK(no_parts.kind == "TypeError");
  CHECK(no_parts.message == "TVMFFIErrorSetRaisedFromCStrParts: NULL parts or a negative count");
  const char* parts[] = {"a"};
  TVMFFIErrorSetRaisedFromCStrParts("TypeError", parts, -1);
  TakenError negative = TakeError();
  CHECK(negative.kind == "TypeError");
  CHECK(negative.message == no_parts.message);

  // Devices and type indices out of range.
  CheckRefused(TVMFFIEnvSetStream(-1, 0, &v.slot, nullptr), "TVMFFIEnvSetStream", "ValueError");
  CheckRefused(TVMFFIEnvSetStream(kDLCPU, INT32_MIN, &v.slot, nullptr), "TVMFFIEnvSetStream",
               "ValueError");
  CHECK(TVMFFIEnvGetStream(-1, -1) == nullptr);
  CHECK(TVMFFIGetTypeInfo(-1) == nullptr);
  CHECK(TVMFFIGetTypeInfo(INT32_MIN) == nullptr);
  CHECK(TVMFFIGetTypeInfo(INT32_MAX) == nullptr);
  CheckNothingRaised("TVMFFIGetTypeInfo");
  const TVMFFIByteArray attr{"refusals.attr", 13};
  TVMFFIAny one = NoneAny();
  one.type_index = kTVMFFIInt;
  one.v_int64 = 1;
  for (int32_t index : std::initializer_list<int32_t>{-1, INT32_MIN, INT32_MAX}) {
    CAPTURE(index);
    CheckRefused(TVMFFITypeRegisterAttr(index, &attr, &one), "TVMFFITypeRegisterAttr");
  }
  // A column growing near the top of int32 stops at INT32_MAX: its readers
  // add begin_index + size (doubling would have ended at INT32_MAX + 1). It
  // needs a column of its own: a board keeps 4, and test_type_registry.cc
  // fills the last ones itself.
  if (FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY > 4) {
    const TVMFFIByteArray top{"refusals.top", 12};
    for (int32_t index :
         std::initializer_list<int32_t>{INT32_MAX - 3, INT32_MAX - 2, INT32_MAX - 1}) {
      CAPTURE(index);
      REQUIRE(TVMFFITypeRegisterAttr(index, &top, &one) == 0);
    }
    const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&top);
    REQUIRE(column != nullptr);
    CHECK(int64_t{column->begin_index} + column->size <= INT32_MAX);
    CHECK(column->data[INT32_MAX - 1 - column->begin_index].v_int64 == 1);
  }
  for (int32_t index : std::initializer_list<int32_t>{-1, INT32_MAX, kTVMFFIStr}) {
    // A static type takes reflection where FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY
    // allows it (test_type_registry.cc); a board's refuses it.
    if (index == kTVMFFIStr && FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY > 0) continue;
    CAPTURE(index);
    CheckRefused(TVMFFITypeRegisterField(index, &v.field), "TVMFFITypeRegisterField");
    CheckRefused(TVMFFITypeRegisterMethod(index, &v.method), "TVMFFITypeRegisterMethod");
    CheckRefused(TVMFFITypeRegisterMetadata(index, &v.metadata), "TVMFFITypeRegisterMetadata");
  }
  const TVMFFIByteArray key{"refusals.Type", 13};
  for (int32_t slots : std::initializer_list<int32_t>{-1, INT32_MIN, INT32_MAX}) {
    CAPTURE(slots);
    CheckRefused(TVMFFITypeGetOrAllocIndex(&key, -1, 0, slots, 0, -1) == -1 ? -1 : 0,
                 "TVMFFITypeGetOrAllocIndex");
  }
  CheckRefused(TVMFFITypeGetOrAllocIndex(&key, -1, 7, 0, 0, -1) == -1 ? -1 : 0,
               "TVMFFITypeGetOrAllocIndex", "ValueError");
  CheckRefused(TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, INT32_MAX) == -1 ? -1 : 0,
               "TVMFFITypeGetOrAllocIndex", "KeyError");
  CHECK(TVMFFITypeGetOrAllocIndex(&key, -1, 0, 0, 0, -2) == -2);  // query only
  CHECK(v.out == nullptr);
}

TEST_CASE("an object tag without its object is refused, not followed") {
  AllocatorScope scope;
  Valid v;
  TVMFFIAny big = NoneAny();
  big.type_index = kTVMFFIBigInt;
  const TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(&big);
  CHECK(words.data == nullptr);
  CHECK(words.size == 0);
  if (!FFI_CORE_CHECK_PADDING) return;  // the invariant checks are off
  for (int32_t index : std::initializer_list<int32_t>{kTVMFFIStr, kTVMFFIFunction, kTVMFFITensor,
                                                      kTVMFFIDynObjectBegin}) {
    CAPTURE(index);
    TVMFFIAny hollow = NoneAny();
    hollow.type_index = index;
    // Refused by the invariant check the call path shares, which names the
    // value rather than the function.
    CheckRefused(TVMFFIAnyViewToOwnedAny(&hollow, &v.out_any), "TVMFFIAnyViewToOwnedAny",
                 "ValueError", "NULL object pointer");
    CheckRefused(TVMFFIFunctionCall(v.function, &hollow, 1, &v.out_any), "TVMFFIFunctionCall",
                 "ValueError", "NULL object pointer");
    CHECK(v.out_any.type_index == kTVMFFINone);
  }
}

// Outside an allocator scope: the calling context keeps the text it returns.
// With no frame named, only native frames the port can name are listed
// (none named here: the test's functions are not dynamic symbols), each as a
// whole line; a named frame comes first.
TEST_CASE("TVMFFIBacktrace of a frame without names, and of a named one") {
  const TVMFFIByteArray* bt = TVMFFIBacktrace(nullptr, -1, nullptr, 0);
  REQUIRE(bt != nullptr);
  const std::string_view unnamed = View(*bt);
  CHECK(unnamed.find("in <unknown>") == std::string_view::npos);
  CHECK((unnamed.empty() || unnamed.back() == '\n'));
  CheckNothingRaised("TVMFFIBacktrace");
  bt = TVMFFIBacktrace("kernel.cc", 7, "Kernel", 0);
  REQUIRE(bt != nullptr);
  CHECK(View(*bt).rfind(
            FFI_CORE_ERROR_BACKTRACES ? "  File \"kernel.cc\", line 7, in Kernel\n" : "", 0) == 0);
  CheckNothingRaised("TVMFFIBacktrace");
}
