#include "checks.h"

#include <ffi_core/dtype.h>
#include <ffi_core/error.h>

#include <utility>

namespace ffi_core {
namespace cuda {
namespace examples {
namespace {

constexpr DLDataType kFloat32{kDLFloat, 32, 1};
constexpr size_t kTextCapacity = 64;

const char* DeviceTypeName(int32_t device_type) {
  switch (device_type) {
    case kDLCPU:
      return "cpu";
    case kDLCUDA:
      return "cuda";
    case kDLCUDAHost:
      return "cuda_host";
    case kDLCUDAManaged:
      return "cuda_managed";
    default:
      return nullptr;
  }
}

// "cuda:0", or "device type 7:0" for kinds this library does not name.
void FormatDevice(DLDevice device, char (&buf)[kTextCapacity]) {
  size_t len = 0;
  buf[0] = '\0';
  const char* name = DeviceTypeName(device.device_type);
  if (name != nullptr) {
    MessagePart(name).AppendTo(buf, sizeof(buf), &len);
  } else {
    MessagePart("device type ").AppendTo(buf, sizeof(buf), &len);
    MessagePart(static_cast<int>(device.device_type)).AppendTo(buf, sizeof(buf), &len);
  }
  MessagePart(":").AppendTo(buf, sizeof(buf), &len);
  MessagePart(device.device_id).AppendTo(buf, sizeof(buf), &len);
}

// "[2, 3]"; a long shape is cut, which the error slot's length limit would do anyway.
void FormatShape(const TensorView& t, char (&buf)[kTextCapacity]) {
  size_t len = 0;
  buf[0] = '\0';
  bool fits = MessagePart("[").AppendTo(buf, sizeof(buf), &len);
  for (int32_t i = 0; fits && i < t.ndim(); ++i) {
    if (i != 0) fits = MessagePart(", ").AppendTo(buf, sizeof(buf), &len);
    fits =
        fits && MessagePart(static_cast<long long>(t.shape()[i])).AppendTo(buf, sizeof(buf), &len);
  }
  if (fits) MessagePart("]").AppendTo(buf, sizeof(buf), &len);
}

bool SameDType(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

Status CheckTensor(const char* func, const char* arg, const TensorView& t, int32_t device_type) {
  if (!t) return RaiseError(ErrorKind::kValueError, {func, ": ", arg, " is a NULL DLTensor*"});
  if (t.device().device_type != device_type) {
    char device[kTextCapacity];
    FormatDevice(t.device(), device);
    const char* want = device_type == kDLCUDA ? " must be a CUDA tensor, got one on "
                                              : " must be a CPU tensor, got one on ";
    return RaiseError(ErrorKind::kValueError, {func, ": ", arg, want, device});
  }
  if (!SameDType(t.dtype(), kFloat32)) {
    char dtype[kDataTypeNameCapacity];
    size_t size = 0;
    if (!DataTypeToString(t.dtype(), dtype, &size).ok()) {
      Error::MoveFromRaised();  // only the name failed; the TypeError below is the error
      dtype[0] = '?';
      dtype[1] = '\0';
    }
    return RaiseError(ErrorKind::kTypeError, {func, ": ", arg, " must be float32, got ", dtype});
  }
  if (!t.is_contiguous())
    return RaiseError(ErrorKind::kValueError, {func, ": ", arg, " must be contiguous"});
  return Status::Ok();
}

}  // namespace

Status CheckInput(const char* func, TensorView x, int32_t device_type) {
  return CheckTensor(func, "x", x, device_type);
}

Status CheckOutput(const char* func, TensorView x, TensorView y) {
  FFI_CORE_RETURN_IF_ERROR(CheckTensor(func, "y", y, x.device().device_type));
  if (y.device().device_id != x.device().device_id) {
    char xd[kTextCapacity];
    char yd[kTextCapacity];
    FormatDevice(x.device(), xd);
    FormatDevice(y.device(), yd);
    return RaiseError(ErrorKind::kValueError, {func, ": y is on ", yd, ", x on ", xd});
  }
  bool same = x.ndim() == y.ndim();
  for (int32_t i = 0; same && i < x.ndim(); ++i) same = x.shape()[i] == y.shape()[i];
  if (!same) {
    char xs[kTextCapacity];
    char ys[kTextCapacity];
    FormatShape(x, xs);
    FormatShape(y, ys);
    return RaiseError(ErrorKind::kValueError, {func, ": y has shape ", ys, ", x has shape ", xs});
  }
  return Status::Ok();
}

Expected<Tensor> RunIntoEnvOutput(const char* func, Op op, TensorView x, float factor,
                                  int32_t device_type, RunFn run) {
  FFI_CORE_RETURN_IF_ERROR(CheckInput(func, x, device_type));
  FFI_CORE_ASSIGN_OR_RETURN(Tensor y, Tensor::FromEnvAlloc(x.shape(), x.dtype(), x.device()));
  // The environment's allocator is someone else's code: check what it gave.
  FFI_CORE_RETURN_IF_ERROR(run(func, op, x, TensorView(y.GetDLTensor()), factor));
  return Expected<Tensor>(std::move(y));
}

}  // namespace examples
}  // namespace cuda
}  // namespace ffi_core
