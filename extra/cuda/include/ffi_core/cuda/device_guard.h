// DeviceGuard: makes a CUDA device current for a scope and makes the
// previous one current again when the scope ends (cudaGetDevice, then
// cudaSetDevice; the counterpart of c10::cuda::CUDAGuard and upstream's
// CUDADeviceGuard). Failure is a value, never an exception:
//
//   FFI_CORE_ASSIGN_OR_RETURN(cuda::DeviceGuard guard, cuda::DeviceGuard::Create(id));
#ifndef FFI_CORE_CUDA_DEVICE_GUARD_H_
#define FFI_CORE_CUDA_DEVICE_GUARD_H_

#include <cuda_runtime_api.h>
#include <ffi_core/expected.h>

namespace ffi_core {
namespace cuda {

class DeviceGuard {
 public:
  // Makes `device` current. A negative id is a ValueError; a device the
  // runtime refuses (none present, bad ordinal) a RuntimeError with the CUDA
  // text. On failure the current device is unchanged.
  static Expected<DeviceGuard> Create(int device);
  // As Create, but raises nothing; see ok() and error(). For deleters and
  // destructors: they must not replace an error pending in the caller's slot.
  static DeviceGuard Quiet(int device);

  DeviceGuard(DeviceGuard&& other) noexcept;
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;
  DeviceGuard& operator=(DeviceGuard&&) = delete;
  ~DeviceGuard();

  bool ok() const { return error_ == cudaSuccess; }
  cudaError_t error() const { return error_; }
  // The device current before the guard (restored by the destructor); -1
  // when cudaGetDevice failed.
  int original_device() const { return original_; }

 private:
  DeviceGuard() = default;

  int original_ = -1;
  bool restore_ = false;  // false when nothing changed or after a move
  cudaError_t error_ = cudaSuccess;
};

}  // namespace cuda
}  // namespace ffi_core

#endif  // FFI_CORE_CUDA_DEVICE_GUARD_H_
