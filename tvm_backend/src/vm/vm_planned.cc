// A planned main (FFICoreTVMPlannedMain, tvm_kernel_plan.h) run without
// TVM's compiled main: the builtin calls that check the inputs, allocate the
// storage and make its tensors cost thousands of instructions an inference
// on a Cortex-M, more than a small model's kernels on Helium. Here the
// output tensor is kept from call to call, its allocation holding the
// storage (output, then workspace), the table's pointers and the plan's
// views made once; a call checks its inputs against the plan, takes the
// kept output while no one else holds it, and runs the plan. Anything else
// (an input of another layout, a result the caller still holds) goes
// through TVM's main, which raises its own errors or allocates anew.
#include <ffi_core/align.h>
#include <ffi_core/error.h>
#include <ffi_core/tvm_kernel_plan.h>

#include <cstring>

#include "support/global_lock_guard.h"
#include "vm_objects.h"

namespace ffi_core {
namespace tvm_vm {
namespace {

constexpr char kPlannedPrefix[] = "ffi_core_planned_";

// The table function's pointers: the inputs, the constants, the workspace
// and the output.
uint32_t NumBases(const FFICoreTVMPlannedMain& m) { return m.num_inputs + m.num_constants + 2; }

// Where the kept allocation holds the pointers and the views.
size_t BasesAt(const FFICoreTVMPlannedMain& m) { return AlignUp(m.storage_bytes, alignof(void*)); }
size_t ViewsAt(const FFICoreTVMPlannedMain& m) {
  return AlignUp(BasesAt(m) + NumBases(m) * sizeof(void*), alignof(DLTensor));
}

void** Bases(const FFICoreTVMPlannedMain& m, void* data) {
  return reinterpret_cast<void**>(static_cast<char*>(data) + BasesAt(m));
}
DLTensor* Views(const FFICoreTVMPlannedMain& m, void* data) {
  return reinterpret_cast<DLTensor*>(static_cast<char*>(data) + ViewsAt(m));
}

bool SameType(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

// The DLTensor of a tensor argument, or NULL.
const DLTensor* TensorOf(const TVMFFIAny& a) {
  if (a.type_index == kTVMFFITensor) return &reinterpret_cast<const TensorObj*>(a.v_obj)->tensor;
  if (a.type_index == kTVMFFIDLTensorPtr) return static_cast<const DLTensor*>(a.v_ptr);
  return nullptr;
}

// `t` a compact CPU tensor of `spec`'s ndim, dtype and shape.
bool Fits(const DLTensor& t, const FFICoreTVMKernelArg& spec) {
  if (t.device.device_type != kDLCPU || t.ndim != spec.ndim || !SameType(t.dtype, spec.dtype)) {
    return false;
  }
  int64_t stride = 1;
  for (int32_t d = spec.ndim - 1; d >= 0; --d) {
    if (t.shape[d] != spec.shape[d]) return false;
    if (t.strides != nullptr && spec.shape[d] != 1 && t.strides[d] != stride) return false;
    stride *= spec.shape[d];
  }
  return true;
}

// A new output for `m`: a tensor at the start of a storage that also
// holds the workspace, the table's pointers (the constants' and the
// storage's set here) and the plan's views, made once the inputs' are in.
[[gnu::noinline]] Expected<Tensor> MakeKept(VMStateObj* state, const FFICoreTVMPlannedMain& m) {
  FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<StorageObj> storage,
                            NewStorage(ViewsAt(m) + m.plan->num_tensors * sizeof(DLTensor),
                                       FFI_CORE_TVM_KERNEL_PLAN_ALIGNMENT));
  const FFICoreTVMKernelArg& out = m.output;
  FFI_CORE_ASSIGN_OR_RETURN(
      Tensor t, StorageTensor(storage.get(), 0, IntSpan{out.shape, out.ndim}, out.dtype));
  {
    detail::GlobalLockGuard lock;
    NoteStorage(m.storage_bytes);
  }
  void* data = storage->data;
  void** bases = Bases(m, data);
  for (uint32_t k = 0; k < m.num_constants; ++k) {
    const DLTensor& c =
        reinterpret_cast<TensorObj*>(state->constants->items()[m.constants[k]].raw().v_obj)->tensor;
    bases[m.num_inputs + k] = static_cast<char*>(c.data) + c.byte_offset;
  }
  bases[m.num_inputs + m.num_constants] = static_cast<char*>(data) + m.workspace_offset;
  bases[m.num_inputs + m.num_constants + 1] = data;
  return t;
}

// The kept output with a reference for the caller, when no one else holds
// it; NULL otherwise.
TVMFFIObject* TakeKept(VMFunctionInfo* info) {
  detail::GlobalLockGuard lock;
  TVMFFIObject* kept = info->planned_output;
  if (kept == nullptr || port::RefStrongCount(kept) != 1) return nullptr;
  ObjectIncRef(kept);
  return kept;
}

Status Malformed(const char* what) {
  return RaiseError(ErrorKind::kValueError, {"planned main: ", what});
}

}  // namespace

Status FindPlannedMains(VMStateObj* state) {
  if (VMPool::kStorages == 0) return Status::Ok();  // nothing kept: TVM's main
  const Module library(ObjectPtr<ModuleObj>::Retain(state->library));
  for (size_t i = 0; i < state->num_infos; ++i) {
    VMFunctionInfo& info = state->infos()[i];
    char name[sizeof(kPlannedPrefix) + kMaxSymbolName];
    if (info.kind != kVMTIRFunc || info.name_size >= kMaxSymbolName) continue;
    std::memcpy(name, kPlannedPrefix, sizeof(kPlannedPrefix) - 1);
    std::memcpy(name + sizeof(kPlannedPrefix) - 1, info.name, info.name_size);
    FFI_CORE_ASSIGN_OR_RETURN(
        Function f, library.GetFunction(name, sizeof(kPlannedPrefix) - 1 + info.name_size));
    if (!f) continue;
    FFI_CORE_ASSIGN_OR_RETURN(Any got, f());
    if (got.raw().type_index != kTVMFFIOpaquePtr || got.raw().v_ptr == nullptr) {
      return Malformed("its function returned no pointer");
    }
    const auto* m = static_cast<const FFICoreTVMPlannedMain*>(got.raw().v_ptr);
    // What ties the plan to this executable is checked; the plan's own
    // steps come from the same compile as the kernels they call.
    const FFICoreTVMKernelPlan& plan = *m->plan;
    if (m->num_inputs != info.num_args || m->output.base != NumBases(*m) - 1 ||
        m->workspace_offset > m->storage_bytes ||
        plan.max_args > FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS ||
        plan.num_input_tensors > plan.num_tensors) {
      return Malformed("its inputs, output or storage");
    }
    for (uint32_t k = 0; k < m->num_constants; ++k) {
      if (m->constants[k] >= state->constants->size ||
          state->constants->items()[m->constants[k]].raw().type_index != kTVMFFITensor) {
        return Malformed("a constant not a tensor of the executable's");
      }
    }
    info.planned = m;
  }
  return Status::Ok();
}

bool CallPlanned(VMStateObj* state, VMFunctionInfo* info, PackedArgs args, Any* rv,
                 Status* status) {
  const FFICoreTVMPlannedMain& m = *info->planned;
  if (args.size() != static_cast<int32_t>(m.num_inputs)) return false;
  for (uint32_t k = 0; k < m.num_inputs; ++k) {
    const DLTensor* t = TensorOf(args.data()[k].raw());
    if (t == nullptr || !Fits(*t, m.inputs[k])) return false;
  }
  PoolBeginCall(state);
  bool made = false;
  Tensor out(ObjectPtr<TensorObj>::Adopt(reinterpret_cast<TensorObj*>(TakeKept(info))));
  if (!out.object()) {
    // Not made yet, or held: TVM's main allocates anew for a held one.
    if (info->planned_output != nullptr) return false;
    Expected<Tensor> fresh = MakeKept(state, m);
    if (!fresh.ok()) {
      *status = fresh.status();
      return true;
    }
    out = std::move(*fresh);
    made = true;
  }
  void* data = out.object()->tensor.data;
  void** bases = Bases(m, data);
  for (uint32_t k = 0; k < m.num_inputs; ++k) {
    const DLTensor* t = TensorOf(args.data()[k].raw());
    bases[k] = static_cast<char*>(t->data) + t->byte_offset;
  }
  DLTensor* views = Views(m, data);
  if (made) {
    FFICoreTVMPrepareKernelPlan(m.plan, bases, views);
    detail::GlobalLockGuard lock;
    if (info->planned_output == nullptr) {
      ObjectIncRef(&out.object()->header);
      info->planned_output = &out.object()->header;
    }
  }
  if (FFICoreTVMRunPreparedKernelPlan(m.plan, bases, views) != 0) {
    *status = StatusFromPendingError();
    return true;
  }
  *rv = Any(out);
  *status = Status::Ok();
  return true;
}

void ReleasePlanned(VMFunctionInfo* info) {
  TVMFFIObject* kept = nullptr;
  {
    detail::GlobalLockGuard lock;
    kept = info->planned_output;
    info->planned_output = nullptr;
  }
  if (kept != nullptr) ObjectDecRef(kept);
}

}  // namespace tvm_vm
}  // namespace ffi_core
