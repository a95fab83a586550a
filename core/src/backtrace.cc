// TVMFFIBacktrace: ffi-core records no backtraces (no unwinder or symbols on
// an MCU), so every call gets the same empty array.
#include <tvm/ffi/c_api.h>

namespace {
const TVMFFIByteArray kNoBacktrace = {"", 0};
}  // namespace

extern "C" const TVMFFIByteArray* TVMFFIBacktrace(const char*, int, const char*, int) {
  return &kNoBacktrace;
}
