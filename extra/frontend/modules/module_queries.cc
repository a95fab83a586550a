#include "modules/module_queries.h"

#include <ffi_core/container/array.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/module.h>
#include <ffi_core/port.h>
#include <ffi_core/string.h>

#include <cstring>
#include <utility>

#include "global_table.h"
#include "support/global_lock_guard.h"

namespace ffi_core {
namespace frontend {
namespace {

// Upstream's property bits: binary-serializable and runnable; a library
// module is both.
constexpr int64_t kLibraryPropertyMask = 0b011;
// Imports nest this deep at most (ImportModule refuses cycles; this bounds
// a tree that embedded modules built without it).
constexpr int kMaxImportDepth = 64;

// A library module's own symbol `prefix` + `name`, or NULL (the system
// library and modules of code have no symbols of their own to look at).
void* OwnSymbol(const ModuleObj* m, const char* prefix, const String& name) {
  if (m->library == nullptr) return nullptr;
  char symbol[32 + kMaxSymbolName];
  const size_t p = std::strlen(prefix);
  if (name.size() > kMaxSymbolName) return nullptr;
  std::memcpy(symbol, prefix, p);
  std::memcpy(symbol + p, name.data(), name.size());
  symbol[p + name.size()] = '\0';
  return port::LibrarySymbol(m->library, symbol);
}

Module ImportAt(const ModuleObj* m, size_t i) {
  return Module(ObjectPtr<ModuleObj>::Retain(reinterpret_cast<ModuleObj*>(m->imports[i])));
}

Status TooDeep() {
  return RaiseError(ErrorKind::kRuntimeError,
                    {"module imports nest deeper than ", kMaxImportDepth});
}

// Whether `m` itself (not its imports, unless asked) has the function.
Expected<bool> Implements(const Module& m, const String& name, bool query_imports, int depth) {
  if (depth > kMaxImportDepth) return TooDeep();
  const ModuleObj* obj = m.object().get();
  bool own = false;
  if (obj->library != nullptr) {
    own = OwnSymbol(obj, kSymbolPrefix, name) != nullptr;
  } else if (obj->kind != nullptr) {
    FFI_CORE_ASSIGN_OR_RETURN(
        Function f, obj->kind->get_function(const_cast<ModuleObj*>(obj), name.data(), name.size()));
    own = static_cast<bool>(f);
  } else {
    FFI_CORE_ASSIGN_OR_RETURN(Function f, m.GetFunction(name.data(), name.size()));
    own = static_cast<bool>(f);
  }
  if (own || !query_imports) return own;
  for (size_t i = 0; i < FFI_CORE_MODULE_IMPORT_CAPACITY; ++i) {
    if (obj->imports[i] == nullptr) continue;
    FFI_CORE_ASSIGN_OR_RETURN(bool found, Implements(ImportAt(obj, i), name, true, depth + 1));
    if (found) return true;
  }
  return false;
}

// The string a library's `<prefix><name>` getter returns (upstream's
// __tvm_ffi__metadata_ and __tvm_ffi__doc_ symbols), or None.
Status ExportedString(const Module& m, const char* prefix, const String& name, bool query_imports,
                      int depth, Any* rv) {
  if (depth > kMaxImportDepth) return TooDeep();
  const ModuleObj* obj = m.object().get();
  if (void* getter = OwnSymbol(obj, prefix, name)) {
    TVMFFIAny out = NoneAny();
    if (reinterpret_cast<TVMFFISafeCallType>(getter)(nullptr, nullptr, 0, &out) != 0) {
      return StatusFromPendingError();
    }
    Any value = Any::AdoptRaw(out);
    FFI_CORE_ASSIGN_OR_RETURN(String text, AnyView(value).As<String>());
    *rv = Any(text);
    return Status::Ok();
  }
  if (query_imports) {
    for (size_t i = 0; i < FFI_CORE_MODULE_IMPORT_CAPACITY; ++i) {
      if (obj->imports[i] == nullptr) continue;
      FFI_CORE_RETURN_IF_ERROR(ExportedString(ImportAt(obj, i), prefix, name, true, depth + 1, rv));
      if (rv->type_index() != kTVMFFINone) return Status::Ok();
    }
  }
  *rv = Any();
  return Status::Ok();
}

Status CheckArity(PackedArgs args, int32_t n, const char* signature) {
  if (args.size() == n) return Status::Ok();
  return RaiseError(ErrorKind::kTypeError, {signature, ": expected ", n, " arguments, got ",
                                            static_cast<int64_t>(args.size())});
}

// (module, name, query_imports) of the three name queries.
struct NameQuery {
  Module module;
  String name;
  bool query_imports;
};
Expected<NameQuery> ReadNameQuery(PackedArgs args, const char* signature) {
  FFI_CORE_RETURN_IF_ERROR(CheckArity(args, 3, signature));
  NameQuery q;
  FFI_CORE_ASSIGN_OR_RETURN(q.module, args[0].As<Module>());
  FFI_CORE_ASSIGN_OR_RETURN(q.name, args[1].As<String>());
  FFI_CORE_ASSIGN_OR_RETURN(q.query_imports, args[2].As<bool>());
  if (!q.module) return RaiseError(ErrorKind::kValueError, {signature, ": module is None"});
  return q;
}

Expected<Module> ReadModule(PackedArgs args, int32_t arity, const char* signature) {
  FFI_CORE_RETURN_IF_ERROR(CheckArity(args, arity, signature));
  FFI_CORE_ASSIGN_OR_RETURN(Module m, args[0].As<Module>());
  if (!m) return RaiseError(ErrorKind::kValueError, {signature, ": module is None"});
  return m;
}

const char* KindName(const ModuleObj* m) {
  if (m->kind == nullptr) return "library";
  return m->kind->name != nullptr ? m->kind->name : "unnamed";
}

Status ImplementsFunction(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(
      NameQuery q, ReadNameQuery(args, "ffi.ModuleImplementsFunction(module, name, imports)"));
  FFI_CORE_ASSIGN_OR_RETURN(bool found, Implements(q.module, q.name, q.query_imports, 0));
  *rv = Any(found);
  return Status::Ok();
}

Status GetFunctionMetadata(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(
      NameQuery q, ReadNameQuery(args, "ffi.ModuleGetFunctionMetadata(module, name, imports)"));
  return ExportedString(q.module, "__tvm_ffi__metadata_", q.name, q.query_imports, 0, rv);
}

Status GetFunctionDoc(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(NameQuery q,
                            ReadNameQuery(args, "ffi.ModuleGetFunctionDoc(module, name, imports)"));
  return ExportedString(q.module, "__tvm_ffi__doc_", q.name, q.query_imports, 0, rv);
}

Status GetKind(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m, ReadModule(args, 1, "ffi.ModuleGetKind(module)"));
  FFI_CORE_ASSIGN_OR_RETURN(String kind, String::FromCStr(KindName(m.object().get())));
  *rv = Any(kind);
  return Status::Ok();
}

Status GetPropertyMask(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m, ReadModule(args, 1, "ffi.ModuleGetPropertyMask(module)"));
  // Modules of code (a Relax executable) are upstream's default: no property.
  *rv = Any(m.object()->kind == nullptr ? kLibraryPropertyMask : int64_t{0});
  return Status::Ok();
}

// True when `target` is `m` or among what `m` imports, at any depth.
Expected<bool> Reaches(const ModuleObj* m, const ModuleObj* target, int depth) {
  if (m == target) return true;
  if (depth > kMaxImportDepth) return TooDeep();
  for (TVMFFIObject* imported : m->imports) {
    if (imported == nullptr) continue;
    FFI_CORE_ASSIGN_OR_RETURN(
        bool found, Reaches(reinterpret_cast<const ModuleObj*>(imported), target, depth + 1));
    if (found) return true;
  }
  return false;
}

Status ImportModule(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m, ReadModule(args, 2, "ffi.ModuleImportModule(module, other)"));
  FFI_CORE_ASSIGN_OR_RETURN(Module other, args[1].As<Module>());
  if (!other) return RaiseError(ErrorKind::kValueError, {"ffi.ModuleImportModule: other is None"});
  FFI_CORE_ASSIGN_OR_RETURN(bool cycle, Reaches(other.object().get(), m.object().get(), 0));
  if (cycle) {
    return RaiseError(ErrorKind::kRuntimeError,
                      {"ffi.ModuleImportModule: importing the module would make a cycle"});
  }
  FFI_CORE_RETURN_IF_ERROR(m.Import(other));
  *rv = Any();
  return Status::Ok();
}

Status ClearImports(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m, ReadModule(args, 1, "ffi.ModuleClearImports(module)"));
  TVMFFIObject* released[FFI_CORE_MODULE_IMPORT_CAPACITY] = {};
  {
    detail::GlobalLockGuard lock;
    for (size_t i = 0; i < FFI_CORE_MODULE_IMPORT_CAPACITY; ++i) {
      std::swap(released[i], m.object()->imports[i]);
    }
  }
  // Released outside the lock: a last reference runs a module's destructor.
  for (TVMFFIObject* obj : released) {
    if (obj != nullptr) ObjectDecRef(obj);
  }
  *rv = Any();
  return Status::Ok();
}

Status InspectSource(PackedArgs args, Any*) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m,
                            ReadModule(args, 2, "ffi.ModuleInspectSource(module, format)"));
  return RaiseError(ErrorKind::kRuntimeError,
                    {"Module[", KindName(m.object().get()),
                     "] has no source to inspect: ffi-core keeps none of a loaded module's"});
}

Status WriteToFile(PackedArgs args, Any*) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m,
                            ReadModule(args, 3, "ffi.ModuleWriteToFile(module, path, format)"));
  return RaiseError(ErrorKind::kRuntimeError,
                    {"Module[", KindName(m.object().get()),
                     "] does not support WriteToFile: ffi-core loads modules, it does not write "
                     "them"});
}

// Upstream's one field of ffi.Module, `imports_`, read for either layout. A
// tvm::ffi::ModuleObj made in C++ keeps its imports in an Array<Any>, its
// first member after the header (core_module.h), where the field is
// registered as upstream's; ffi-core's own modules in their import slots,
// which become a new Array. The getter is handed the field's address either
// way, the header's plus that offset.
Expected<Any> Imports(TVMFFIObject* obj) {
  if (!IsCoreModule(obj)) {
    TVMFFIAny raw = NoneAny();
    std::memcpy(&raw.v_obj, reinterpret_cast<char*>(obj) + sizeof(TVMFFIObject), sizeof(raw.v_obj));
    if (raw.v_obj != nullptr) raw.type_index = kTVMFFIArray;
    return Any::FromView(AnyView::FromRaw(raw));
  }
  Module held[FFI_CORE_MODULE_IMPORT_CAPACITY];
  AnyView views[FFI_CORE_MODULE_IMPORT_CAPACITY];
  size_t n = 0;
  const ModuleObj* m = reinterpret_cast<const ModuleObj*>(obj);
  {
    detail::GlobalLockGuard lock;
    for (size_t i = 0; i < FFI_CORE_MODULE_IMPORT_CAPACITY; ++i) {
      if (m->imports[i] != nullptr) held[n++] = ImportAt(m, i);
    }
  }
  for (size_t i = 0; i < n; ++i) views[i] = AnyView(held[i]);
  FFI_CORE_ASSIGN_OR_RETURN(Array array, Array::FromViews(views, n));
  return Any(array);
}

int ImportsGetter(void* field, TVMFFIAny* result) {
  Expected<Any> imports =
      Imports(reinterpret_cast<TVMFFIObject*>(static_cast<char*>(field) - sizeof(TVMFFIObject)));
  if (!imports.ok()) return -1;
  *result = std::move(imports).value().ReleaseRaw();
  return 0;
}

Status RegisterImportsField() {
  TVMFFIFieldInfo info{};
  constexpr char kName[] = "imports_";
  info.name = TVMFFIByteArray{kName, sizeof(kName) - 1};
  // Typed as upstream's field (its stub generator reads a schema from every field).
  constexpr char kMetadata[] =
      R"({"type_schema":"{\"type\":\"ffi.Array\",\"args\":[{\"type\":\"Any\"}]}"})";
  info.metadata = TVMFFIByteArray{kMetadata, sizeof(kMetadata) - 1};
  info.size = sizeof(void*);
  info.alignment = alignof(void*);
  info.offset = sizeof(TVMFFIObject);
  info.getter = &ImportsGetter;
  info.default_value_or_factory = NoneAny();
  info.field_static_type_index = kTVMFFIArray;
  if (TVMFFITypeRegisterField(kTVMFFIModule, &info) != 0) return Status(ErrorKind::kRuntimeError);
  return Status::Ok();
}

constexpr GlobalEntry kQueries[] = {
    {"ffi.ModuleImplementsFunction", &ImplementsFunction},
    {"ffi.ModuleGetFunctionMetadata", &GetFunctionMetadata},
    {"ffi.ModuleGetFunctionDoc", &GetFunctionDoc},
    {"ffi.ModuleGetKind", &GetKind},
    {"ffi.ModuleGetPropertyMask", &GetPropertyMask},
    {"ffi.ModuleImportModule", &ImportModule},
    {"ffi.ModuleClearImports", &ClearImports},
    {"ffi.ModuleInspectSource", &InspectSource},
    {"ffi.ModuleWriteToFile", &WriteToFile},
};

}  // namespace

Status RegisterModuleQueries() {
  FFI_CORE_RETURN_IF_ERROR(RegisterGlobalTable(kQueries));
  return RegisterImportsField();
}

}  // namespace frontend
}  // namespace ffi_core
