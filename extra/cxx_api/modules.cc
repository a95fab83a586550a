// tvm::ffi::ModuleObj's out-of-line members and tvm::ffi::Module's static
// functions, as upstream's headers declare them (this file is built with the
// wheel's headers, so layout and vtable order are theirs). ImportModule is
// ModuleObj's key function: defining it here emits the class's vtable and
// typeinfo into libffi_core.so, as libtvm_ffi.so carries them.
//
// The ffi.Module* globals upstream's Python package calls are ffi-core's,
// which take ffi-core's own modules; a module made in C++ (Apache TVM's
// executables and compiled libraries) goes to its ModuleObj virtuals
// instead, as on upstream's runtime.
#include <ffi_core/context_symbols.h>
#include <ffi_core/core_module.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>

#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

// A module ffi-core's runtime loaded (its own object, not a ModuleObj),
// seen through upstream's ModuleObj: each virtual asks ffi-core's module
// globals about the module it holds.
class CoreModuleObj final : public ModuleObj {
 public:
  CoreModuleObj(ObjectRef core, std::string kind)
      : core_(std::move(core)), kind_(std::move(kind)) {}

  const char* kind() const final { return kind_.c_str(); }
  int GetPropertyMask() const final { return Ask("ffi.ModuleGetPropertyMask", core_).cast<int>(); }
  Optional<Function> GetFunction(const String& name) final {
    return Ask("ffi.ModuleGetFunction", core_, name, false).cast<Optional<Function>>();
  }
  bool ImplementsFunction(const String& name) final {
    return Ask("ffi.ModuleImplementsFunction", core_, name, false).cast<bool>();
  }
  Optional<String> GetFunctionDoc(const String& name) final {
    return Ask("ffi.ModuleGetFunctionDoc", core_, name, false).cast<Optional<String>>();
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    return Ask("ffi.ModuleGetFunctionMetadata", core_, name, false).cast<Optional<String>>();
  }
  String InspectSource(const String& format) const final {
    return Ask("ffi.ModuleInspectSource", core_, format).cast<String>();
  }
  void WriteToFile(const String& file_name, const String& format) const final {
    Ask("ffi.ModuleWriteToFile", core_, file_name, format);
  }

 private:
  template <typename... Args>
  static Any Ask(const char* global, Args&&... args) {
    return Function::GetGlobalRequired(global)(std::forward<Args>(args)...);
  }

  ObjectRef core_;
  std::string kind_;
};

// A module ffi-core did not make: one made in C++ with upstream's headers.
bool IsCxxModule(const AnyView& value) {
  return value.type_index() == TypeIndex::kTVMFFIModule &&
         !ffi_core::IsCoreModule(reinterpret_cast<const TVMFFIObject*>(value.as<Object>()));
}

// Any module as a C++ one: ffi-core's own seen through CoreModuleObj.
Module AsCxxModule(const AnyView& value) {
  if (IsCxxModule(value)) return value.cast<Module>();
  ObjectRef core = value.cast<ObjectRef>();
  String kind = Function::GetGlobalRequired("ffi.ModuleGetKind")(core).cast<String>();
  return Module(make_object<CoreModuleObj>(std::move(core), std::string(kind)));
}

// TVMFFIEnvModLookupFromImports for a C++ module (below).
int LookupFromCxxImports(void* library_ctx, const char* func_name, TVMFFIObjectHandle* out);

using CxxModuleCall = Any (*)(ModuleObj* module, PackedArgs args);

// Replaces the global `name` with one that hands a C++ module (its first
// argument) to `cxx` and anything else to the global it replaces, if any.
void RouteCxxModules(const char* name, CxxModuleCall cxx, CxxModuleCall otherwise = nullptr) {
  Optional<Function> core = Function::GetGlobal(name);
  Function::SetGlobal(name,
                      Function::FromPacked([name, core, cxx, otherwise](PackedArgs args, Any* rv) {
                        if (args.size() > 0 && IsCxxModule(args[0])) {
                          Module module = args[0].cast<Module>();
                          *rv = cxx(module.operator->(), args);
                        } else if (core.has_value()) {
                          core.value().CallPacked(args, rv);
                        } else if (otherwise != nullptr && args.size() > 0 &&
                                   args[0].type_index() == TypeIndex::kTVMFFIModule) {
                          *rv = otherwise(nullptr, args);
                        } else {
                          TVM_FFI_THROW(TypeError) << name << " takes a module";
                        }
                      }),
                      /*can_override=*/true);
}

// Registered when libffi_core.so loads, after ffi-core's module globals:
// extra/frontend registers its queries from a constructor of priority 200,
// which runs before this unprioritized one whatever the link order; core
// makes ffi.ModuleGetFunction on demand.
struct Registration {
  Registration() {
    // ffi.Module's metadata as upstream's ObjectDef<ModuleObj> registers it:
    // the C++ class's size, no creator, no structural kind. Its one field,
    // `imports_`, extra/frontend registers; ffi-core's own modules are laid
    // out otherwise, and the field's getter reads either.
    TVMFFITypeMetadata metadata{};
    metadata.total_size = sizeof(ModuleObj);
    metadata.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(TypeIndex::kTVMFFIModule, &metadata));
    ffi_core::SetCxxModuleLookup(&LookupFromCxxImports);
    RouteCxxModules("ffi.ModuleGetFunction", [](ModuleObj* m, PackedArgs args) -> Any {
      return m->GetFunction(args[1].cast<String>(), args[2].cast<bool>());
    });
    RouteCxxModules("ffi.ModuleImplementsFunction", [](ModuleObj* m, PackedArgs args) -> Any {
      return m->ImplementsFunction(args[1].cast<String>(), args[2].cast<bool>());
    });
    RouteCxxModules("ffi.ModuleGetFunctionMetadata", [](ModuleObj* m, PackedArgs args) -> Any {
      return m->GetFunctionMetadata(args[1].cast<String>(), args[2].cast<bool>());
    });
    RouteCxxModules("ffi.ModuleGetFunctionDoc", [](ModuleObj* m, PackedArgs args) -> Any {
      return m->GetFunctionDoc(args[1].cast<String>(), args[2].cast<bool>());
    });
    RouteCxxModules("ffi.ModuleGetKind",
                    [](ModuleObj* m, PackedArgs) -> Any { return String(m->kind()); });
    RouteCxxModules("ffi.ModuleGetPropertyMask",
                    [](ModuleObj* m, PackedArgs) -> Any { return m->GetPropertyMask(); });
    RouteCxxModules("ffi.ModuleImportModule", [](ModuleObj* m, PackedArgs args) -> Any {
      m->ImportModule(AsCxxModule(args[1]));
      return Any();
    });
    RouteCxxModules("ffi.ModuleClearImports", [](ModuleObj* m, PackedArgs) -> Any {
      m->ClearImports();
      return Any();
    });
    RouteCxxModules("ffi.ModuleInspectSource", [](ModuleObj* m, PackedArgs args) -> Any {
      return m->InspectSource(args[1].cast<String>());
    });
    RouteCxxModules("ffi.ModuleWriteToFile", [](ModuleObj* m, PackedArgs args) -> Any {
      m->WriteToFile(args[1].cast<String>(), args[2].cast<String>());
      return Any();
    });
    // ffi-core's own modules are written to no format.
    RouteCxxModules(
        "ffi.ModuleGetWriteFormats",
        [](ModuleObj* m, PackedArgs) -> Any { return m->GetWriteFormats(); },
        [](ModuleObj*, PackedArgs) -> Any { return Array<String>(); });
  }
};
const Registration kRegistration;

}  // namespace

// What upstream's runtime keeps private to itself: the look-up behind
// TVMFFIEnvModLookupFromImports for a C++ module (core_module.h).
struct ModuleObj::InternalUnsafe {
  // The function `name` from the module's imports, depth first, else the
  // global registry; the module keeps it, so the pointer is borrowed.
  static FunctionObj* LookupFromImports(ModuleObj* module, const char* name) {
    static std::mutex mutex;
    std::scoped_lock<std::mutex> lock(mutex);
    String key(name);
    auto cached = module->import_lookup_cache_.find(key);
    if (cached != module->import_lookup_cache_.end()) {
      return const_cast<FunctionObj*>((*cached).second.operator->());
    }
    Optional<Function> found;
    for (const Any& import : module->imports_) {
      found = import.cast<Module>()->GetFunction(key, true);
      if (found.has_value()) break;
    }
    if (!found.has_value()) found = Function::GetGlobal(key);
    if (!found.has_value()) {
      TVM_FFI_THROW(RuntimeError) << "Cannot find function " << name
                                  << " in the imported modules or global registry.";
    }
    module->import_lookup_cache_.Set(key, *found);
    return const_cast<FunctionObj*>((*found).operator->());
  }
};

namespace {

int LookupFromCxxImports(void* library_ctx, const char* func_name, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out =
      ModuleObj::InternalUnsafe::LookupFromImports(static_cast<ModuleObj*>(library_ctx), func_name);
  TVM_FFI_SAFE_CALL_END();
}

}  // namespace

void ModuleObj::ImportModule(const Module& other) {
  // Refused when `this` is reachable from `other`: the import would close a cycle.
  std::unordered_set<const ModuleObj*> seen{other.get()};
  std::vector<const ModuleObj*> pending{other.get()};
  while (!pending.empty()) {
    const ModuleObj* m = pending.back();
    pending.pop_back();
    for (const Any& import : m->imports_) {
      const ModuleObj* next = import.cast<Module>().get();
      if (seen.insert(next).second) pending.push_back(next);
    }
  }
  if (seen.count(this) != 0) {
    TVM_FFI_THROW(RuntimeError) << "Cyclic dependency detected during import";
  }
  imports_.push_back(other);
}

void ModuleObj::ClearImports() { imports_.clear(); }

// The overloads that also search the imports, depth first in import order.
Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) {
  if (Optional<Function> f = GetFunction(name)) return f;
  if (!query_imports) return std::nullopt;
  for (const Any& import : imports_) {
    if (Optional<Function> f = import.cast<Module>()->GetFunction(name, true)) return f;
  }
  return std::nullopt;
}

bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  if (ImplementsFunction(name)) return true;
  if (!query_imports) return false;
  for (const Any& import : imports_) {
    if (import.cast<Module>()->ImplementsFunction(name, true)) return true;
  }
  return false;
}

Optional<String> ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  if (Optional<String> doc = GetFunctionDoc(name)) return doc;
  if (!query_imports) return std::nullopt;
  for (const Any& import : imports_) {
    if (Optional<String> doc = import.cast<Module>()->GetFunctionDoc(name, true)) return doc;
  }
  return std::nullopt;
}

Optional<String> ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  if (Optional<String> metadata = GetFunctionMetadata(name)) return metadata;
  if (!query_imports) return std::nullopt;
  for (const Any& import : imports_) {
    if (Optional<String> metadata = import.cast<Module>()->GetFunctionMetadata(name, true)) {
      return metadata;
    }
  }
  return std::nullopt;
}

Module Module::LoadFromFile(const String& file_name) {
  // ffi-core's loader picks the loader by suffix, as upstream's does.
  ObjectRef core =
      Function::GetGlobalRequired("ffi.ModuleLoadFromFile")(file_name).cast<ObjectRef>();
  std::string kind = Function::GetGlobalRequired("ffi.ModuleGetKind")(core).cast<String>();
  return Module(make_object<CoreModuleObj>(std::move(core), std::move(kind)));
}

void Module::VisitContextSymbols(const TypedFunction<void(String, void*)>& callback) {
  // A copy of the table, so the callback runs without ffi-core's lock.
  std::vector<const char*> names(16);
  std::vector<void*> symbols(16);
  size_t n = ffi_core::CopyContextSymbols(names.data(), symbols.data(), names.size());
  if (n > names.size()) {
    names.resize(n);
    symbols.resize(n);
    n = ffi_core::CopyContextSymbols(names.data(), symbols.data(), n);
  }
  for (size_t i = 0; i < n && i < names.size(); ++i) callback(String(names[i]), symbols[i]);
}

}  // namespace ffi
}  // namespace tvm
