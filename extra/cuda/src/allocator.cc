#include <ffi_core/allocator.h>
#include <ffi_core/config.h>
#include <ffi_core/cuda/allocator.h>
#include <ffi_core/cuda/check.h>
#include <ffi_core/cuda/device_guard.h>
#include <ffi_core/error.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace ffi_core {
namespace cuda {
namespace {

using SetErrorFn = void (*)(void* error_ctx, const char* kind, const char* message);

// The DLPack allocator's failures go to the caller's callback only: whoever
// installed the allocator decides where errors live (a Python frontend has
// its own), so ffi-core's slot is left alone.
int Fail(SetErrorFn set_error, void* ctx, ErrorKind kind,
         std::initializer_list<MessagePart> parts) {
  char message[kMessageCapacity];
  FormatMessage(message, sizeof(message), parts);
  if (set_error != nullptr) set_error(ctx, ErrorKindName(kind), message);
  return -1;
}
int FailCuda(SetErrorFn set_error, void* ctx, ErrorKind kind,
             std::initializer_list<MessagePart> context, cudaError_t error) {
  char message[kMessageCapacity];
  FormatCudaError(message, sizeof(message), context, error);
  if (set_error != nullptr) set_error(ctx, ErrorKindName(kind), message);
  return -1;
}

// Host memory from ffi-core's allocator, or the C library when none is
// installed. `host` is remembered so the same one gives it back.
void* HostAllocate(Allocator* host, size_t size, size_t alignment) {
  if (host != nullptr) return Allocate(*host, size, alignment);
  if (size > SIZE_MAX - alignment) return nullptr;
  // aligned_alloc wants a multiple of the alignment.
  return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
void HostFree(Allocator* host, void* ptr, size_t size, size_t alignment) {
  if (host != nullptr) {
    Deallocate(*host, ptr, size, alignment);
  } else {
    std::free(ptr);
  }
}

// One host block per tensor: the DLPack struct, what the deleter needs, and
// the shape the DLTensor points at.
struct ManagedBlock {
  DLManagedTensorVersioned managed;
  Allocator* host;
  size_t data_bytes;
  int64_t shape[FFI_CORE_TENSOR_MAX_NDIM];
};

// Deleters cannot report, so CUDA failures there (e.g. the runtime already
// unloading at exit) are cleared and dropped.
void FreeData(const ManagedBlock& block) {
  const DLTensor& t = block.managed.dl_tensor;
  if (t.data == nullptr) return;
  switch (t.device.device_type) {
    case kDLCPU:
      HostFree(block.host, t.data, block.data_bytes, kCpuDataAlignment);
      break;
    case kDLCUDA: {
      DeviceGuard guard = DeviceGuard::Quiet(t.device.device_id);
      if (cudaFree(t.data) != cudaSuccess) cudaGetLastError();
      break;
    }
    case kDLCUDAHost:
      if (cudaFreeHost(t.data) != cudaSuccess) cudaGetLastError();
      break;
    default:
      break;  // DLPackTensorAlloc makes no other kind
  }
}

void DeleteManaged(DLManagedTensorVersioned* self) {
  ManagedBlock* block = static_cast<ManagedBlock*>(self->manager_ctx);
  FreeData(*block);
  HostFree(block->host, block, sizeof(ManagedBlock), alignof(ManagedBlock));
}

int AllocateData(const DLDevice& device, size_t bytes, Allocator* host, void** data,
                 SetErrorFn set_error, void* ctx) {
  *data = nullptr;
  switch (device.device_type) {
    case kDLCPU:
      if (bytes == 0) return 0;
      *data = HostAllocate(host, bytes, kCpuDataAlignment);
      if (*data != nullptr) return 0;
      return Fail(set_error, ctx, ErrorKind::kMemoryError,
                  {"DLPackTensorAlloc: cannot allocate ", bytes, " bytes of CPU memory"});
    case kDLCUDA: {
      // The device is checked even for an empty tensor, so a bad id never
      // yields a tensor.
      DeviceGuard guard = DeviceGuard::Quiet(device.device_id);
      if (!guard.ok()) {
        return FailCuda(set_error, ctx, ErrorKind::kRuntimeError,
                        {"DLPackTensorAlloc: cannot use CUDA device ", device.device_id},
                        guard.error());
      }
      if (bytes == 0) return 0;
      const cudaError_t error = cudaMalloc(data, bytes);
      if (error == cudaSuccess) return 0;
      *data = nullptr;
      return FailCuda(
          set_error, ctx, ErrorKind::kMemoryError,
          {"DLPackTensorAlloc: cudaMalloc(", bytes, ") on CUDA device ", device.device_id}, error);
    }
    case kDLCUDAHost: {
      if (bytes == 0) return 0;
      const cudaError_t error = cudaMallocHost(data, bytes);
      if (error == cudaSuccess) return 0;
      *data = nullptr;
      return FailCuda(set_error, ctx, ErrorKind::kMemoryError,
                      {"DLPackTensorAlloc: cudaMallocHost(", bytes, ")"}, error);
    }
    default:
      return Fail(set_error, ctx, ErrorKind::kValueError,
                  {"DLPackTensorAlloc: unsupported device type ",
                   static_cast<int>(device.device_type), " (kDLCPU, kDLCUDA or kDLCUDAHost)"});
  }
}

}  // namespace

bool ComputeDataBytes(const DLTensor& tensor, size_t* bytes) {
  bool empty = false;
  for (int32_t i = 0; i < tensor.ndim; ++i) {
    if (tensor.shape[i] < 0 || (tensor.strides != nullptr && tensor.strides[i] < 0)) return false;
    empty = empty || tensor.shape[i] == 0;
  }
  if (empty) {
    *bytes = 0;
    return true;
  }
  // Elements reached: the product of the shape when compact, else
  // 1 + sum((shape[i] - 1) * strides[i]).
  uint64_t span = 1;
  for (int32_t i = 0; i < tensor.ndim; ++i) {
    const uint64_t size = static_cast<uint64_t>(tensor.shape[i]);
    if (tensor.strides == nullptr) {
      if (__builtin_mul_overflow(span, size, &span)) return false;
    } else {
      uint64_t reach = 0;
      if (__builtin_mul_overflow(size - 1, static_cast<uint64_t>(tensor.strides[i]), &reach) ||
          __builtin_add_overflow(span, reach, &span)) {
        return false;
      }
    }
  }
  uint64_t bits = 0;
  const uint64_t element_bits = uint64_t{tensor.dtype.bits} * tensor.dtype.lanes;
  if (__builtin_mul_overflow(span, element_bits, &bits) || bits > UINT64_MAX - 7) return false;
  const uint64_t total = (bits + 7) / 8;
  if (total != static_cast<size_t>(total)) return false;  // 32-bit size_t
  *bytes = static_cast<size_t>(total);
  return true;
}

Expected<size_t> DataBytes(const DLTensor& tensor) {
  size_t bytes = 0;
  if (!ComputeDataBytes(tensor, &bytes)) {
    return RaiseError(ErrorKind::kValueError,
                      {"tensor data size overflows size_t, or a stride is negative"});
  }
  return bytes;
}

Status CudaNDAlloc::AllocData(DLTensor* tensor) {
  tensor->data = nullptr;
  const DLDevice device = tensor->device;
  if (device.device_type != kDLCUDA) {
    return RaiseError(ErrorKind::kValueError,
                      {"CudaNDAlloc: device type ", static_cast<int>(device.device_type),
                       " is not kDLCUDA (", static_cast<int>(kDLCUDA), ")"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(const size_t bytes, DataBytes(*tensor));
  FFI_CORE_ASSIGN_OR_RETURN(DeviceGuard guard, DeviceGuard::Create(device.device_id));
  if (bytes == 0) return Status::Ok();
  void* data = nullptr;
  const cudaError_t error = cudaMalloc(&data, bytes);
  if (error != cudaSuccess) {
    return RaiseCudaError(
        ErrorKind::kMemoryError,
        {"CudaNDAlloc: cudaMalloc(", bytes, ") on CUDA device ", device.device_id}, error);
  }
  tensor->data = data;
  return Status::Ok();
}

void CudaNDAlloc::FreeData(DLTensor* tensor) {
  if (tensor->data == nullptr) return;
  // Quiet: the tensor may die while an error is pending in the slot.
  DeviceGuard guard = DeviceGuard::Quiet(tensor->device.device_id);
  if (cudaFree(tensor->data) != cudaSuccess) cudaGetLastError();
}

int DLPackTensorAlloc(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                      SetErrorFn set_error) {
  if (out != nullptr) *out = nullptr;
  if (prototype == nullptr || out == nullptr) {
    return Fail(set_error, error_ctx, ErrorKind::kValueError,
                {"DLPackTensorAlloc: NULL prototype or out"});
  }
  const DLTensor& proto = *prototype;
  if (proto.ndim < 0 || proto.ndim > FFI_CORE_TENSOR_MAX_NDIM) {
    return Fail(
        set_error, error_ctx, ErrorKind::kValueError,
        {"DLPackTensorAlloc: ndim ", proto.ndim, " outside [0, ", FFI_CORE_TENSOR_MAX_NDIM, "]"});
  }
  if (proto.ndim > 0 && proto.shape == nullptr) {
    return Fail(set_error, error_ctx, ErrorKind::kValueError, {"DLPackTensorAlloc: NULL shape"});
  }
  for (int32_t i = 0; i < proto.ndim; ++i) {
    if (proto.shape[i] < 0) {
      return Fail(set_error, error_ctx, ErrorKind::kValueError,
                  {"DLPackTensorAlloc: negative size ", proto.shape[i], " at axis ", i});
    }
  }
  if (proto.dtype.bits == 0 || proto.dtype.lanes == 0) {
    return Fail(set_error, error_ctx, ErrorKind::kValueError,
                {"DLPackTensorAlloc: dtype has zero bits or lanes"});
  }
  DLTensor compact = proto;
  compact.strides = nullptr;  // the result is compact whatever the prototype says
  size_t bytes = 0;
  if (!ComputeDataBytes(compact, &bytes)) {
    return Fail(set_error, error_ctx, ErrorKind::kValueError,
                {"DLPackTensorAlloc: tensor too large"});
  }

  Allocator* host = GetAllocator();
  void* memory = HostAllocate(host, sizeof(ManagedBlock), alignof(ManagedBlock));
  if (memory == nullptr) {
    return Fail(set_error, error_ctx, ErrorKind::kMemoryError,
                {"DLPackTensorAlloc: cannot allocate the DLPack struct"});
  }
  ManagedBlock* block = new (memory) ManagedBlock{};
  block->host = host;
  block->data_bytes = bytes;
  void* data = nullptr;
  if (AllocateData(proto.device, bytes, host, &data, set_error, error_ctx) != 0) {
    HostFree(host, memory, sizeof(ManagedBlock), alignof(ManagedBlock));
    return -1;
  }
  for (int32_t i = 0; i < proto.ndim; ++i) block->shape[i] = proto.shape[i];
  DLManagedTensorVersioned& m = block->managed;
  m.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m.manager_ctx = block;
  m.deleter = &DeleteManaged;
  m.flags = 0;
  m.dl_tensor.data = data;
  m.dl_tensor.device = proto.device;
  m.dl_tensor.ndim = proto.ndim;
  m.dl_tensor.dtype = proto.dtype;
  m.dl_tensor.shape = block->shape;
  m.dl_tensor.strides = nullptr;
  m.dl_tensor.byte_offset = 0;
  *out = &m;
  return 0;
}

}  // namespace cuda
}  // namespace ffi_core
