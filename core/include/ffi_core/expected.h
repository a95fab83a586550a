// Expected<T>: a T or the Status of why there is none. The failure's message
// sits in the error slot, as with Status.
#ifndef FFI_CORE_EXPECTED_H_
#define FFI_CORE_EXPECTED_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include <new>
#include <type_traits>
#include <utility>

namespace ffi_core {

namespace detail {
// `status` when it is a failure. An Expected built from an OK Status would
// be neither a value nor an error: that becomes an InternalError (raised, so
// the slot explains). Out of line: one call per construction site.
TVM_FFI_DLL Status FailureOrInternalError(Status status);
}  // namespace detail

template <typename T>
class [[nodiscard]] Expected {
 public:
  // Implicit so functions can `return value;` or `return status;`.
  Expected(T value) : status_(), has_value_(true) {  // NOLINT(runtime/explicit)
    new (&storage_) T(std::move(value));
  }
  // Never ok() without a value: see FailureOrInternalError.
  Expected(Status status)  // NOLINT(runtime/explicit)
      : status_(detail::FailureOrInternalError(status)), has_value_(false) {}

  Expected(Expected&& other) noexcept : status_(other.status_), has_value_(other.has_value_) {
    if (has_value_) new (&storage_) T(std::move(*other.ptr()));
  }
  Expected(const Expected& other) : status_(other.status_), has_value_(other.has_value_) {
    if (has_value_) new (&storage_) T(*other.ptr());
  }
  Expected& operator=(Expected other) noexcept {
    Reset();
    status_ = other.status_;
    has_value_ = other.has_value_;
    if (has_value_) new (&storage_) T(std::move(*other.ptr()));
    return *this;
  }
  ~Expected() { Reset(); }

  bool ok() const { return has_value_; }
  explicit operator bool() const { return has_value_; }
  Status status() const { return status_; }

  // Only valid when ok(); checked by callers, as with std::optional.
  T& value() & { return *ptr(); }
  const T& value() const& { return *ptr(); }
  T&& value() && { return std::move(*ptr()); }
  T* operator->() { return ptr(); }
  const T* operator->() const { return ptr(); }
  T& operator*() & { return *ptr(); }
  const T& operator*() const& { return *ptr(); }

 private:
  T* ptr() { return std::launder(reinterpret_cast<T*>(&storage_)); }
  const T* ptr() const { return std::launder(reinterpret_cast<const T*>(&storage_)); }
  void Reset() {
    if (has_value_) ptr()->~T();
    has_value_ = false;
  }

  std::aligned_storage_t<sizeof(T), alignof(T)> storage_;
  Status status_;
  bool has_value_;
};

}  // namespace ffi_core

// Evaluates an Expected; on failure returns its Status, else binds the value.
#define FFI_CORE_ASSIGN_OR_RETURN(lhs, expr)                        \
  auto FFI_CORE_CONCAT_(ffi_core_expected_, __LINE__) = (expr);     \
  if (!FFI_CORE_CONCAT_(ffi_core_expected_, __LINE__).ok())         \
    return FFI_CORE_CONCAT_(ffi_core_expected_, __LINE__).status(); \
  lhs = std::move(FFI_CORE_CONCAT_(ffi_core_expected_, __LINE__)).value()
#define FFI_CORE_CONCAT_(a, b) FFI_CORE_CONCAT_INNER_(a, b)
#define FFI_CORE_CONCAT_INNER_(a, b) a##b

#endif  // FFI_CORE_EXPECTED_H_
