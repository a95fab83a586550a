// The C ABI entry points: argument checks, then the C++ core. Every failure
// returns non-zero with an error in the caller's slot.
#include <ffi_core/allocator.h>
#include <ffi_core/any.h>
#include <ffi_core/config.h>
#include <ffi_core/dtype.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/object.h>
#include <ffi_core/padding_check.h>
#include <ffi_core/port.h>
#include <ffi_core/registry.h>
#include <ffi_core/string.h>
#include <tvm/ffi/c_api.h>

#include <cstring>

#include "global_lock_guard.h"
#include "small_bytes.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary

namespace {

// Cold and out of line: the entry points' fast paths then need no stack frame.
[[gnu::cold, gnu::noinline]] int NullArgument(const char* function, const char* argument) {
  return RaiseError(ErrorKind::kValueError, {function, ": ", argument, " is NULL"}).ToReturnCode();
}

int ToCode(Status s) { return s.ToReturnCode(); }

// An opaque object wrapping a foreign handle.
struct OpaqueObj {
  TVMFFIObject header;
  TVMFFIOpaqueObjectCell cell;
  void (*deleter)(void*);
  ~OpaqueObj() {
    if (deleter != nullptr) deleter(cell.handle);
  }
};

// The object form (and the NULL-data refusal); out of line so the entry
// points reach it by a tail call and the small form needs no frame.
[[gnu::noinline]] int ByteSequenceNotSmall(const TVMFFIByteArray* input, TVMFFIAny* out,
                                           int32_t small_index, int32_t object_index) {
  return ToCode(
      detail::WriteByteSequence(input->data, input->size, small_index, object_index, out));
}

// Inlined into each entry point: the small form then costs no call.
[[gnu::always_inline]] inline int ByteSequenceFromByteArray(const char* function,
                                                            const TVMFFIByteArray* input,
                                                            TVMFFIAny* out, int32_t small_index,
                                                            int32_t object_index) {
  if (input == nullptr) return NullArgument(function, "input");
  if (out == nullptr) return NullArgument(function, "out");
  if (input->size <= kSmallBytesCapacity && input->data != nullptr &&
      detail::WriteSmallBytesInPlace(input->data, input->size, small_index, out)) {
    return 0;
  }
  return ByteSequenceNotSmall(input, out, small_index, object_index);
}

// Why TVMFFIFunctionCall refuses a call its fast path rejected. Cold and out
// of line, so the call path needs no stack frame; one raise for every
// reason keeps it small.
[[gnu::cold, gnu::noinline]] int RefuseCall(TVMFFIObjectHandle func, const TVMFFIAny* args,
                                            int32_t num_args, const TVMFFIAny* result) {
  ErrorKind kind = ErrorKind::kValueError;
  const char* what = "";
  MessagePart number("");
  if (func == nullptr) {
    what = "func is NULL";
  } else if (result == nullptr) {
    what = "result is NULL";
  } else if (num_args < 0) {
    what = "num_args is negative: ";
    number = MessagePart(num_args);
  } else if (args == nullptr && num_args != 0) {
    what = "args is NULL";
  } else {
    // Only the type is left. Numeric on purpose: the call path stays free
    // of the type-name table.
    kind = ErrorKind::kTypeError;
    what = "expected a Function (type index 68), got type index ";
    number = MessagePart(static_cast<TVMFFIObject*>(func)->type_index);
  }
  return RaiseError(kind, {"TVMFFIFunctionCall: ", what, number}).ToReturnCode();
}

// The full invariant check of a call the inline fast check did not clear,
// then the call itself: the fast path stays free of non-tail calls.
[[gnu::noinline]] int CheckThenCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  if (result->type_index != kTVMFFINone) {
    return RaiseError(ErrorKind::kValueError, {"TVMFFIFunctionCall: result must be set to None "
                                               "before the call (type index ",
                                               result->type_index, ")"})
        .ToReturnCode();
  }
  if (!CheckArgumentInvariants(args, num_args).ok()) return -1;
  return TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
}

}  // namespace

extern "C" {

void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == nullptr) return;
  *out_version = TVMFFIVersion{TVM_FFI_VERSION_MAJOR, TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH};
}

int TVMFFIObjectIncRef(TVMFFIObjectHandle obj) {
  if (obj == nullptr) return NullArgument("TVMFFIObjectIncRef", "obj");
  ObjectIncRef(static_cast<TVMFFIObject*>(obj));
  return 0;
}

int TVMFFIObjectDecRef(TVMFFIObjectHandle obj) {
  if (obj == nullptr) return NullArgument("TVMFFIObjectDecRef", "obj");
  ObjectDecRef(static_cast<TVMFFIObject*>(obj));
  return 0;
}

int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index, void (*deleter)(void* handle),
                             TVMFFIObjectHandle* out) {
  if (out == nullptr) return NullArgument("TVMFFIObjectCreateOpaque", "out");
  if (type_index < kTVMFFIStaticObjectBegin) {
    return RaiseError(ErrorKind::kValueError, {"TVMFFIObjectCreateOpaque: type index ", type_index,
                                               " is not an object type index"})
        .ToReturnCode();
  }
  Expected<OpaqueObj*> obj = NewObject<OpaqueObj>(type_index, 0);
  if (!obj.ok()) return -1;
  obj.value()->cell.handle = handle;
  obj.value()->deleter = deleter;
  *out = obj.value();
  return 0;
}

TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) { return CurrentCustomAllocator(); }

int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  if (allocator != nullptr && allocator->allocate == nullptr) {
    return NullArgument("TVMFFISetCustomAllocator", "allocator->allocate");
  }
  SetCustomAllocator(allocator);
  return 0;
}

int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self),
                         TVMFFIObjectHandle* out) {
  if (out == nullptr) return NullArgument("TVMFFIFunctionCreate", "out");
  FunctionObj* f = detail::NewExternCFunction(self, safe_call, deleter);
  if (f == nullptr) return -1;
  *out = f;
  return 0;
}

int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  if (name == nullptr) return NullArgument("TVMFFIFunctionGetGlobal", "name");
  if (out == nullptr) return NullArgument("TVMFFIFunctionGetGlobal", "out");
  Expected<Function> f = GetGlobalFunction(name->data, name->size);
  if (!f.ok()) return -1;
  ObjectPtr<FunctionObj> obj = f.value().object();
  *out = obj.release();
  return 0;
}

int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f, int allow_override) {
  if (name == nullptr) return NullArgument("TVMFFIFunctionSetGlobal", "name");
  if (f == nullptr) return NullArgument("TVMFFIFunctionSetGlobal", "f");
  if (name->size == 0) {
    return RaiseError(ErrorKind::kValueError, {"TVMFFIFunctionSetGlobal: name is empty"})
        .ToReturnCode();
  }
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(f);
  if (obj->type_index != kTVMFFIFunction) {
    return RaiseError(ErrorKind::kTypeError, {"TVMFFIFunctionSetGlobal: expected Function, got ",
                                              TypeIndexName(obj->type_index)})
        .ToReturnCode();
  }
  Function fn(ObjectPtr<FunctionObj>::Retain(reinterpret_cast<FunctionObj*>(obj)));
  return ToCode(RegisterGlobalFunction(name->data, name->size, fn, allow_override != 0));
}

int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out) {
  if (any_view == nullptr) return NullArgument("TVMFFIAnyViewToOwnedAny", "any_view");
  if (out == nullptr) return NullArgument("TVMFFIAnyViewToOwnedAny", "out");
  // The same invariants as the call path: an owned copy must not launder a
  // value that TVMFFIFunctionCall would refuse.
  if (FFI_CORE_CHECK_PADDING && !CheckAnyInvariants(*any_view, -1).ok()) return -1;
  Expected<Any> owned = Any::FromView(AnyView::FromRaw(*any_view));
  if (!owned.ok()) return -1;
  *out = std::move(owned).value().ReleaseRaw();
  return 0;
}

int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  // One branch per condition, each falling through when the call is good:
  // fewer instructions than folding them into one test.
  if (__builtin_expect(func == nullptr, 0) || __builtin_expect(result == nullptr, 0) ||
      __builtin_expect(static_cast<TVMFFIObject*>(func)->type_index != kTVMFFIFunction, 0) ||
      __builtin_expect(num_args < 0, 0) || __builtin_expect(args == nullptr && num_args != 0, 0)) {
    return RefuseCall(func, args, num_args, result);
  }
  if (FFI_CORE_CHECK_PADDING &&
      (result->type_index != kTVMFFINone || !ArgumentsLookClean(args, num_args))) {
    return CheckThenCall(func, args, num_args, result);
  }
  return TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
}

void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  if (result == nullptr) return;
  // The slot's reference passes to the caller.
  ErrorSlot* slot = port::CurrentErrorSlot();
  *result = slot->pending;
  slot->pending = nullptr;
}

void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  ErrorSlot* slot = port::CurrentErrorSlot();
  TVMFFIObject* old = slot->pending;
  if (error != nullptr) ObjectIncRef(static_cast<TVMFFIObject*>(error));
  slot->pending = static_cast<TVMFFIObject*>(error);
  if (old != nullptr) ObjectDecRef(old);
}

void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  RaiseErrorNamed(kind, &message, 1);
}

void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                       int32_t num_parts) {
  if (message_parts == nullptr || num_parts < 0) num_parts = 0;
  RaiseErrorNamed(kind, message_parts, static_cast<size_t>(num_parts));
}

int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                      const TVMFFIByteArray* /*backtrace: ffi-core keeps none*/,
                      TVMFFIObjectHandle* out) {
  if (kind == nullptr || message == nullptr || out == nullptr) return -1;
  // Runs inside error handling: must leave the slot as it was on failure.
  ErrorSlot* slot = port::CurrentErrorSlot();
  TVMFFIObject* saved = slot->pending;
  slot->pending = nullptr;
  Expected<Error> e = Error::Create(*kind, *message);
  TVMFFIObject* raised = slot->pending;
  slot->pending = saved;
  if (raised != nullptr) ObjectDecRef(raised);
  if (!e.ok()) return -1;
  ObjectPtr<ErrorObj> obj = e.value().object();
  *out = obj.release();
  return 0;
}

int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  return ByteSequenceFromByteArray("TVMFFIStringFromByteArray", input, out, kTVMFFISmallStr,
                                   kTVMFFIStr);
}

int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  return ByteSequenceFromByteArray("TVMFFIBytesFromByteArray", input, out, kTVMFFISmallBytes,
                                   kTVMFFIBytes);
}

int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  if (str == nullptr) return NullArgument("TVMFFIDataTypeFromString", "str");
  if (out == nullptr) return NullArgument("TVMFFIDataTypeFromString", "out");
  return ToCode(DataTypeFromString(str->data, str->size, out));
}

int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  if (dtype == nullptr) return NullArgument("TVMFFIDataTypeToString", "dtype");
  if (out == nullptr) return NullArgument("TVMFFIDataTypeToString", "out");
  char buf[kDataTypeNameCapacity];
  size_t size = 0;
  if (!DataTypeToString(*dtype, buf, &size).ok()) return -1;
  TVMFFIByteArray bytes{buf, size};
  return TVMFFIStringFromByteArray(&bytes, out);
}

int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  if (handle_addr == nullptr) return NullArgument("TVMFFIHandleInitOnce", "handle_addr");
  if (init_func == nullptr) return NullArgument("TVMFFIHandleInitOnce", "init_func");
  // The global lock nests, so init_func may look functions up meanwhile.
  detail::GlobalLockGuard lock;
  if (*handle_addr != nullptr) return 0;
  void* result = nullptr;
  const int rc = init_func(&result);
  if (rc == 0) *handle_addr = result;
  return rc;
}

int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  if (handle_addr == nullptr) return NullArgument("TVMFFIHandleDeinitOnce", "handle_addr");
  if (deinit_func == nullptr) return NullArgument("TVMFFIHandleDeinitOnce", "deinit_func");
  detail::GlobalLockGuard lock;
  if (*handle_addr == nullptr) return 0;
  const int rc = deinit_func(*handle_addr);
  if (rc == 0) *handle_addr = nullptr;
  return rc;
}

}  // extern "C"
