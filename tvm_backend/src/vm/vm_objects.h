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
#include <ffi_core/tensor.h>
#include <ffi_core/tvm_kernel_plan.h>

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

struct VMStateObj;

// vm.builtin.alloc_storage's result: a block tensors are carved from.
struct StorageObj {
  TVMFFIObject header;
  void* data;  // from AllocateBuffer
  size_t size;
  VMStateObj* pool;  // the state whose pool keeps it (VMPool), or NULL
  ~StorageObj();
};
Expected<ObjectPtr<StorageObj>> NewStorage(size_t size, size_t alignment);
// The storage behind an Any, or NULL when it holds something else.
StorageObj* AsStorage(const TVMFFIAny& value);
// A tensor at `offset` in `storage`, holding it (a ValueError where it does
// not fit).
Expected<Tensor> StorageTensor(StorageObj* storage, int64_t offset, IntSpan shape,
                               DLDataType dtype);

// What a state keeps from one call to the next so that the next makes
// nothing again (vm_pool.cc): the storages alloc_storage made and the
// tensors alloc_tensor carved from them, each handed out again when no one
// else holds it and the request is the same. All of it came from
// `allocator`.
// FFI_CORE_TVM_VM_KEPT_STORAGES 0 keeps nothing, register files included:
// each call then gives its memory back (a board with little RAM).
struct VMPool {
  static constexpr size_t kStorages = FFI_CORE_TVM_VM_KEPT_STORAGES;
  static constexpr size_t kTensors = FFI_CORE_TVM_VM_KEPT_TENSORS;
  TVMFFICustomAllocator* allocator;  // TVMFFIGetCustomAllocator() when it was filled
  Allocator* heap;                   // and GetAllocator()
  size_t num_storages;
  size_t num_tensors;
  size_t next_tensor;  // where the next alloc_tensor starts looking: calls repeat their order
  StorageObj* storages[kStorages > 0 ? kStorages : 1];
  TVMFFIObject* tensors[kTensors > 0 ? kTensors : 1];
};

// One entry of the executable's function table.
struct VMFunctionInfo {
  const char* name;  // borrowed from the executable's bytes
  size_t name_size;
  int32_t kind;  // kVMPackedFunc, kVMBytecodeFunc or kVMTIRFunc
  int64_t num_args;
  int64_t register_file_size;
  AnyListObj* spare_registers;  // a cleared register file kept for the next call, or NULL
  // The function as a plan the VM runs itself (vm_planned.cc), or NULL; and
  // the output it keeps from call to call, or NULL.
  const FFICoreTVMPlannedMain* planned;
  TVMFFIObject* planned_output;
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
  VMPool pool;
  VMStateObj* next_live;  // the list of live states (FindLiveState)
  size_t num_infos;
  VMFunctionInfo* infos() { return TrailingOf<VMFunctionInfo>(this); }
  ~VMStateObj();
};

// The pool's operations (vm_pool.cc). The states alive, so that the context
// pointer compiled code hands its builtins is used only when it is one.
void AddLiveState(VMStateObj* state);
void RemoveLiveState(VMStateObj* state);
// Before a call: a pool filled under another allocator is given back first.
void PoolBeginCall(VMStateObj* state);
// Gives back all the pool keeps: after a failed call, and when the state goes.
void PoolRelease(VMStateObj* state);
// An alloc_storage of `bytes` for `ctx` (the builtin's context argument),
// counted, under one lock: the live state ctx points at (*state, or NULL)
// and a kept storage of `bytes` no one else holds, with a reference for the
// caller, or NULL; and a new storage to keep (while there is room).
StorageObj* PoolTakeStorage(const TVMFFIAny& ctx, size_t bytes, VMStateObj** state);
void PoolKeepStorage(VMStateObj* state, StorageObj* storage);
// A kept tensor of `storage` at `offset` with this shape and dtype that no
// one else holds, with a reference for the caller, or NULL; and a new one to
// keep (when its storage is kept and there is room).
TVMFFIObject* PoolTakeTensor(StorageObj* storage, int64_t offset, IntSpan shape, DLDataType dtype);
void PoolKeepTensor(StorageObj* storage, TVMFFIObject* tensor);
// The spare register file of `info` (cleared), taken, or NULL; and a used
// one cleared and kept as the spare (or released when there is one).
AnyListObj* PoolTakeRegisters(VMFunctionInfo* info);
void PoolKeepRegisters(VMFunctionInfo* info, ObjectPtr<AnyListObj> regs);

// Parses an executable's bytes (TVM's VMExecutable serialization) into a
// state whose constants view `data` where they are aligned well enough.
Expected<ObjectPtr<VMStateObj>> ParseExecutable(ModuleObj* library, const uint8_t* data,
                                                size_t size);
// Counts one vm.builtin.alloc_storage of `bytes` (FFICoreTVMGetVMStats); the
// caller holds the global lock.
void NoteStorage(size_t bytes);
// Fills the function pool: closures for the executable's own functions,
// builtins and globals for the rest. Needs the library's symbols.
Status FillFunctionPool(VMStateObj* state);
// The compiled TIR entry of `info` in the state's library.
Expected<Function> FindCompiledFunction(VMStateObj* state, const VMFunctionInfo& info);
// Calls VM function `info` through its compiled TIR entry `tir` with `args`.
Status CallVMFunction(VMStateObj* state, VMFunctionInfo* info, const Function& tir, PackedArgs args,
                      Any* rv);
// The planned mains (vm_planned.cc): each TIR function's the library
// registers as ffi_core_planned_<name>, checked against the executable.
Status FindPlannedMains(VMStateObj* state);
// Runs `info`'s plan when the inputs fit it and its output is free: true
// with *status then, false for TVM's main to run the call.
bool CallPlanned(VMStateObj* state, VMFunctionInfo* info, PackedArgs args, Any* rv, Status* status);
// Gives back the output `info` keeps.
void ReleasePlanned(VMFunctionInfo* info);
// Registers the "relax.VMExecutable" library_bin loader.
void RegisterExecutableLoader();
// The builtin `vm.builtin.<name>`, or an empty Function.
Expected<Function> FindBuiltin(const char* name, size_t size);

}  // namespace tvm_vm
}  // namespace ffi_core

#endif  // FFI_CORE_TVM_BACKEND_VM_OBJECTS_H_
