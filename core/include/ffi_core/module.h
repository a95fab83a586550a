// Module: a kTVMFFIModule object that hands out the `__tvm_ffi_<name>`
// functions of a library: the system library (functions compiled into the
// firmware and registered by name) or, on the host, a shared library.
// The globals "ffi.SystemLib", "ffi.ModuleGetFunction",
// "ffi.Module.load_from_file.so" and "ffi.ModuleLoadFromFile" expose them
// through TVMFFIFunctionGetGlobal.
#ifndef FFI_CORE_MODULE_H_
#define FFI_CORE_MODULE_H_

#include <ffi_core/function.h>
#include <ffi_core/object_ptr.h>

#include <cstddef>

namespace ffi_core {

// Prefix of every exported function symbol.
inline constexpr char kSymbolPrefix[] = "__tvm_ffi_";
// Longest function name Module::GetFunction accepts.
inline constexpr size_t kMaxSymbolName = 120;

struct ModuleObj {
  TVMFFIObject header;
  void* library;  // port::LibraryOpen handle; NULL for the system library
  ~ModuleObj();
};

class Module {
 public:
  Module() = default;
  explicit Module(ObjectPtr<ModuleObj> obj) : obj_(std::move(obj)) {}

  static Expected<Module> SystemLib();
  // Host only: bare-metal ports fail with NotImplementedError.
  static Expected<Module> LoadFromFile(const char* path);
  // The function `name` (without the prefix), or an empty Function.
  Expected<Function> GetFunction(const char* name, size_t size) const;

  explicit operator bool() const { return static_cast<bool>(obj_); }
  const ObjectPtr<ModuleObj>& object() const { return obj_; }

 private:
  ObjectPtr<ModuleObj> obj_;
};

// `name` is the full symbol ("__tvm_ffi_add_one") and must outlive the
// program (generated code passes literals); re-registering replaces it.
Status RegisterSystemLibSymbol(const char* name, void* symbol);

namespace detail {
// The built-in global `name`, made on demand, or an empty Function.
Expected<Function> FindBuiltinGlobal(const char* name, size_t size);
}  // namespace detail

template <>
struct TypeTraits<Module> : detail::ObjectRefTraits<Module, ModuleObj, kTVMFFIModule> {
  static constexpr const char* kName = "Module";
};

}  // namespace ffi_core

#endif  // FFI_CORE_MODULE_H_
