// Status: the outcome of an operation as a value. Failures carry an
// ErrorKind; the matching message is already in the caller's error slot
// (see error.h), so a Status is one byte and copies for free.
#ifndef FFI_CORE_STATUS_H_
#define FFI_CORE_STATUS_H_

#include <cstddef>
#include <cstdint>

namespace ffi_core {

// Error kinds use the names Python frontends map to exception classes.
enum class ErrorKind : uint8_t {
  kOk = 0,
  kTypeError,
  kValueError,
  kIndexError,
  kKeyError,
  kMemoryError,
  kRuntimeError,
  kNotImplementedError,
  kInternalError,
};

// The kind's name as it appears in TVMFFIErrorCell::kind.
const char* ErrorKindName(ErrorKind kind);
// The kind of a name; unknown names (and "Ok") map to kRuntimeError.
ErrorKind ErrorKindFromName(const char* name, size_t size);

// [[nodiscard]]: a dropped Status is a dropped error.
class [[nodiscard]] Status {
 public:
  constexpr Status() = default;
  constexpr explicit Status(ErrorKind kind) : kind_(kind) {}
  static constexpr Status Ok() { return Status(); }

  constexpr bool ok() const { return kind_ == ErrorKind::kOk; }
  constexpr ErrorKind kind() const { return kind_; }
  // 0 on success, -1 on failure: the C ABI's return convention.
  constexpr int ToReturnCode() const { return ok() ? 0 : -1; }

 private:
  ErrorKind kind_ = ErrorKind::kOk;
};

namespace detail {
// The Status of a Status, or of anything with status() (an Expected).
constexpr Status StatusOf(Status s) { return s; }
template <typename E>
constexpr Status StatusOf(const E& e) {
  return e.status();
}
}  // namespace detail

}  // namespace ffi_core

// Propagates a failed Status, or the Status of a failed Expected, to the caller.
#define FFI_CORE_RETURN_IF_ERROR(expr)                       \
  do {                                                       \
    const auto& ffi_core_result_ = (expr);                   \
    if (!ffi_core_result_.ok()) {                            \
      return ::ffi_core::detail::StatusOf(ffi_core_result_); \
    }                                                        \
  } while (0)

#endif  // FFI_CORE_STATUS_H_
