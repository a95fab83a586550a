#include <ffi_core/context_symbols.h>
#include <ffi_core/module.h>
#include <ffi_core/object.h>
#include <ffi_core/port.h>
#include <ffi_core/registry.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/string.h>

#include <cstring>
#include <new>

#include "function/builtin_globals.h"
#include "support/fixed_table.h"
#include "support/global_lock_guard.h"

namespace ffi_core {

namespace detail {
// One function handed out by LookupFromImports, kept until its module dies.
struct ImportCacheEntry {
  TVMFFIObject header;
  ImportCacheEntry* next;
  TVMFFIObject* function;
  ~ImportCacheEntry() { ObjectDecRef(function); }
  const char* name() const { return TrailingOf<const char>(this); }
};
}  // namespace detail

namespace {

using SystemSymbol = FFICoreSystemLibSlot;
SystemSymbol g_system_lib[FFI_CORE_SYSTEM_LIB_CAPACITY];
// Slots the firmware's objects brought (FFICoreSystemLibAddSlots), newest first.
FFICoreSystemLibBlock* g_system_lib_blocks = nullptr;
size_t g_system_lib_added = 0;
SystemSymbol g_context_symbols[FFI_CORE_CONTEXT_SYMBOL_CAPACITY];

struct LoaderEntry {
  const char* kind;
  LibraryBinLoader loader;
};
LoaderEntry g_loaders[FFI_CORE_LIBRARY_BIN_LOADER_CAPACITY];

// System library modules live for the whole program (generated code keeps
// their handle in its library context), so they sit in static storage,
// constructed on first use and never destroyed.
struct SystemLibSlot {
  alignas(ModuleObj) unsigned char storage[sizeof(ModuleObj)];
  char prefix[kMaxSystemLibPrefix + 1];
  bool used;
};
SystemLibSlot g_system_lib_modules[FFI_CORE_SYSTEM_LIB_PREFIX_CAPACITY];

// The system library's slot named `name`, else (with `or_free`) its first
// free slot, the static table's before the added ones'. The caller holds the
// global lock.
SystemSymbol* FindSystemSlot(const char* name, bool or_free) {
  SystemSymbol* free_slot = nullptr;
  auto scan = [&](SystemSymbol* slots, size_t n) -> SystemSymbol* {
    for (size_t i = 0; i < n; ++i) {
      if (slots[i].name == nullptr) {
        if (free_slot == nullptr) free_slot = &slots[i];
      } else if (std::strcmp(slots[i].name, name) == 0) {
        return &slots[i];
      }
    }
    return nullptr;
  };
  SystemSymbol* found = scan(g_system_lib, FFI_CORE_SYSTEM_LIB_CAPACITY);
  for (FFICoreSystemLibBlock* b = g_system_lib_blocks; found == nullptr && b != nullptr;
       b = b->next) {
    found = scan(b->slots, b->count);
  }
  return found != nullptr ? found : or_free ? free_slot : nullptr;
}

void* FindSystemSymbol(const char* name) {
  detail::GlobalLockGuard lock;
  const SystemSymbol* s = FindSystemSlot(name, false);
  return s != nullptr ? s->symbol : nullptr;
}

// Stores (name, symbol) in a fixed table; false when it is full.
template <size_t N>
bool StoreInTable(SystemSymbol (&table)[N], const char* name, void* symbol) {
  detail::GlobalLockGuard lock;
  SystemSymbol* slot = detail::FindOrFreeSlot(
      table, [name](const SystemSymbol& s) { return std::strcmp(s.name, name) == 0; },
      [](const SystemSymbol& s) { return s.name == nullptr; });
  if (slot != nullptr) *slot = SystemSymbol{name, symbol};
  return slot != nullptr;
}

// `a` + `b` into `out`, NUL-terminated; false when it does not fit.
bool JoinSymbol(char* out, size_t capacity, const char* a, const char* b, size_t b_size) {
  const size_t a_size = std::strlen(a);
  if (a_size + b_size >= capacity) return false;
  std::memcpy(out, a, a_size);
  std::memcpy(out + a_size, b, b_size);
  out[a_size + b_size] = '\0';
  return true;
}

void* LookupSymbol(const ModuleObj* m, const char* symbol) {
  return m->library != nullptr ? port::LibrarySymbol(m->library, symbol) : FindSystemSymbol(symbol);
}

// A library-wide variable (`__tvm_ffi__library_ctx`, ...): the system
// library tries its prefixed name first, as upstream's does.
void* LookupLibraryVariable(const ModuleObj* m, const char* name, size_t size) {
  char symbol[kMaxSystemLibPrefix + 32];
  void* addr = nullptr;
  if (m->prefix[0] != '\0' && JoinSymbol(symbol, sizeof(symbol), m->prefix, name, size)) {
    addr = LookupSymbol(m, symbol);
  }
  return addr != nullptr ? addr : LookupSymbol(m, name);
}

// Points the library's `__tvm_ffi__library_ctx` at the module, as
// upstream's loader does.
void BindLibraryContext(ModuleObj* m) {
  void* addr = LookupLibraryVariable(m, kLibraryCtxSymbol, sizeof(kLibraryCtxSymbol) - 1);
  if (addr != nullptr) *static_cast<void**>(addr) = m;
}

// Reads the little-endian layout of __tvm_ffi__library_bin, bounds-checked.
struct BinReader {
  const uint8_t* at;
  const uint8_t* end;
  bool U64(uint64_t* out) {
    if (end - at < 8) return false;
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | at[i];
    at += 8;
    *out = v;
    return true;
  }
  // A length-prefixed byte string, borrowed.
  bool Bytes(const uint8_t** data, size_t* size) {
    uint64_t n = 0;
    if (!U64(&n) || n > static_cast<uint64_t>(end - at)) return false;
    *data = at;
    *size = static_cast<size_t>(n);
    at += n;
    return true;
  }
  bool SkipU64Vector(uint64_t* count) {
    if (!U64(count) || *count > static_cast<uint64_t>(end - at) / 8) return false;
    at += *count * 8;
    return true;
  }
};

Status LibraryBinError(const char* why) {
  return RaiseError(ErrorKind::kValueError, {"malformed ", kLibraryBinSymbol, ": ", why});
}

// The first of `m`'s imports that has the function, or an empty Function.
Expected<Function> FindInImports(const ModuleObj* m, const char* name, size_t size) {
  for (TVMFFIObject* imported : m->imports) {
    if (imported == nullptr) continue;
    const Module child(ObjectPtr<ModuleObj>::Retain(reinterpret_cast<ModuleObj*>(imported)));
    FFI_CORE_ASSIGN_OR_RETURN(Function f, child.GetFunction(name, size));
    if (f) return f;
  }
  return Function();
}

// Loads every module a library embeds and makes the library import it. The
// import tree is flattened: the library imports each embedded module, which
// is all TVM's exporter writes for a Relax executable.
Status ProcessLibraryBin(ModuleObj* m) {
  const uint8_t* bin = static_cast<const uint8_t*>(
      LookupLibraryVariable(m, kLibraryBinSymbol, sizeof(kLibraryBinSymbol) - 1));
  if (bin == nullptr) return Status::Ok();
  BinReader header{bin, bin + 8};
  uint64_t nbytes = 0;
  if (!header.U64(&nbytes) || nbytes > (uint64_t{1} << 40)) return LibraryBinError("bad size");
  BinReader r{bin + 8, bin + 8 + nbytes};
  uint64_t num_modules = 0;
  uint64_t num_children = 0;
  if (!r.SkipU64Vector(&num_modules) || num_modules == 0 || !r.SkipU64Vector(&num_children)) {
    return LibraryBinError("bad import tree");
  }
  const Module library(ObjectPtr<ModuleObj>::Retain(m));
  for (uint64_t i = 0; i + 1 < num_modules; ++i) {
    const uint8_t* kind = nullptr;
    size_t kind_size = 0;
    if (!r.Bytes(&kind, &kind_size)) return LibraryBinError("truncated module kind");
    if (kind_size == 4 && std::memcmp(kind, "_lib", 4) == 0) continue;
    const uint8_t* data = nullptr;
    size_t size = 0;
    if (!r.Bytes(&data, &size)) return LibraryBinError("truncated module bytes");
    LibraryBinLoader loader = nullptr;
    {
      detail::GlobalLockGuard lock;
      for (const LoaderEntry& e : g_loaders) {
        if (e.kind != nullptr && SameBytes(e.kind, std::strlen(e.kind),
                                           reinterpret_cast<const char*>(kind), kind_size)) {
          loader = e.loader;
        }
      }
    }
    if (loader == nullptr) {
      char name[48];
      const size_t n = kind_size < sizeof(name) - 1 ? kind_size : sizeof(name) - 1;
      std::memcpy(name, kind, n);
      name[n] = '\0';
      return RaiseError(ErrorKind::kRuntimeError,
                        {"the library embeds a '", name,
                         "' module and no loader for it is linked (Relax executables: "
                         "ffi_core::tvm)"});
    }
    FFI_CORE_ASSIGN_OR_RETURN(Module embedded, loader(library, data, size));
    FFI_CORE_RETURN_IF_ERROR(library.Import(embedded));
  }
  return Status::Ok();
}

void StaticModuleDeleter(void*, int) {
  port::Fatal("ffi-core: a system library module lost its last reference");
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

Expected<Module> NewModule(void* library, const ModuleKind* kind, void* state) {
  FFI_CORE_ASSIGN_OR_RETURN(ModuleObj * obj, NewObject<ModuleObj>(kTVMFFIModule, 0));
  obj->library = library;
  obj->prefix = "";
  obj->kind = kind;
  obj->state = state;
  return Module(ObjectPtr<ModuleObj>::Adopt(obj));
}

// The context variables of TVM's generated code, which libffi_core_tvm.so
// registers when it is loaded. A library holding one that nothing fills would
// call through NULL at its first workspace request or parallel launch.
constexpr const char* kTvmContextVariables[] = {
    "__TVMBackendAllocWorkspace",  "__TVMBackendFreeWorkspace", "__TVMBackendParallelLaunch",
    "__TVMBackendParallelBarrier", "__TVMFFIFunctionCall",      "__TVMFFIEnvModLookupFromImports",
    "__TVMFFIHandleInitOnce"};

// Writes every registered context symbol into the library's variable of
// that name; refuses a library with a TVM context variable left empty.
Status BindContextSymbols(void* library, const char* path) {
  const char* missing = nullptr;
  {
    detail::GlobalLockGuard lock;
    for (const SystemSymbol& s : g_context_symbols) {
      if (s.name == nullptr) continue;
      void* addr = port::LibrarySymbol(library, s.name);
      if (addr != nullptr) *static_cast<void**>(addr) = s.symbol;
    }
    for (const char* name : kTvmContextVariables) {
      void* addr = port::LibrarySymbol(library, name);
      if (addr != nullptr && *static_cast<void**>(addr) == nullptr) missing = name;
    }
  }
  if (missing == nullptr) return Status::Ok();
  return RaiseError(ErrorKind::kRuntimeError,
                    {"'", path, "' is TVM code whose context symbol ", missing,
                     " nothing provides: link libffi_core_tvm.so (ffi_core::tvm_shared) into the "
                     "program, or load it before this library"});
}

// ---- built-in globals ----

Status SystemLibGlobal(PackedArgs args, Any* rv) {
  if (args.size() > 1)
    return RaiseError(ErrorKind::kTypeError, {"ffi.SystemLib: expected 0 or 1 arguments"});
  String prefix;
  if (args.size() == 1) {
    FFI_CORE_ASSIGN_OR_RETURN(prefix, args[0].As<String>());
  }
  FFI_CORE_ASSIGN_OR_RETURN(Module m, Module::SystemLib(prefix.data(), prefix.size()));
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

constexpr detail::Builtin kBuiltins[] = {
    {"ffi.SystemLib", &SystemLibGlobal},
    {"ffi.ModuleGetFunction", &ModuleGetFunctionGlobal},
    {"ffi.Module.load_from_file.so", &LoadSharedLibraryGlobal},
    {"ffi.ModuleLoadFromFile", &LoadFromFileGlobal},
};

}  // namespace

Status AddSystemLibSlots(FFICoreSystemLibBlock* block) {
  if (block == nullptr || (block->slots == nullptr && block->count != 0)) {
    return RaiseError(
        ErrorKind::kValueError,
        {"FFICoreSystemLibAddSlots: ", block == nullptr ? "block" : "slots", " is NULL"});
  }
  detail::GlobalLockGuard lock;
  for (const FFICoreSystemLibBlock* b = g_system_lib_blocks; b != nullptr; b = b->next) {
    if (b == block) {
      return RaiseError(ErrorKind::kValueError,
                        {"FFICoreSystemLibAddSlots: the block was already added"});
    }
  }
  for (size_t i = 0; i < block->count; ++i) block->slots[i] = SystemSymbol{nullptr, nullptr};
  block->next = g_system_lib_blocks;
  g_system_lib_blocks = block;
  g_system_lib_added += block->count;
  return Status::Ok();
}

ModuleObj::~ModuleObj() {
  for (TVMFFIObject* imported : imports) {
    if (imported != nullptr) ObjectDecRef(imported);
  }
  if (kind != nullptr && kind->destroy != nullptr) kind->destroy(this);
  for (detail::ImportCacheEntry* e = import_cache; e != nullptr;) {
    detail::ImportCacheEntry* next = e->next;
    ObjectDecRef(&e->header);
    e = next;
  }
  if (library != nullptr) port::LibraryClose(library);
}

Status RegisterSystemLibSymbol(const char* name, void* symbol) {
  Status s = Status::Ok();
  if (name == nullptr || symbol == nullptr) {
    // Named after the C entry point, the only way firmware registers.
    s = RaiseError(ErrorKind::kValueError,
                   {"TVMFFIEnvModRegisterSystemLibSymbol: ", name == nullptr ? "name" : "symbol",
                    " is NULL (symbol ", name != nullptr ? name : "(null)", ")"});
  } else {
    detail::GlobalLockGuard lock;
    SystemSymbol* slot = FindSystemSlot(name, true);
    if (slot != nullptr) {
      *slot = SystemSymbol{name, symbol};
    } else {
      s = RaiseError(
          ErrorKind::kMemoryError,
          {"system library full (FFI_CORE_SYSTEM_LIB_CAPACITY=", FFI_CORE_SYSTEM_LIB_CAPACITY,
           " and ", g_system_lib_added, " added slots) registering ", name});
    }
  }
  if (!s.ok()) {
    char line[kMaxSymbolName + 48];
    size_t len = 0;
    line[0] = '\0';
    for (const MessagePart& part : {MessagePart("ffi-core: cannot register system library symbol "),
                                    MessagePart(name != nullptr ? name : "(null)")}) {
      part.AppendTo(line, sizeof(line), &len);
    }
    port::Log(line);
  }
  return s;
}

bool IsCoreModule(const TVMFFIObject* obj) {
  return obj->deleter == detail::DeleterOf<ModuleObj>() || obj->deleter == &StaticModuleDeleter;
}

namespace {
// The C++ API layer's look-up (core_module.h), set once at load.
void* g_cxx_module_lookup = nullptr;
}  // namespace

void SetCxxModuleLookup(CxxModuleLookup lookup) {
  detail::GlobalLockGuard lock;
  port::PublishHandle(&g_cxx_module_lookup, reinterpret_cast<void*>(lookup));
}

CxxModuleLookup CurrentCxxModuleLookup() {
  return reinterpret_cast<CxxModuleLookup>(port::LoadHandle(&g_cxx_module_lookup));
}

Conversion RefuseForeignModule() {
  static_cast<void>(RaiseError(ErrorKind::kTypeError,
                               {"a tvm::ffi::ModuleObj made with upstream's C++ headers is not "
                                "one of ffi-core's modules, which its module functions take"}));
  return Conversion::kFailed;
}

size_t CopyContextSymbols(const char** names, void** symbols, size_t capacity) {
  detail::GlobalLockGuard lock;
  size_t n = 0;
  for (const SystemSymbol& s : g_context_symbols) {
    if (s.name == nullptr) continue;
    if (n < capacity) {
      names[n] = s.name;
      symbols[n] = s.symbol;
    }
    ++n;
  }
  return n;
}

Status RegisterContextSymbol(const char* name, void* symbol) {
  if (name == nullptr) {
    return RaiseError(ErrorKind::kValueError, {"TVMFFIEnvModRegisterContextSymbol: name is NULL"});
  }
  if (!StoreInTable(g_context_symbols, name, symbol)) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"context symbol table full (FFI_CORE_CONTEXT_SYMBOL_CAPACITY=",
                       FFI_CORE_CONTEXT_SYMBOL_CAPACITY, ") registering ", name});
  }
  return Status::Ok();
}

Expected<Module> Module::SystemLib(const char* prefix, size_t prefix_size) {
  if (prefix == nullptr || prefix_size > kMaxSystemLibPrefix) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.SystemLib: prefix NULL or longer than ", kMaxSystemLibPrefix});
  }
  ModuleObj* m = nullptr;
  {
    detail::GlobalLockGuard lock;
    SystemLibSlot* slot = detail::FindOrFreeSlot(
        g_system_lib_modules,
        [&](const SystemLibSlot& s) {
          return SameBytes(s.prefix, std::strlen(s.prefix), prefix, prefix_size);
        },
        [](const SystemLibSlot& s) { return !s.used; });
    if (slot == nullptr) {
      return RaiseError(ErrorKind::kMemoryError,
                        {"ffi.SystemLib: too many prefixes (FFI_CORE_SYSTEM_LIB_PREFIX_CAPACITY=",
                         FFI_CORE_SYSTEM_LIB_PREFIX_CAPACITY, ")"});
    }
    m = reinterpret_cast<ModuleObj*>(slot->storage);
    if (!slot->used) {
      std::memcpy(slot->prefix, prefix, prefix_size);
      slot->prefix[prefix_size] = '\0';
      m = new (slot->storage) ModuleObj{};
      // The table holds the first reference for good.
      InitObjectHeader(&m->header, kTVMFFIModule, &StaticModuleDeleter);
      m->prefix = slot->prefix;
      // What the firmware embeds is loaded once, with the module.
      FFI_CORE_RETURN_IF_ERROR(ProcessLibraryBin(m));
      slot->used = true;
    }
    ObjectIncRef(&m->header);
  }
  // Generated code registered before main may register later too (a
  // library opened after start-up), so the context is bound on every call.
  BindLibraryContext(m);
  return Module(ObjectPtr<ModuleObj>::Adopt(m));
}

Expected<Module> Module::LoadFromFile(const char* path) {
  if (path == nullptr) return RaiseError(ErrorKind::kValueError, {"LoadFromFile: NULL path"});
  char why[160];
  void* lib = port::LibraryOpen(path, why, sizeof(why));
  // The reason first (e.g. the undefined symbol), so a cut message keeps it.
  if (lib == nullptr) return RaiseError(ErrorKind::kRuntimeError, {why, " (loading '", path, "')"});
  Status bound = BindContextSymbols(lib, path);
  if (!bound.ok()) {
    port::LibraryClose(lib);
    return bound;
  }
  Expected<Module> m = NewModule(lib, nullptr, nullptr);
  if (!m.ok()) {
    port::LibraryClose(lib);
    return m;
  }
  BindLibraryContext(m->object().get());
  FFI_CORE_RETURN_IF_ERROR(ProcessLibraryBin(m->object().get()));
  return m;
}

Expected<Module> Module::Create(const ModuleKind* kind, void* state) {
  if (kind == nullptr || kind->get_function == nullptr) {
    return RaiseError(ErrorKind::kValueError, {"Module::Create: no kind or get_function"});
  }
  return NewModule(nullptr, kind, state);
}

Status Module::Import(const Module& other) const {
  if (!obj_ || !other) return RaiseError(ErrorKind::kValueError, {"Import of an empty Module"});
  detail::GlobalLockGuard lock;
  for (TVMFFIObject*& slot : obj_->imports) {
    if (slot == nullptr) {
      slot = other.object().header();
      ObjectIncRef(slot);
      return Status::Ok();
    }
  }
  return RaiseError(ErrorKind::kMemoryError,
                    {"module imports full (FFI_CORE_MODULE_IMPORT_CAPACITY=",
                     FFI_CORE_MODULE_IMPORT_CAPACITY, ")"});
}

Status RegisterLibraryBinLoader(const char* kind, LibraryBinLoader loader) {
  if (kind == nullptr || loader == nullptr) {
    return RaiseError(ErrorKind::kValueError, {"library_bin loader with a NULL kind or function"});
  }
  detail::GlobalLockGuard lock;
  LoaderEntry* slot = detail::FindOrFreeSlot(
      g_loaders, [kind](const LoaderEntry& e) { return std::strcmp(e.kind, kind) == 0; },
      [](const LoaderEntry& e) { return e.kind == nullptr; });
  if (slot == nullptr) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"library_bin loaders full (FFI_CORE_LIBRARY_BIN_LOADER_CAPACITY=",
                       FFI_CORE_LIBRARY_BIN_LOADER_CAPACITY, ") registering ", kind});
  }
  *slot = LoaderEntry{kind, loader};
  return Status::Ok();
}

Expected<Function> Module::GetFunction(const char* name, size_t size) const {
  if (!obj_) return RaiseError(ErrorKind::kValueError, {"GetFunction on an empty Module"});
  constexpr size_t kPrefix = sizeof(kSymbolPrefix) - 1;
  if (name == nullptr || size == 0 || size > kMaxSymbolName) {
    return RaiseError(ErrorKind::kValueError,
                      {"function name empty or longer than ", kMaxSymbolName});
  }
  // Accept names with or without `__tvm_ffi_`; the system library tries its
  // own prefix first, as upstream's does.
  if (size >= kPrefix && std::memcmp(name, kSymbolPrefix, kPrefix) == 0) {
    name += kPrefix;
    size -= kPrefix;
  }
  if (obj_->kind != nullptr) return obj_->kind->get_function(obj_.get(), name, size);
  char symbol[kPrefix + kMaxSystemLibPrefix + kMaxSymbolName + 1];
  void* addr = nullptr;
  if (obj_->prefix[0] != '\0') {
    char prefixed[kPrefix + kMaxSystemLibPrefix + 1];
    if (JoinSymbol(prefixed, sizeof(prefixed), kSymbolPrefix, obj_->prefix,
                   std::strlen(obj_->prefix)) &&
        JoinSymbol(symbol, sizeof(symbol), prefixed, name, size)) {
      addr = LookupSymbol(obj_.get(), symbol);
    }
  }
  if (addr == nullptr && JoinSymbol(symbol, sizeof(symbol), kSymbolPrefix, name, size)) {
    addr = LookupSymbol(obj_.get(), symbol);
  }
  if (addr == nullptr) return FindInImports(obj_.get(), name, size);
  FFI_CORE_ASSIGN_OR_RETURN(LibraryFunctionObj * f,
                            NewObject<LibraryFunctionObj>(kTVMFFIFunction, 0));
  f->cell = TVMFFIFunctionCell{&CallLibraryFunction, nullptr};
  f->target = reinterpret_cast<TVMFFISafeCallType>(addr);
  f->module = obj_.header();
  ObjectIncRef(f->module);
  return Function(ObjectPtr<FunctionObj>::Adopt(reinterpret_cast<FunctionObj*>(f)));
}

Expected<TVMFFIObject*> Module::LookupFromImports(const char* name) const {
  if (!obj_) return RaiseError(ErrorKind::kValueError, {"LookupFromImports on an empty Module"});
  if (name == nullptr) return RaiseError(ErrorKind::kValueError, {"LookupFromImports: NULL name"});
  ModuleObj* m = obj_.get();
  {
    detail::GlobalLockGuard lock;
    for (detail::ImportCacheEntry* e = m->import_cache; e != nullptr; e = e->next) {
      if (std::strcmp(e->name(), name) == 0) return e->function;
    }
  }
  const size_t size = std::strlen(name);
  FFI_CORE_ASSIGN_OR_RETURN(Function f, FindInImports(m, name, size));
  if (!f) {
    FFI_CORE_ASSIGN_OR_RETURN(f, GetGlobalFunction(name, size));
  }
  if (!f) {
    return RaiseError(
        ErrorKind::kRuntimeError,
        {"cannot find function '", name, "' in the module's imports or the global registry"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(detail::ImportCacheEntry * e,
                            NewObject<detail::ImportCacheEntry>(kTVMFFIObject, size + 1));
  std::memcpy(TrailingOf<char>(e), name, size + 1);
  e->function = f.object().header();
  ObjectIncRef(e->function);
  detail::GlobalLockGuard lock;
  e->next = m->import_cache;
  m->import_cache = e;
  return e->function;
}

namespace detail {
Expected<Function> FindBuiltinGlobal(const char* name, size_t size) {
  Expected<Function> f = MakeBuiltin(kBuiltins, name, size);
  if (f.ok() && !*f && ffi_core_container_global != nullptr) {
    ffi_core_container_global(name, size, &f);
  }
  return f;
}
}  // namespace detail

}  // namespace ffi_core
