// Internal: the one idiom of the C boundary. Every TVMFFI* entry point
// (core/src/c_api_<subject>.cc) refuses bad input with these helpers, turns a
// C++ result into the C return code, and hands objects out with HandOut: a
// failure is always a non-zero return with an error in the caller's slot.
#ifndef FFI_CORE_SRC_C_API_C_BOUNDARY_H_
#define FFI_CORE_SRC_C_API_C_BOUNDARY_H_

#include <ffi_core/error.h>
#include <ffi_core/expected.h>
#include <ffi_core/object.h>
#include <tvm/ffi/c_api.h>

#include <initializer_list>
#include <utility>

namespace ffi_core {
namespace c_boundary {

// Raises a ValueError "<function>: <argument> is NULL"; returns -1. Cold and
// out of line, so the entry points' fast paths need no stack frame.
[[gnu::cold, gnu::noinline]] int NullArgument(const char* function, const char* argument);

// True for NULL data behind a non-zero size: bytes that would be read from
// NULL, so the entry points refuse them.
inline bool NullBytes(const TVMFFIByteArray& bytes) {
  return bytes.data == nullptr && bytes.size != 0;
}

// Raises `kind` with the message; returns -1. Cold and out of line.
[[gnu::cold, gnu::noinline]] int Fail(ErrorKind kind, std::initializer_list<MessagePart> message);

// The C return code of a Status.
inline int ReturnCode(Status s) { return s.ToReturnCode(); }

// Hands the object of a made reference (Function, Tensor, Error, ...) to the
// caller: a strong reference, or NULL for an empty one (a global function
// not found), goes to *out. -1 when making it failed.
template <typename Ref>
int HandOut(Expected<Ref> made, TVMFFIObjectHandle* out) {
  if (!made.ok()) return -1;
  *out = detail::HeaderOf(std::move(made).value().ReleaseObject());
  return 0;
}

// The object behind a handle when it has type index `type_index` (named
// `type_name`); else NULL with a TypeError (a ValueError for NULL) raised.
TVMFFIObject* CheckedHandle(const char* function, const char* argument, TVMFFIObjectHandle handle,
                            int32_t type_index, const char* type_name);

}  // namespace c_boundary
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_C_API_C_BOUNDARY_H_
