/*
 * ffi-core: the Relax VM runtime for TVM's compiled-mode executables.
 *
 * A library built by `relax.build(..., exec_mode="compiled")` embeds its
 * executable (constants and function table) in __tvm_ffi__library_bin; once
 * the library is linked in (the system library) or loaded (the host), its
 * Relax functions ("main") are found with ffi.ModuleGetFunction and called
 * with DLTensors or Tensors. Memory (storage, tensors, register files) comes
 * from ffi-core's installed allocator; constants stay where the library put
 * them when their alignment allows. What a call makes is kept for the next
 * call of the same executable (under the same allocator), which then makes
 * nothing again; a failed call, FFICoreTVMReleaseKept and unloading the
 * executable give it back.
 *
 * The entry points below are what the generated code calls. C99 and C++.
 */
#ifndef FFI_CORE_TVM_VM_H_
#define FFI_CORE_TVM_VM_H_

#include <tvm/runtime/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies item `index` of an any-list (a register file or pool) into
 * args[arg_offset] as a borrowed view. */
TVM_RUNTIME_DLL int TVMBackendAnyListSetPackedArg(void* anylist, int index, TVMFFIAny* args,
                                                  int arg_offset);
/* Releases item `index` of an any-list (sets it to None). */
TVM_RUNTIME_DLL int TVMBackendAnyListResetItem(void* anylist, int index);
/* Moves args[ret_offset] (an owned return value) into item `index`. */
TVM_RUNTIME_DLL int TVMBackendAnyListMoveFromPackedReturn(void* anylist, int index, TVMFFIAny* args,
                                                          int ret_offset);

typedef struct {
  size_t constants;             /* constants of the executable */
  size_t constants_in_place;    /* of those, tensors used from the library's bytes */
  size_t constant_bytes_copied; /* bytes of misaligned constant tensors copied */
  size_t storage_allocations;   /* vm.builtin.alloc_storage calls, all runs */
  size_t storage_bytes;         /* bytes they asked for, all runs */
} FFICoreTVMVMStats;

/* Counters of every executable loaded so far. */
TVM_DLL void FFICoreTVMGetVMStats(FFICoreTVMVMStats* out);

/* Gives back what every loaded executable keeps from one call to the next
 * (its storage, tensors and register files); the next call makes them again. */
TVM_DLL void FFICoreTVMReleaseKept(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FFI_CORE_TVM_VM_H_ */
