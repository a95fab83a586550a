#include <ffi_core/module.h>
#include <ffi_core/object.h>
#include <ffi_core/port.h>
#include <ffi_core/string.h>

#include <cstring>

namespace ffi_core {
namespace {

struct SystemSymbol {
  const char* name;
  void* symbol;
};
SystemSymbol g_system_lib[FFI_CORE_SYSTEM_LIB_CAPACITY];

void* FindSystemSymbol(const char* name) {
  port::GlobalLock();
  void* found = nullptr;
  for (const SystemSymbol& s : g_system_lib) {
    if (s.name != nullptr && std::strcmp(s.name, name) == 0) found = s.symbol;
  }
  port::GlobalUnlock();
  return found;
}

// A library function: calls the symbol with a NULL handle, as an exported
// C function expects, and keeps its module loaded.
struct LibraryFunctionObj {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  TVMFFISafeCallType target;
  TVMFFIObject* module;
  ~LibraryFunctionObj() { ObjectDecRef(module); }
};

int CallLibraryFunction(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  return static_cast<LibraryFunctionObj*>(handle)->target(nullptr, args, num_args, result);
}

Expected<Module> NewModule(void* library) {
  FFI_CORE_ASSIGN_OR_RETURN(ModuleObj * obj, NewObject<ModuleObj>(kTVMFFIModule, 0));
  obj->library = library;
  return Module(ObjectPtr<ModuleObj>::Adopt(obj));
}

// ---- built-in globals ----

Status SystemLibGlobal(PackedArgs args, Any* rv) {
  if (args.size() > 1)
    return RaiseError(ErrorKind::kTypeError, {"ffi.SystemLib: expected 0 or 1 arguments"});
  FFI_CORE_ASSIGN_OR_RETURN(Module m, Module::SystemLib());
  *rv = Any(m);
  return Status::Ok();
}

Status ModuleGetFunctionGlobal(PackedArgs args, Any* rv) {
  if (args.size() < 2 || args.size() > 3) {
    return RaiseError(ErrorKind::kTypeError,
                      {"ffi.ModuleGetFunction: expected (module, name[, query_imports])"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(Module m, args[0].As<Module>());
  FFI_CORE_ASSIGN_OR_RETURN(String name, args[1].As<String>());
  FFI_CORE_ASSIGN_OR_RETURN(Function f, m.GetFunction(name.data(), name.size()));
  *rv = f ? Any(f) : Any();
  return Status::Ok();
}

Status LoadSharedLibraryGlobal(PackedArgs args, Any* rv) {
  if (args.size() < 1 || args.size() > 2) {
    return RaiseError(ErrorKind::kTypeError,
                      {"ffi.Module.load_from_file.so: expected (path[, format])"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(String path, args[0].As<String>());
  FFI_CORE_ASSIGN_OR_RETURN(Module m, Module::LoadFromFile(path.data()));
  *rv = Any(m);
  return Status::Ok();
}

Status LoadFromFileGlobal(PackedArgs args, Any* rv) {
  if (args.size() != 1)
    return RaiseError(ErrorKind::kTypeError, {"ffi.ModuleLoadFromFile: expected (path)"});
  FFI_CORE_ASSIGN_OR_RETURN(String path, args[0].As<String>());
  // Dispatch on the extension to "ffi.Module.load_from_file.<ext>".
  const char* dot = std::strrchr(path.data(), '.');
  if (dot == nullptr)
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.ModuleLoadFromFile: '", path.data(), "' has no extension"});
  char loader[64] = "ffi.Module.load_from_file.";
  const size_t base = std::strlen(loader);
  const size_t ext = std::strlen(dot + 1);
  if (base + ext >= sizeof(loader))
    return RaiseError(ErrorKind::kValueError, {"ffi.ModuleLoadFromFile: extension too long"});
  std::memcpy(loader + base, dot + 1, ext + 1);
  FFI_CORE_ASSIGN_OR_RETURN(Function f, detail::FindBuiltinGlobal(loader, base + ext));
  if (!f) return RaiseError(ErrorKind::kValueError, {"no loader for '", dot, "' files"});
  FFI_CORE_ASSIGN_OR_RETURN(Any m, f(path));
  *rv = std::move(m);
  return Status::Ok();
}

struct Builtin {
  const char* name;
  Status (*fn)(PackedArgs, Any*);
};
constexpr Builtin kBuiltins[] = {
    {"ffi.SystemLib", &SystemLibGlobal},
    {"ffi.ModuleGetFunction", &ModuleGetFunctionGlobal},
    {"ffi.Module.load_from_file.so", &LoadSharedLibraryGlobal},
    {"ffi.ModuleLoadFromFile", &LoadFromFileGlobal},
};

}  // namespace

ModuleObj::~ModuleObj() {
  if (library != nullptr) port::LibraryClose(library);
}

Status RegisterSystemLibSymbol(const char* name, void* symbol) {
  if (name == nullptr || symbol == nullptr) {
    return RaiseError(ErrorKind::kValueError, {"system library symbol with NULL name or address"});
  }
  port::GlobalLock();
  SystemSymbol* slot = nullptr;
  for (SystemSymbol& s : g_system_lib) {
    if (s.name != nullptr && std::strcmp(s.name, name) == 0) {
      slot = &s;
      break;
    }
    if (s.name == nullptr && slot == nullptr) slot = &s;
  }
  if (slot != nullptr) *slot = SystemSymbol{name, symbol};
  port::GlobalUnlock();
  if (slot == nullptr) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"system library full (FFI_CORE_SYSTEM_LIB_CAPACITY=",
                       FFI_CORE_SYSTEM_LIB_CAPACITY, ") registering ", name});
  }
  return Status::Ok();
}

Expected<Module> Module::SystemLib() { return NewModule(nullptr); }

Expected<Module> Module::LoadFromFile(const char* path) {
  if (path == nullptr) return RaiseError(ErrorKind::kValueError, {"LoadFromFile: NULL path"});
  void* lib = port::LibraryOpen(path);
  if (lib == nullptr) return StatusFromPendingError();
  Expected<Module> m = NewModule(lib);
  if (!m.ok()) port::LibraryClose(lib);
  return m;
}

Expected<Function> Module::GetFunction(const char* name, size_t size) const {
  if (!obj_) return RaiseError(ErrorKind::kValueError, {"GetFunction on an empty Module"});
  constexpr size_t kPrefix = sizeof(kSymbolPrefix) - 1;
  if (name == nullptr || size == 0 || size > kMaxSymbolName) {
    return RaiseError(ErrorKind::kValueError,
                      {"function name empty or longer than ", kMaxSymbolName});
  }
  // Accept names with or without the prefix.
  char symbol[kPrefix + kMaxSymbolName + 1];
  size_t at = 0;
  if (size < kPrefix || std::memcmp(name, kSymbolPrefix, kPrefix) != 0) {
    std::memcpy(symbol, kSymbolPrefix, kPrefix);
    at = kPrefix;
  }
  std::memcpy(symbol + at, name, size);
  symbol[at + size] = '\0';
  void* addr = obj_->library != nullptr ? port::LibrarySymbol(obj_->library, symbol)
                                        : FindSystemSymbol(symbol);
  if (addr == nullptr) return Function();
  FFI_CORE_ASSIGN_OR_RETURN(LibraryFunctionObj * f,
                            NewObject<LibraryFunctionObj>(kTVMFFIFunction, 0));
  f->cell = TVMFFIFunctionCell{&CallLibraryFunction, nullptr};
  f->target = reinterpret_cast<TVMFFISafeCallType>(addr);
  f->module = obj_.header();
  ObjectIncRef(f->module);
  return Function(ObjectPtr<FunctionObj>::Adopt(reinterpret_cast<FunctionObj*>(f)));
}

namespace detail {
Expected<Function> FindBuiltinGlobal(const char* name, size_t size) {
  for (const Builtin& b : kBuiltins) {
    if (std::strlen(b.name) == size && std::memcmp(b.name, name, size) == 0) {
      return Function::FromPacked(b.fn);
    }
  }
  return Function();
}
}  // namespace detail

}  // namespace ffi_core
