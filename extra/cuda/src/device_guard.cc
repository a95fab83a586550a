#include <ffi_core/cuda/check.h>
#include <ffi_core/cuda/device_guard.h>

#include <utility>

namespace ffi_core {
namespace cuda {

DeviceGuard DeviceGuard::Quiet(int device) {
  DeviceGuard guard;
  int current = -1;
  cudaError_t error = cudaGetDevice(&current);
  if (error == cudaSuccess) {
    guard.original_ = current;
    // Only switch when needed: cudaSetDevice on the current device is a
    // wasted runtime call on every kernel launch.
    if (current != device) {
      error = cudaSetDevice(device);
      guard.restore_ = error == cudaSuccess;
    }
  }
  if (error != cudaSuccess) cudaGetLastError();  // reported through error(), not later launches
  guard.error_ = error;
  return guard;
}

Expected<DeviceGuard> DeviceGuard::Create(int device) {
  if (device < 0)
    return RaiseError(ErrorKind::kValueError, {"DeviceGuard: negative CUDA device id ", device});
  DeviceGuard guard = Quiet(device);
  if (!guard.ok()) {
    return RaiseCudaError(ErrorKind::kRuntimeError,
                          {"DeviceGuard: cannot make CUDA device ", device, " current"},
                          guard.error());
  }
  return Expected<DeviceGuard>(std::move(guard));
}

DeviceGuard::DeviceGuard(DeviceGuard&& other) noexcept
    : original_(other.original_), restore_(other.restore_), error_(other.error_) {
  other.restore_ = false;
}

DeviceGuard::~DeviceGuard() {
  // A destructor cannot report; a failed restore is dropped rather than
  // left to surface in an unrelated later check.
  if (restore_ && cudaSetDevice(original_) != cudaSuccess) cudaGetLastError();
}

}  // namespace cuda
}  // namespace ffi_core
