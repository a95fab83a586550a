#include <ffi_core/cuda/check.h>

namespace ffi_core {
namespace cuda {

size_t FormatMessage(char* buf, size_t cap, std::initializer_list<MessagePart> parts) {
  size_t len = 0;
  buf[0] = '\0';
  for (const MessagePart& part : parts) {
    if (!part.AppendTo(buf, cap, &len)) break;
  }
  return len;
}

size_t FormatCudaError(char* buf, size_t cap, std::initializer_list<MessagePart> context,
                       cudaError_t error) {
  size_t len = FormatMessage(buf, cap, context);
  for (MessagePart part :
       {MessagePart(": "), MessagePart(cudaGetErrorString(error)), MessagePart(" ("),
        MessagePart(cudaGetErrorName(error)), MessagePart(")")}) {
    if (!part.AppendTo(buf, cap, &len)) break;
  }
  // Non-sticky errors stay as the runtime's "last error" until read; this
  // one is reported now, so it must not resurface in a later launch check.
  cudaGetLastError();
  return len;
}

Status RaiseCudaError(ErrorKind kind, std::initializer_list<MessagePart> context,
                      cudaError_t error) {
  // Twice the slot's room, so an over-long text reaches RaiseError whole
  // enough for the slot to cut it with its visible truncation marker.
  char message[2 * kMessageCapacity];
  FormatCudaError(message, sizeof(message), context, error);
  return RaiseError(kind, {message});
}

}  // namespace cuda
}  // namespace ffi_core
