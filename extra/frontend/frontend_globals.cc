// Globals that upstream's Python package (apache-tvm-ffi) looks up while it
// imports, so it can run on libffi_core.so. Host only: linked into the
// shared runtime, never into firmware.
#include <ffi_core/container/array.h>
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/module.h>
#include <ffi_core/object.h>
#include <ffi_core/port.h>
#include <ffi_core/registry.h>
#include <ffi_core/string.h>
#include <ffi_core/type_table.h>

#include <cstring>
#include <utility>

#include "dataclass/access_path.h"
#include "dataclass/any_key_attrs.h"
#include "dataclass/enum_state.h"
#include "dataclass/py_class.h"
#include "dataclass/type_convert.h"
#include "dataclass_globals.h"
#include "function/builtin_globals.h"
#include "modules/module_queries.h"
#include "scratch.h"
#include "support/global_lock_guard.h"

namespace ffi_core {
namespace {

// A sentinel the frontend compares by identity: a plain ffi.Object that
// lives as long as the process (its first reference is never dropped, so no
// deleter is needed). The other, ffi.GetInvalidObject, is the containers'
// MissingObject.
TVMFFIObject g_kwargs = {kRefCountBothOne, kTVMFFIObject, 0, {nullptr}};

Status Sentinel(TVMFFIObject* obj, Any* rv) {
  TVMFFIAny raw = NoneAny();
  raw.type_index = kTVMFFIObject;
  raw.v_obj = obj;
  ObjectIncRef(obj);
  *rv = Any::AdoptRaw(raw);
  return Status::Ok();
}

// functor(-1) is the number of global functions, functor(i) the i-th name.
Status ListGlobalNames(PackedArgs, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Function functor, Function::FromPacked([](PackedArgs args, Any* out) {
                              FFI_CORE_ASSIGN_OR_RETURN(int64_t i, args[0].As<int64_t>());
                              if (i < 0) {
                                *out = Any(static_cast<int64_t>(GlobalFunctionCount()));
                                return Status::Ok();
                              }
                              FFI_CORE_ASSIGN_OR_RETURN(String name,
                                                        GlobalFunctionName(static_cast<size_t>(i)));
                              *out = Any(name);
                              return Status::Ok();
                            }));
  *rv = Any(functor);
  return Status::Ok();
}

// Modules load_module keeps loaded for the rest of the process (its
// keep_module_alive), so functions taken from them stay callable.
TVMFFIObject* g_kept_modules[256];

Status KeepModule(PackedArgs args, Any*) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m, args[0].As<Module>());
  detail::GlobalLockGuard lock;
  for (TVMFFIObject*& slot : g_kept_modules) {
    if (slot == m.object().header()) return Status::Ok();
  }
  for (TVMFFIObject*& slot : g_kept_modules) {
    if (slot == nullptr) {
      slot = m.object().header();
      ObjectIncRef(slot);
      return Status::Ok();
    }
  }
  return RaiseError(ErrorKind::kMemoryError, {"ffi.ModuleGlobalsAdd: too many modules kept"});
}

Status ReleaseModule(PackedArgs args, Any*) {
  FFI_CORE_ASSIGN_OR_RETURN(Module m, args[0].As<Module>());
  TVMFFIObject* released = nullptr;
  {
    detail::GlobalLockGuard lock;
    for (TVMFFIObject*& slot : g_kept_modules) {
      if (slot == m.object().header()) std::swap(slot, released);
    }
  }
  if (released != nullptr) ObjectDecRef(released);
  return Status::Ok();
}

// ffi.FunctionRemoveGlobal(name): whether there was such a function.
Status RemoveGlobal(PackedArgs args, Any* rv) {
  if (args.size() != 1) {
    return RaiseError(ErrorKind::kTypeError, {"ffi.FunctionRemoveGlobal(name): 1 argument"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(String name, args[0].As<String>());
  *rv = Any(RemoveGlobalFunction(name.data(), name.size()));
  return Status::Ok();
}

// "ffi.String"(s) and "ffi.Bytes"(b): the argument as that object type.
template <typename T>
Status Identity(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.String/ffi.Bytes", 1, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(T value, args[0].As<T>());
  *rv = Any(value);
  return Status::Ok();
}

// ffi.GetGlobalFuncMetadata(name): the JSON the function was registered with,
// empty when none; as upstream, a name with no function is an error.
Status GetGlobalFuncMetadata(PackedArgs args, Any* rv) {
  if (args.size() != 1) {
    return RaiseError(ErrorKind::kTypeError, {"ffi.GetGlobalFuncMetadata(name): 1 argument"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(String name, args[0].As<String>());
  FFI_CORE_ASSIGN_OR_RETURN(Function f, GetGlobalFunction(name.data(), name.size()));
  if (!f) {
    return RaiseError(ErrorKind::kRuntimeError, {"Global Function is not found: ", name.data()});
  }
  FFI_CORE_ASSIGN_OR_RETURN(String metadata, GlobalFunctionMetadata(name.data(), name.size()));
  *rv = Any(metadata);
  return Status::Ok();
}

// ffi.GetRegisteredTypeKeys(): every registered type's key, as an Array.
// Keys are NUL-terminated (literals or the registry's copies), so each is
// viewed as a C string and copied into the Array as a String.
Status GetRegisteredTypeKeys(PackedArgs, Any* rv) {
  size_t count = 0;
  while (RegisteredTypeInfo(count) != nullptr) ++count;
  FFI_CORE_ASSIGN_OR_RETURN(frontend::Scratch<AnyView> views,
                            frontend::Scratch<AnyView>::Make(count, "ffi.GetRegisteredTypeKeys"));
  for (size_t i = 0; i < count; ++i) {
    TVMFFIAny raw = NoneAny();
    raw.type_index = kTVMFFIRawStr;
    raw.v_c_str = RegisteredTypeInfo(i)->type_key.data;
    views[i] = AnyView::FromRaw(raw);
  }
  FFI_CORE_ASSIGN_OR_RETURN(Array keys, Array::FromViews(views.data(), count));
  *rv = Any(keys);
  return Status::Ok();
}

// ffi.FunctionFromExternC(self, safe_call, deleter): a Function over a C
// callback, as TVMFFIFunctionCreate makes it.
Status FunctionFromExternC(PackedArgs args, Any* rv) {
  if (args.size() != 3) {
    return RaiseError(ErrorKind::kTypeError,
                      {"ffi.FunctionFromExternC(self, safe_call, deleter): 3 arguments"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(void* self, args[0].As<void*>());
  FFI_CORE_ASSIGN_OR_RETURN(void* safe_call, args[1].As<void*>());
  FFI_CORE_ASSIGN_OR_RETURN(void* deleter, args[2].As<void*>());
  if (safe_call == nullptr) {
    return RaiseError(ErrorKind::kValueError, {"ffi.FunctionFromExternC: safe_call is NULL"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(
      Function f, Function::FromExternC(self, reinterpret_cast<TVMFFISafeCallType>(safe_call),
                                        reinterpret_cast<void (*)(void*)>(deleter)));
  *rv = Any(f);
  return Status::Ok();
}

struct Global {
  const char* name;
  Status (*fn)(PackedArgs, Any*);
};
constexpr Global kGlobals[] = {
    {"ffi.GetInvalidObject",
     [](PackedArgs, Any* rv) {
       *rv = MissingObject();
       return Status::Ok();
     }},
    {"ffi.GetKwargsObject", [](PackedArgs, Any* rv) { return Sentinel(&g_kwargs, rv); }},
    {"ffi.String", &Identity<String>},
    {"ffi.Bytes", &Identity<Bytes>},
    {"ffi.FunctionListGlobalNamesFunctor", &ListGlobalNames},
    {"ffi.FunctionRemoveGlobal", &RemoveGlobal},
    {"ffi.GetGlobalFuncMetadata", &GetGlobalFuncMetadata},
    {"ffi.GetRegisteredTypeKeys", &GetRegisteredTypeKeys},
    {"ffi.FunctionFromExternC", &FunctionFromExternC},
    {"ffi.ModuleGlobalsAdd", &KeepModule},
    {"ffi.ModuleGlobalsRemove", &ReleaseModule},
};

// ffi-core makes these on demand; the package binds only names that its
// listing returns, so they are put in the table, and so are the container
// globals (libffi_core.so carries them).
constexpr const char* kListedBuiltins[] = {
    "ffi.ModuleLoadFromFile",
    "ffi.ModuleGetFunction",
    "ffi.SystemLib",
    "ffi.Module.load_from_file.so",
};

// Object types of upstream's runtime library that the package wraps in
// classes while it imports. ffi-core registers their keys (child, parent) so
// the import succeeds; it never makes objects of them.
struct LibraryType {
  const char* key;
  const char* parent;
};
constexpr LibraryType kLibraryTypes[] = {
    {"ffi.StructuralVisitor", "ffi.Object"},
    {"ffi.StructuralMutator", "ffi.Object"},
};

Status RegisterLibraryType(const LibraryType& t) {
  const int32_t parent = FindTypeIndex(TVMFFIByteArray{t.parent, std::strlen(t.parent)});
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(parent);
  if (info == nullptr) {
    return RaiseError(ErrorKind::kKeyError, {"parent type ", t.parent, " is not registered"});
  }
  return GetOrAllocTypeIndex(TVMFFIByteArray{t.key, std::strlen(t.key)}, -1, info->type_depth + 1,
                             0, true, parent)
      .status();
}

// Whether a type may be subclassed (__ffi_type_final__), published for the
// runtime's own types as upstream's ObjectDef publishes it, with the wheel's
// values; a type not registered (yet) is left out.
struct TypeFinal {
  const char* key;
  bool final;
};
constexpr TypeFinal kTypeFinals[] = {
    {"ffi.Module", true},
    {"ffi.BigInt", true},
    {"ffi.EnumState", true},
    {"ffi.Enum", false},
    {"ffi.IntEnum", false},
    {"ffi.StrEnum", false},
    {"ffi.reflection.AccessStep", true},
    {"ffi.reflection.AccessPath", true},
    {"ffi.StructuralVisitor", false},
    {"ffi.StructuralMutator", false},
    {"ffi.StructuralKey", true},
};

Status PublishTypeFinal(const TypeFinal& t) {
  const int32_t index = FindTypeIndex(TVMFFIByteArray{t.key, std::strlen(t.key)});
  if (index < 0) return Status::Ok();
  static constexpr char kAttr[] = "__ffi_type_final__";
  const TVMFFIByteArray attr{kAttr, sizeof(kAttr) - 1};
  const Any value(t.final);
  if (TVMFFITypeRegisterAttr(index, &attr, &value.raw()) != 0) return StatusFromPendingError();
  return Status::Ok();
}

Status Register(const char* name, Expected<Function> f) {
  if (!f.ok()) return f.status();
  return RegisterGlobalFunction(name, std::strlen(name), *f, false);
}

void Report(const char* name) {
  Error e = Error::MoveFromRaised();
  port::Log(e ? e.message().data : name);
}

// Registered when the runtime is loaded; a failure is reported on stderr by
// the host port's log hook, since no caller is there to take it. The
// priority runs it before every constructor without one, whatever the link
// order: extra/cxx_api's registrations wrap the globals registered here.
// (Core's state is constant-initialized, so nothing of it waits on a
// constructor.)
__attribute__((constructor(200))) void RegisterFrontendGlobals() {
  if (!frontend::InstallAnyKeyAttrs().ok()) Report("__any_hash__ and __any_equal__");
  for (const LibraryType& t : kLibraryTypes) {
    if (!RegisterLibraryType(t).ok()) Report(t.key);
  }
  for (const Global& g : kGlobals) {
    if (!Register(g.name, Function::FromPacked(g.fn)).ok()) Report(g.name);
  }
  for (const char* name : kListedBuiltins) {
    if (!Register(name, GetGlobalFunction(name, std::strlen(name))).ok()) Report(name);
  }
  for (size_t i = 0; const char* name = ffi_core_container_global_name(i); ++i) {
    if (!Register(name, GetGlobalFunction(name, std::strlen(name))).ok()) Report(name);
  }
  if (!frontend::RegisterModuleQueries().ok()) Report("ffi.Module* queries");
  if (!frontend::RegisterPyClassGlobals(&g_kwargs).ok()) Report("Python-defined types' globals");
  if (!frontend::RegisterEnumState().ok()) Report("ffi.EnumState");
  if (!frontend::RegisterAccessPath().ok()) Report("ffi.reflection.AccessPath");
  if (!frontend::RegisterConvertAttrs().ok()) Report("__ffi_convert__ of core types");
  if (!frontend::RegisterReprPrint(&g_kwargs).ok()) Report("ffi.ReprPrint");
  if (!frontend::RegisterRecursiveCompare().ok()) Report("ffi.Recursive* comparisons");
  if (!frontend::RegisterRecursiveHash().ok()) Report("ffi.RecursiveHash");
  if (!frontend::RegisterDeepCopy().ok()) Report("ffi.DeepCopy");
  if (!frontend::RegisterJsonGraph().ok()) Report("ffi.*JSONGraph*");
  if (!frontend::RegisterStructuralEqual().ok()) Report("ffi.StructuralEqual");
  if (!frontend::RegisterStructuralHash().ok()) Report("ffi.StructuralHash");
  if (!frontend::RegisterStructuralKey().ok()) Report("ffi.StructuralKey");
  for (const TypeFinal& t : kTypeFinals) {
    if (!PublishTypeFinal(t).ok()) Report(t.key);
  }
}

}  // namespace
}  // namespace ffi_core
