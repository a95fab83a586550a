// Raising errors and reading them back. Errors are values: a failing
// function raises into the caller's error slot and returns a Status (or an
// Expected holding one); the C boundary turns that into a non-zero return.
#ifndef FFI_CORE_ERROR_H_
#define FFI_CORE_ERROR_H_

#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>
#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

namespace ffi_core {

// The ABI layout of an Error object: header, then the cell.
struct ErrorObj {
  TVMFFIObject header;
  TVMFFIErrorCell cell;
};

// One piece of an error message: text or a decimal integer of any integral
// type. Lets callers build "argument 2: expected int, got str" without a
// formatter or a heap.
class MessagePart {
 public:
  MessagePart(const char* text) : text_(text) {}  // NOLINT(runtime/explicit)
  // Any integral type: its bits widened (sign-extended when signed) and its
  // signedness, a constant, so each call site stays as small as for text.
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  MessagePart(T value)  // NOLINT(runtime/explicit)
      : bits_(static_cast<unsigned long long>(value)),
        form_(std::is_signed_v<T> ? Form::kSigned : Form::kUnsigned) {}

  // Appends the part to buf (capacity cap, NUL kept); false when cut short.
  TVM_FFI_DLL bool AppendTo(char* buf, size_t cap, size_t* len) const;

 private:
  enum class Form : uint8_t { kText, kSigned, kUnsigned };
  const char* text_ = nullptr;
  unsigned long long bits_ = 0;
  Form form_ = Form::kText;
};

// Raises an error of a known kind into the calling context's slot, replacing (and
// releasing) any pending one. Returns the matching failed Status.
TVM_FFI_DLL Status RaiseError(ErrorKind kind, std::initializer_list<MessagePart> message);
// Raises with a free-form kind name (NULL: RuntimeError), as
// TVMFFIErrorSetRaisedFromCStr does; a NULL message is empty.
void RaiseErrorNamed(const char* kind, const char* message);
// The same with the message in parts, as TVMFFIErrorSetRaisedFromCStrParts
// does; NULL parts are skipped.
void RaiseErrorNamed(const char* kind, const char* const* parts, size_t num_parts);

namespace detail {
// The deleter of Error::Create's errors (it releases their backtrace).
void CreatedErrorDeleter(void* self, int flags);
}  // namespace detail

// A ref-counted error object of any origin (ffi-core's slot, the heap, or
// another runtime): read through the ABI's TVMFFIErrorCell.
class Error : public ObjectRef<ErrorObj> {
 public:
  using ObjectRef::ObjectRef;

  // Takes the pending error from the caller's slot (empty if none).
  static Error MoveFromRaised();
  // Allocates an error object from the installed allocator. The backtrace
  // is kept where errors keep them (FFI_CORE_ERROR_BACKTRACES).
  static Expected<Error> Create(const TVMFFIByteArray& kind, const TVMFFIByteArray& message,
                                const TVMFFIByteArray& backtrace = TVMFFIByteArray{"", 0});

  TVMFFIByteArray kind() const { return obj_->cell.kind; }
  TVMFFIByteArray message() const { return obj_->cell.message; }
  ErrorKind kind_code() const;
};

template <>
struct TypeTraits<Error> : detail::ObjectRefTraits<Error, kTVMFFIError> {
  static constexpr const char* kName = "Error";
};

// The Status matching whatever error is pending in the caller's slot; used
// after a foreign call returned non-zero.
TVM_FFI_DLL Status StatusFromPendingError();
// True when the caller's slot holds an error.
bool HasPendingError();

}  // namespace ffi_core

#endif  // FFI_CORE_ERROR_H_
