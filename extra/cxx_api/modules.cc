// tvm::ffi::ModuleObj's out-of-line members and tvm::ffi::Module's static
// functions, as upstream's headers declare them (this file is built with the
// wheel's headers, so layout and vtable order are theirs). ImportModule is
// ModuleObj's key function: defining it here emits the class's vtable and
// typeinfo into libffi_core.so, as libtvm_ffi.so carries them.
#include <ffi_core/context_symbols.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>

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
