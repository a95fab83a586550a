// C entry points: objects (reference counts, opaque objects, owned copies of
// values, allocators, one-time handles) and the version.
#include <ffi_core/allocator.h>
#include <ffi_core/any.h>
#include <ffi_core/padding_check.h>
#include <tvm/ffi/c_api.h>

#include "c_api/c_boundary.h"
#include "support/global_lock_guard.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary
using c_boundary::Fail;
using c_boundary::NullArgument;

namespace {

// An opaque object wrapping a foreign handle.
struct OpaqueObj {
  TVMFFIObject header;
  TVMFFIOpaqueObjectCell cell;
  void (*deleter)(void*);
  ~OpaqueObj() {
    if (deleter != nullptr) deleter(cell.handle);
  }
};

}  // namespace

extern "C" {

void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == nullptr) return;
  *out_version = TVMFFIVersion{TVM_FFI_VERSION_MAJOR, TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH};
}

// The good handle is tested first: Thumb-1 then lays the counting path
// out ahead of the refusal and returns from it with its own pop.
int TVMFFIObjectIncRef(TVMFFIObjectHandle obj) {
  if (obj != nullptr) {
    ObjectIncRef(static_cast<TVMFFIObject*>(obj));
    return 0;
  }
  return NullArgument("TVMFFIObjectIncRef", "obj");
}

int TVMFFIObjectDecRef(TVMFFIObjectHandle obj) {
  if (obj != nullptr) {
    ObjectDecRefInline(static_cast<TVMFFIObject*>(obj));
    return 0;
  }
  return NullArgument("TVMFFIObjectDecRef", "obj");
}

int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index, void (*deleter)(void* handle),
                             TVMFFIObjectHandle* out) {
  if (out == nullptr) return NullArgument("TVMFFIObjectCreateOpaque", "out");
  // An opaque type only (upstream takes kTVMFFIOpaquePyObject alone; ffi-core
  // also dynamic types): under a built-in index (Function, Tensor, ...) the
  // handle would be read as that type's payload.
  if (type_index != kTVMFFIOpaquePyObject && type_index < kTVMFFIDynObjectBegin) {
    return c_boundary::Fail(ErrorKind::kValueError,
                            {"TVMFFIObjectCreateOpaque: type index ", type_index,
                             " is not an opaque object type index"});
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

int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  if (handle_addr == nullptr) return NullArgument("TVMFFIHandleInitOnce", "handle_addr");
  if (init_func == nullptr) return NullArgument("TVMFFIHandleInitOnce", "init_func");
  // Generated code asks on every call: a set handle needs no lock.
  if (port::LoadHandle(handle_addr) != nullptr) return 0;
  // The global lock nests, so init_func may look functions up meanwhile.
  detail::GlobalLockGuard lock;
  if (*handle_addr != nullptr) return 0;
  void* result = nullptr;
  const int rc = init_func(&result);
  if (rc != 0) return rc;
  // A NULL handle would read as "not yet set": refused, as upstream does.
  if (result == nullptr) {
    return Fail(ErrorKind::kRuntimeError, {"init_func must return a non-NULL handle"});
  }
  port::PublishHandle(handle_addr, result);
  return 0;
}

int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  if (handle_addr == nullptr) return NullArgument("TVMFFIHandleDeinitOnce", "handle_addr");
  if (deinit_func == nullptr) return NullArgument("TVMFFIHandleDeinitOnce", "deinit_func");
  detail::GlobalLockGuard lock;
  void* handle = *handle_addr;
  if (handle == nullptr) return 0;
  // Cleared before deinit_func runs, and whatever it returns, as upstream
  // does: a failed deinit is not retried.
  port::PublishHandle(handle_addr, nullptr);
  return deinit_func(handle);
}

}  // extern "C"
