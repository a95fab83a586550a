#include <ffi_core/status.h>

namespace ffi_core {

const char* ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kOk:
      return "Ok";
    case ErrorKind::kTypeError:
      return "TypeError";
    case ErrorKind::kValueError:
      return "ValueError";
    case ErrorKind::kIndexError:
      return "IndexError";
    case ErrorKind::kKeyError:
      return "KeyError";
    case ErrorKind::kMemoryError:
      return "MemoryError";
    case ErrorKind::kRuntimeError:
      return "RuntimeError";
    case ErrorKind::kNotImplementedError:
      return "NotImplementedError";
    case ErrorKind::kInternalError:
      return "InternalError";
  }
  return "RuntimeError";
}

}  // namespace ffi_core
