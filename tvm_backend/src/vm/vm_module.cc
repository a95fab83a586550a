// The module a Relax executable becomes: its functions are the
// executable's ("main") and the VM builtins, and it is loaded from a
// library's __tvm_ffi__library_bin through the loader registered here.
#include <ffi_core/error.h>
#include <ffi_core/registry.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/tvm_vm.h>

#include <cstring>

#include "vm_objects.h"

namespace ffi_core {
namespace tvm_vm {
namespace {

constexpr char kTIRPrefix[] = "__vmtir__";

VMStateObj* StateOf(const ModuleObj* m) { return static_cast<VMStateObj*>(m->state); }

VMFunctionInfo* FindInfo(VMStateObj* state, const char* name, size_t size) {
  for (size_t i = 0; i < state->num_infos; ++i) {
    VMFunctionInfo& f = state->infos()[i];
    if (SameBytes(f.name, f.name_size, name, size)) return &f;
  }
  return nullptr;
}

// A VM function as handed out: keeps the library (and so the executable)
// alive while the caller holds it.
struct Entry {
  ObjectPtr<ModuleObj> library;
  VMStateObj* state;
  VMFunctionInfo* info;
  Function tir;  // found once, when the function is handed out
  Status operator()(PackedArgs args, Any* rv) const {
    return CallVMFunction(state, info, tir, args, rv);
  }
};

// The same inside the function pool, which the state owns: no reference.
// The function pool holds no TIR entry (a Function keeps the library alive,
// and the state is the library's): it looks it up on each call.
struct PoolEntry {
  VMStateObj* state;
  VMFunctionInfo* info;
  Status operator()(PackedArgs args, Any* rv) const {
    // The VM passes its context first to what it calls through the pool.
    if (args.size() < 1) return RaiseError(ErrorKind::kTypeError, {"VM closure without context"});
    FFI_CORE_ASSIGN_OR_RETURN(Function tir, FindCompiledFunction(state, *info));
    return CallVMFunction(state, info, tir, PackedArgs(args.data() + 1, args.size() - 1), rv);
  }
};

Expected<Function> GetFunction(ModuleObj* self, const char* name, size_t size) {
  VMStateObj* state = StateOf(self);
  if (VMFunctionInfo* info = FindInfo(state, name, size)) {
    if (info->kind != kVMTIRFunc) {
      return RaiseError(ErrorKind::kNotImplementedError,
                        {"Relax function built in bytecode mode: ffi-core runs "
                         "exec_mode=\"compiled\" executables only"});
    }
    FFI_CORE_ASSIGN_OR_RETURN(Function tir, FindCompiledFunction(state, *info));
    return Function::FromPacked(
        Entry{ObjectPtr<ModuleObj>::Retain(state->library), state, info, std::move(tir)});
  }
  return FindBuiltin(name, size);
}

void Destroy(ModuleObj* self) { ObjectDecRef(&StateOf(self)->header); }

constexpr ModuleKind kExecutableKind{&GetFunction, &Destroy, "relax.VMExecutable"};

Expected<Module> LoadExecutable(const Module& library, const uint8_t* data, size_t size) {
  FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<VMStateObj> state,
                            ParseExecutable(library.object().get(), data, size));
  FFI_CORE_RETURN_IF_ERROR(FillFunctionPool(state.get()));
  FFI_CORE_RETURN_IF_ERROR(FindPlannedMains(state.get()));
  VMStateObj* raw = state.get();
  ObjectIncRef(&raw->header);
  Expected<Module> m = Module::Create(&kExecutableKind, raw);
  if (!m.ok()) ObjectDecRef(&raw->header);
  return m;
}

}  // namespace

Status FillFunctionPool(VMStateObj* state) {
  for (size_t i = 0; i < state->num_infos; ++i) {
    const VMFunctionInfo& info = state->infos()[i];
    Function f;
    if (info.kind == kVMPackedFunc) {
      FFI_CORE_ASSIGN_OR_RETURN(f, FindBuiltin(info.name, info.name_size));
      if (!f) {
        FFI_CORE_ASSIGN_OR_RETURN(f, GetGlobalFunction(info.name, info.name_size));
      }
    } else if (info.kind == kVMTIRFunc) {
      FFI_CORE_ASSIGN_OR_RETURN(f, Function::FromPacked(PoolEntry{state, &state->infos()[i]}));
    }
    // What is not found stays None: compiled code calls kernels directly.
    if (f) state->functions->items()[i] = Any(f);
  }
  return Status::Ok();
}

Expected<Function> FindCompiledFunction(VMStateObj* state, const VMFunctionInfo& info) {
  // "__vmtir__<name>" from the library, as TVM's VM finds it.
  char symbol[sizeof(kTIRPrefix) + kMaxSymbolName];
  if (info.name_size >= kMaxSymbolName) {
    return RaiseError(ErrorKind::kValueError, {"Relax function name too long"});
  }
  std::memcpy(symbol, kTIRPrefix, sizeof(kTIRPrefix) - 1);
  std::memcpy(symbol + sizeof(kTIRPrefix) - 1, info.name, info.name_size);
  const size_t symbol_size = sizeof(kTIRPrefix) - 1 + info.name_size;
  const Module library(ObjectPtr<ModuleObj>::Retain(state->library));
  FFI_CORE_ASSIGN_OR_RETURN(Function tir, library.GetFunction(symbol, symbol_size));
  if (!tir) {
    return RaiseError(ErrorKind::kRuntimeError,
                      {"the library has no compiled Relax function __vmtir__ for this executable "
                       "(was it built with exec_mode=\"compiled\"?)"});
  }
  return tir;
}

namespace {

// Out of line, as every step of a call that is not the call itself: their
// frames are not on the stack under the compiled function (and the kernels).
[[gnu::cold, gnu::noinline]] Status WrongArgumentCount(const VMFunctionInfo& info, int32_t got) {
  return RaiseError(
      ErrorKind::kTypeError,
      {"Relax function expects ", static_cast<long long>(info.num_args), " arguments, got ", got});
}

// The call's register file: the spare one, or a new one.
[[gnu::noinline]] Expected<ObjectPtr<AnyListObj>> TakeRegisters(VMFunctionInfo* info) {
  ObjectPtr<AnyListObj> regs = ObjectPtr<AnyListObj>::Adopt(PoolTakeRegisters(info));
  if (regs) return regs;
  return NewAnyList(static_cast<size_t>(info->register_file_size));
}

// The arguments into the first registers.
[[gnu::noinline]] Status PutArguments(AnyListObj* regs, PackedArgs args) {
  for (int32_t i = 0; i < args.size(); ++i) {
    FFI_CORE_ASSIGN_OR_RETURN(regs->items()[i], Any::FromView(args[i]));
  }
  return Status::Ok();
}

}  // namespace

Status CallVMFunction(VMStateObj* state, VMFunctionInfo* info, const Function& tir, PackedArgs args,
                      Any* rv) {
  if (info->planned != nullptr) {
    Status planned;
    if (CallPlanned(state, info, args, rv, &planned)) return planned;
  }
  if (args.size() != info->num_args) return WrongArgumentCount(*info, args.size());
  PoolBeginCall(state);
  FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<AnyListObj> regs, TakeRegisters(info));
  Status status = PutArguments(regs.get(), args);
  if (status.ok()) {
    Expected<Any> done = tir(static_cast<void*>(state), static_cast<void*>(regs->items()),
                             static_cast<void*>(state->constants->items()),
                             static_cast<void*>(state->functions->items()));
    if (done.ok()) {
      // The result is left after the inputs.
      *rv = std::move(regs->items()[info->num_args]);
    } else {
      status = done.status();
    }
  }
  PoolKeepRegisters(info, std::move(regs));
  // A failed call gives back all it made, the pool included.
  if (!status.ok()) PoolRelease(state);
  return status;
}

// Registered by the first use of the any-list API, which every compiled
// Relax library calls, so linking one links this loader.
void RegisterExecutableLoader() {
  // A full loader table leaves the error in the slot; loading the library
  // then reports the missing loader.
  (void)RegisterLibraryBinLoader("relax.VMExecutable", &LoadExecutable);
}

}  // namespace tvm_vm
}  // namespace ffi_core
