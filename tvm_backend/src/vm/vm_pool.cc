// The pool a VM state keeps between calls (VMPool): a model's main asks for
// the same storages and the same tensors in the same order on every call,
// so the second call on takes them from here instead of the heap. What is
// kept is handed out only while no one else holds it (a strong count of
// one: the pool's), so a result the caller still holds is never reused.
#include <ffi_core/allocator.h>
#include <ffi_core/tvm_vm.h>

#include "support/global_lock_guard.h"
#include "vm_objects.h"

namespace ffi_core {
namespace tvm_vm {
namespace {

VMStateObj* g_live = nullptr;  // the states alive, through next_live

bool Keeps(VMStateObj* state) {
  if (state->pool.num_storages != 0 || state->pool.num_tensors != 0) return true;
  for (size_t i = 0; i < state->num_infos; ++i) {
    const VMFunctionInfo& info = state->infos()[i];
    if (info.spare_registers != nullptr || info.planned_output != nullptr) return true;
  }
  return false;
}

bool SameLayout(const DLTensor& t, int64_t offset, IntSpan shape, DLDataType dtype) {
  if (t.byte_offset != static_cast<uint64_t>(offset) || t.ndim != shape.size ||
      t.dtype.code != dtype.code || t.dtype.bits != dtype.bits || t.dtype.lanes != dtype.lanes) {
    return false;
  }
  // A few dims, all compared: GCC makes an early-exit loop a memcmp call.
  uint64_t differ = 0;
  for (int32_t i = 0; i < shape.size; ++i) {
    differ |= static_cast<uint64_t>(t.shape[i] ^ shape.data[i]);
  }
  return differ == 0;
}

// Whether no one but the pool holds `s`: the pool itself and each tensor it
// keeps of `s` hold it, and those tensors are held by the pool alone.
bool OnlyPoolHolds(const VMPool& pool, StorageObj* s) {
  uint32_t holders = 1;
  for (size_t i = 0; i < pool.num_tensors; ++i) {
    if (reinterpret_cast<TensorObj*>(pool.tensors[i])->tensor.data != s->data) continue;
    if (port::RefStrongCount(pool.tensors[i]) != 1) return false;
    ++holders;
  }
  return port::RefStrongCount(&s->header) == holders;
}

// The state `ctx` points at, or NULL; the caller holds the global lock.
VMStateObj* FindLiveState(const TVMFFIAny& ctx) {
  if (ctx.type_index != kTVMFFIOpaquePtr) return nullptr;
  for (VMStateObj* s = g_live; s != nullptr; s = s->next_live) {
    if (s == ctx.v_ptr) return s;
  }
  return nullptr;
}

}  // namespace

void AddLiveState(VMStateObj* state) {
  detail::GlobalLockGuard lock;
  state->next_live = g_live;
  g_live = state;
}

void RemoveLiveState(VMStateObj* state) {
  detail::GlobalLockGuard lock;
  for (VMStateObj** at = &g_live; *at != nullptr; at = &(*at)->next_live) {
    if (*at == state) {
      *at = state->next_live;
      return;
    }
  }
}

void PoolBeginCall(VMStateObj* state) {
  TVMFFICustomAllocator* allocator = TVMFFIGetCustomAllocator();
  Allocator* heap = GetAllocator();
  if (state->pool.allocator == allocator && state->pool.heap == heap) return;
  // Memory kept from another allocator is not handed out under this one.
  PoolRelease(state);
  state->pool.allocator = allocator;
  state->pool.heap = heap;
}

void PoolRelease(VMStateObj* state) {
  VMPool kept;
  {
    detail::GlobalLockGuard lock;
    kept = state->pool;
    state->pool = VMPool{};
  }
  // Tensors first: each holds its storage.
  for (size_t i = 0; i < kept.num_tensors; ++i) ObjectDecRef(kept.tensors[i]);
  for (size_t i = 0; i < kept.num_storages; ++i) {
    kept.storages[i]->pool = nullptr;
    ObjectDecRef(&kept.storages[i]->header);
  }
  for (size_t i = 0; i < state->num_infos; ++i) {
    if (AnyListObj* spare = PoolTakeRegisters(&state->infos()[i])) ObjectDecRef(&spare->header);
    ReleasePlanned(&state->infos()[i]);
  }
}

StorageObj* PoolTakeStorage(const TVMFFIAny& ctx, size_t bytes, VMStateObj** state) {
  detail::GlobalLockGuard lock;
  NoteStorage(bytes);
  *state = FindLiveState(ctx);
  if (*state == nullptr) return nullptr;
  if (bytes == 0) bytes = 1;  // as NewStorage makes it
  VMPool& pool = (*state)->pool;
  for (size_t i = 0; i < pool.num_storages; ++i) {
    StorageObj* s = pool.storages[i];
    if (s->size == bytes && OnlyPoolHolds(pool, s)) {
      ObjectIncRef(&s->header);
      return s;
    }
  }
  return nullptr;
}

void PoolKeepStorage(VMStateObj* state, StorageObj* storage) {
  detail::GlobalLockGuard lock;
  VMPool& pool = state->pool;
  if (pool.num_storages >= VMPool::kStorages) return;
  ObjectIncRef(&storage->header);
  storage->pool = state;
  pool.storages[pool.num_storages++] = storage;
}

TVMFFIObject* PoolTakeTensor(StorageObj* storage, int64_t offset, IntSpan shape, DLDataType dtype) {
  detail::GlobalLockGuard lock;
  if (storage->pool == nullptr) return nullptr;
  VMPool& pool = storage->pool->pool;
  const size_t n = pool.num_tensors;
  size_t i = pool.next_tensor;
  for (size_t k = 0; k < n; ++k, ++i) {
    if (i >= n) i = 0;
    TVMFFIObject* obj = pool.tensors[i];
    const DLTensor& t = reinterpret_cast<TensorObj*>(obj)->tensor;
    // A tensor of another storage has other data: storages kept are alive.
    if (t.data == storage->data && SameLayout(t, offset, shape, dtype) &&
        port::RefStrongCount(obj) == 1) {
      ObjectIncRef(obj);
      pool.next_tensor = i + 1;
      return obj;
    }
  }
  return nullptr;
}

void PoolKeepTensor(StorageObj* storage, TVMFFIObject* tensor) {
  detail::GlobalLockGuard lock;
  if (storage->pool == nullptr) return;
  VMPool& pool = storage->pool->pool;
  if (pool.num_tensors >= VMPool::kTensors) return;
  ObjectIncRef(tensor);
  pool.tensors[pool.num_tensors++] = tensor;
  pool.next_tensor = pool.num_tensors;
}

AnyListObj* PoolTakeRegisters(VMFunctionInfo* info) {
  detail::GlobalLockGuard lock;
  AnyListObj* regs = info->spare_registers;
  info->spare_registers = nullptr;
  return regs;
}

void PoolKeepRegisters(VMFunctionInfo* info, ObjectPtr<AnyListObj> regs) {
  if (VMPool::kStorages == 0) return;  // nothing kept
  for (size_t i = 0; i < regs->size; ++i) regs->items()[i].reset();
  detail::GlobalLockGuard lock;
  if (info->spare_registers == nullptr) info->spare_registers = regs.release();
}

}  // namespace tvm_vm
}  // namespace ffi_core

extern "C" void FFICoreTVMReleaseKept(void) {
  using namespace ffi_core::tvm_vm;
  for (;;) {
    VMStateObj* state = nullptr;
    {
      ffi_core::detail::GlobalLockGuard lock;
      for (VMStateObj* s = g_live; s != nullptr && state == nullptr; s = s->next_live) {
        if (Keeps(s)) state = s;
      }
      // Alive while its pool goes: the release may drop other references.
      if (state != nullptr) ffi_core::ObjectIncRef(&state->header);
    }
    if (state == nullptr) return;
    PoolRelease(state);
    ffi_core::ObjectDecRef(&state->header);
  }
}
