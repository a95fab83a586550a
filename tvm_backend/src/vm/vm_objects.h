// Internal to the Relax VM runtime: the objects it makes. Each is an
// ffi-core object with trailing storage, released through its reference
// count like any other.
#ifndef FFI_CORE_TVM_BACKEND_VM_OBJECTS_H_
#define FFI_CORE_TVM_BACKEND_VM_OBJECTS_H_

#include <ffi_core/allocator.h>
#include <ffi_core/any.h>
#include <ffi_core/function.h>
#include <ffi_core/module.h>
#include <ffi_core/object.h>
#include <ffi_core/object_ptr.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace tvm_vm {

// A fixed run of Anys: a register file, the constant or function pool. The
// generated code reaches the items through TVMBackendAnyList*.
struct AnyListObj {
  TVMFFIObject header;
  size_t size;
  ~AnyListObj();
  Any* items() { return TrailingOf<Any>(this); }
};
Expected<ObjectPtr<AnyListObj>> NewAnyList(size_t size);

// vm.builtin.alloc_storage's result: a block tensors are carved from.
struct StorageObj {
  TVMFFIObject header;
  void* data;  // from AllocateBuffer
  size_t size;
  ~StorageObj();
};
Expected<ObjectPtr<StorageObj>> NewStorage(size_t size, size_t alignment);
// The storage behind an Any, or NULL when it holds something else.
StorageObj* AsStorage(const TVMFFIAny& value);

// One entry of the executable's function table.
struct VMFunctionInfo {
  const char* name;  // borrowed from the executable's bytes
  size_t name_size;
  int32_t kind;  // kVMPackedFunc, kVMBytecodeFunc or kVMTIRFunc
  int64_t num_args;
  int64_t register_file_size;
};
inline constexpr int32_t kVMPackedFunc = 0;
inline constexpr int32_t kVMBytecodeFunc = 1;
inline constexpr int32_t kVMTIRFunc = 2;

// A loaded executable: the state of its module. `library` is the module
// that embeds it and imports it, so it is not owned here.
struct VMStateObj {
  TVMFFIObject header;
  ModuleObj* library;
  ObjectPtr<AnyListObj> constants;
  ObjectPtr<AnyListObj> functions;  // the function pool, as the VM passes it
  size_t num_infos;
  VMFunctionInfo* infos() { return TrailingOf<VMFunctionInfo>(this); }
};

// Parses an executable's bytes (TVM's VMExecutable serialization) into a
// state whose constants view `data` where they are aligned well enough.
Expected<ObjectPtr<VMStateObj>> ParseExecutable(ModuleObj* library, const uint8_t* data,
                                                size_t size);
// Counts one vm.builtin.alloc_storage of `bytes` (FFICoreTVMGetVMStats).
void NoteStorage(size_t bytes);
// Fills the function pool: closures for the executable's own functions,
// builtins and globals for the rest. Needs the library's symbols.
Status FillFunctionPool(VMStateObj* state);
// Calls VM function `info` (a compiled TIR entry) with `args`.
Status CallVMFunction(VMStateObj* state, const VMFunctionInfo& info, PackedArgs args, Any* rv);
// Registers the "relax.VMExecutable" library_bin loader.
void RegisterExecutableLoader();
// The builtin `vm.builtin.<name>`, or an empty Function.
Expected<Function> FindBuiltin(const char* name, size_t size);

}  // namespace tvm_vm
}  // namespace ffi_core

#endif  // FFI_CORE_TVM_BACKEND_VM_OBJECTS_H_
