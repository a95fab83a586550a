// The metadata (a JSON text: type schema and attributes) of global functions
// registered through TVMFFIFunctionSetGlobalFromMethodInfo, as upstream's
// ffi.GetGlobalFuncMetadata reads it back. Kept apart from the function
// table: only functions registered with metadata take memory here, and a
// firmware that never registers one links none of it (the table tells this
// file through a weak hook when a name's function goes).
#include "function/global_metadata.h"

#include <ffi_core/any.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/registry.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/string.h>
#include <tvm/ffi/c_api.h>

#include "c_api/c_boundary.h"
#include "support/global_lock_guard.h"

namespace ffi_core {
namespace {

// One function's metadata; an object so its release runs the members'
// destructors through the allocator it came from.
struct MetadataNode {
  TVMFFIObject header;
  MetadataNode* next;
  String name;
  String metadata;
};

MetadataNode* g_nodes;

// The link that points at `name`'s node, or at the list's end. Under the lock.
MetadataNode** Find(const char* name, size_t size) {
  MetadataNode** link = &g_nodes;
  while (*link != nullptr && !SameBytes((*link)->name.data(), (*link)->name.size(), name, size)) {
    link = &(*link)->next;
  }
  return link;
}

// Unlinks `name`'s node; the caller releases it outside the lock.
MetadataNode* Unlink(const char* name, size_t size) {
  detail::GlobalLockGuard lock;
  MetadataNode** link = Find(name, size);
  MetadataNode* node = *link;
  if (node != nullptr) *link = node->next;
  return node;
}

void Release(MetadataNode* node) {
  if (node != nullptr) ObjectDecRef(&node->header);
}

// A node for `name`, not yet in the list: made before the function is
// registered, so running out of memory leaves nothing half done.
Expected<MetadataNode*> NewNode(const TVMFFIByteArray& name, const TVMFFIByteArray& metadata) {
  FFI_CORE_ASSIGN_OR_RETURN(String owned_name, String::FromBytes(name.data, name.size));
  FFI_CORE_ASSIGN_OR_RETURN(String owned_metadata, String::FromBytes(metadata.data, metadata.size));
  FFI_CORE_ASSIGN_OR_RETURN(MetadataNode * node, NewObject<MetadataNode>(kTVMFFIObject, 0));
  node->name = std::move(owned_name);
  node->metadata = std::move(owned_metadata);
  return node;
}

// Puts `node` in the list, in place of a node of the same name.
void Insert(MetadataNode* node) {
  MetadataNode* old = nullptr;
  {
    detail::GlobalLockGuard lock;
    MetadataNode** link = Find(node->name.data(), node->name.size());
    old = *link;
    node->next = old != nullptr ? old->next : nullptr;
    *link = node;
  }
  Release(old);
}

}  // namespace

Expected<String> GlobalFunctionMetadata(const char* name, size_t name_size) {
  detail::GlobalLockGuard lock;
  MetadataNode* node = *Find(name, name_size);
  return node != nullptr ? node->metadata : String();
}

}  // namespace ffi_core

using namespace ffi_core;  // NOLINT(build/namespaces): the C boundary

extern "C" {

void ffi_core_global_function_dropped(const char* name, size_t size) {
  Release(Unlink(name, size));
}

int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info, int allow_override) {
  if (method_info == nullptr)
    return c_boundary::NullArgument("TVMFFIFunctionSetGlobalFromMethodInfo", "method_info");
  if (method_info->method.type_index != kTVMFFIFunction) {
    return c_boundary::Fail(
        ErrorKind::kTypeError,
        {"TVMFFIFunctionSetGlobalFromMethodInfo: method is not a Function (type index ",
         method_info->method.type_index, ")"});
  }
  if (c_boundary::NullBytes(method_info->metadata)) {
    return c_boundary::NullArgument("TVMFFIFunctionSetGlobalFromMethodInfo",
                                    "method_info->metadata");
  }
  const TVMFFIByteArray& name = method_info->name;
  // A bad name is TVMFFIFunctionSetGlobal's to refuse.
  MetadataNode* node = nullptr;
  if (method_info->metadata.size != 0 && name.size != 0 && !c_boundary::NullBytes(name)) {
    Expected<MetadataNode*> made = NewNode(name, method_info->metadata);
    if (!made.ok()) return made.status().ToReturnCode();
    node = *made;
  }
  if (int rc = TVMFFIFunctionSetGlobal(&name, method_info->method.v_obj, allow_override)) {
    Release(node);
    return rc;
  }
  // Registering dropped any metadata the name had (the table's hook).
  if (node != nullptr) Insert(node);
  return 0;
}

}  // extern "C"
