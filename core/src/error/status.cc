// The names of the error kinds, in one table indexed by ErrorKind.
#include <ffi_core/same_bytes.h>
#include <ffi_core/status.h>

#include "error/error_kind_names.h"

namespace ffi_core {
namespace {

#define FFI_CORE_KIND_NAME(text) \
  TVMFFIByteArray { text, sizeof(text) - 1 }
constexpr TVMFFIByteArray kNames[] = {
    FFI_CORE_KIND_NAME("Ok"),           FFI_CORE_KIND_NAME("TypeError"),
    FFI_CORE_KIND_NAME("ValueError"),   FFI_CORE_KIND_NAME("IndexError"),
    FFI_CORE_KIND_NAME("KeyError"),     FFI_CORE_KIND_NAME("MemoryError"),
    FFI_CORE_KIND_NAME("RuntimeError"), FFI_CORE_KIND_NAME("NotImplementedError"),
    FFI_CORE_KIND_NAME("InternalError")};
#undef FFI_CORE_KIND_NAME
constexpr size_t kNumKinds = sizeof(kNames) / sizeof(kNames[0]);
static_assert(kNumKinds == static_cast<size_t>(ErrorKind::kInternalError) + 1,
              "one name per ErrorKind");

}  // namespace

const TVMFFIByteArray& ErrorKindNameBytes(ErrorKind kind) {
  const size_t i = static_cast<size_t>(kind);
  return kNames[i < kNumKinds ? i : static_cast<size_t>(ErrorKind::kRuntimeError)];
}

const char* ErrorKindName(ErrorKind kind) { return ErrorKindNameBytes(kind).data; }

ErrorKind ErrorKindFromName(const char* name, size_t size) {
  // From 1: kOk is no error's name.
  for (size_t i = 1; i < kNumKinds; ++i) {
    if (SameBytes(kNames[i].data, kNames[i].size, name, size)) {
      return static_cast<ErrorKind>(i);
    }
  }
  return ErrorKind::kRuntimeError;
}

}  // namespace ffi_core
