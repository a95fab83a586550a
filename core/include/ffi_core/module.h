// Module: a kTVMFFIModule object that hands out the `__tvm_ffi_<name>`
// functions of a library: the system library (functions compiled into the
// firmware and registered by name) or, on the host, a shared library.
// The globals "ffi.SystemLib", "ffi.ModuleGetFunction",
// "ffi.Module.load_from_file.so" and "ffi.ModuleLoadFromFile" expose them
// through TVMFFIFunctionGetGlobal.
//
// Generated code reaches its runtime through two symbols a module fills in:
// `__tvm_ffi__library_ctx` receives the module itself (the handle that
// TVMFFIEnvModLookupFromImports takes), and every context symbol registered
// with TVMFFIEnvModRegisterContextSymbol (e.g. "__TVMBackendAllocWorkspace")
// is written into the library's variable of that name when it is loaded.
#ifndef FFI_CORE_MODULE_H_
#define FFI_CORE_MODULE_H_

#include <ffi_core/config.h>
#include <ffi_core/core_module.h>
#include <ffi_core/function.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>
#include <ffi_core/system_lib.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

// Prefix of every exported function symbol.
inline constexpr char kSymbolPrefix[] = "__tvm_ffi_";
// The variable generated code keeps its module handle in.
inline constexpr char kLibraryCtxSymbol[] = "__tvm_ffi__library_ctx";
// Longest function name Module::GetFunction accepts.
inline constexpr size_t kMaxSymbolName = 120;
// Longest system library prefix ("ffi.SystemLib" argument).
inline constexpr size_t kMaxSystemLibPrefix = 31;

// The variable holding the modules a library embeds (import tree, kinds,
// serialized bytes), as upstream's exporter writes it.
inline constexpr char kLibraryBinSymbol[] = "__tvm_ffi__library_bin";

namespace detail {
struct ImportCacheEntry;  // module.cc
}  // namespace detail

struct ModuleObj;

// A module made of code rather than a library's symbols, e.g. the Relax VM
// executable a library embeds.
struct ModuleKind {
  // The function `name` (`size` bytes, not NUL-terminated), or an empty Function.
  Expected<Function> (*get_function)(ModuleObj* self, const char* name, size_t size);
  // Releases the kind's state when the module dies.
  void (*destroy)(ModuleObj* self);
  // What "ffi.ModuleGetKind" answers, e.g. "relax.VMExecutable".
  const char* name;
};

struct ModuleObj {
  TVMFFIObject header;
  void* library;       // port::LibraryOpen handle; NULL for the system library
  const char* prefix;  // system library symbol prefix ("" otherwise)
  // Functions handed out by LookupFromImports; they live as long as the module.
  detail::ImportCacheEntry* import_cache;
  const ModuleKind* kind;  // NULL for a library module
  void* state;             // the kind's own
  // Strong references to the modules this one imports (NULL: free).
  TVMFFIObject* imports[FFI_CORE_MODULE_IMPORT_CAPACITY];
  ~ModuleObj();
};

class Module : public ObjectRef<ModuleObj> {
 public:
  using ObjectRef::ObjectRef;

  // The system library for a symbol prefix (TVM's "system_lib_prefix"),
  // one module per prefix for the life of the program, as upstream keeps it.
  static Expected<Module> SystemLib(const char* prefix = "", size_t prefix_size = 0);
  // Host only: bare-metal ports fail with NotImplementedError.
  static Expected<Module> LoadFromFile(const char* path);
  // A module whose functions come from `kind`; it owns `state` (kind->destroy).
  TVM_FFI_DLL static Expected<Module> Create(const ModuleKind* kind, void* state);
  // The function `name` (without the `__tvm_ffi_` prefix), or an empty
  // Function. The system library tries `__tvm_ffi_<prefix><name>` first;
  // then come the module's kind and its imports.
  TVM_FFI_DLL Expected<Function> GetFunction(const char* name, size_t size) const;
  // Adds `other` to the modules this one imports (it keeps a reference).
  Status Import(const Module& other) const;
  // What generated code calls through TVMFFIEnvModLookupFromImports: the
  // function `name` from the module's imports, else the global registry,
  // else a RuntimeError. The module keeps it: the pointer is borrowed.
  Expected<TVMFFIObject*> LookupFromImports(const char* name) const;
};

// `name` is the full symbol ("__tvm_ffi_add_one") and must outlive the
// program (generated code passes literals); re-registering replaces it.
// Registration runs from static constructors, before main can look at the
// error slot, so a failure is also passed to the port's log.
Status RegisterSystemLibSymbol(const char* name, void* symbol);

// More slots for the system library's table (ffi_core/system_lib.h).
Status AddSystemLibSlots(FFICoreSystemLibBlock* block);

// A value written into the variable `name` of every library loaded from now
// on. `name` must outlive the program; re-registering replaces the value.
Status RegisterContextSymbol(const char* name, void* symbol);

// Makes the module of `kind` that a library embeds in __tvm_ffi__library_bin
// from its serialized bytes (which stay valid as long as `library` does).
// The library then imports it, so its functions are found through the
// library. `kind` must outlive the program.
using LibraryBinLoader = Expected<Module> (*)(const Module& library, const uint8_t* data,
                                              size_t size);
TVM_FFI_DLL Status RegisterLibraryBinLoader(const char* kind, LibraryBinLoader loader);

// Raises the TypeError that refuses a module IsCoreModule (core_module.h)
// says is not ffi-core's; kFailed.
TVM_FFI_DLL Conversion RefuseForeignModule();
// The look-up SetCxxModuleLookup installed, or NULL.
CxxModuleLookup CurrentCxxModuleLookup();

template <>
struct TypeTraits<Module> : detail::ObjectRefTraits<Module, kTVMFFIModule> {
  static constexpr const char* kName = "Module";
  static Conversion Read(const TVMFFIAny& in, Module* out) {
    if (in.type_index == kTVMFFIModule && !IsCoreModule(in.v_obj)) return RefuseForeignModule();
    return ObjectRefTraits::Read(in, out);
  }
};

}  // namespace ffi_core

#endif  // FFI_CORE_MODULE_H_
