// C entry points: errors. Raising and taking go through the calling
// context's slot (calling_context.h); created errors are ordinary objects.
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <tvm/ffi/c_api.h>

#include "c_api/c_boundary.h"
#include "context/calling_context.h"
#include "error/backtrace.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary

namespace {

// An error with a cause chain and extra context: an ordinary heap error
// whose deleter also drops its references to the two.
void ContextErrorDeleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(self);
    if (cell->cause_chain != nullptr) ObjectDecRef(static_cast<TVMFFIObject*>(cell->cause_chain));
    if (cell->extra_context != nullptr) {
      ObjectDecRef(static_cast<TVMFFIObject*>(cell->extra_context));
    }
  }
  detail::CreatedErrorDeleter(self, flags);
}

// Where errors keep no backtraces (an MCU), there is no line to give.
const TVMFFIByteArray kNoBacktrace = {"", 0};

}  // namespace

extern "C" {

void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  if (result == nullptr) return;
  // The slot's reference passes to the caller.
  *result = CallingContext::Current().TakePending();
}

void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  // Another type in the slot would be read as an Error by whoever takes it:
  // a TypeError stands in for it.
  if (error != nullptr && c_boundary::CheckedHandle("TVMFFIErrorSetRaised", "error", error,
                                                    kTVMFFIError, "Error") == nullptr) {
    return;
  }
  if (error != nullptr) ObjectIncRef(static_cast<TVMFFIObject*>(error));
  CallingContext::Current().SetPending(static_cast<TVMFFIObject*>(error));
}

void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  RaiseErrorNamed(kind, message);
}

void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                       int32_t num_parts) {
  // Parts that cannot be read still raise the caller's kind, with why the
  // message is missing in its place (as one part: no second raise path).
  static const char* const kUnreadable[] = {
      "TVMFFIErrorSetRaisedFromCStrParts: NULL parts or a negative count"};
  if (num_parts < 0 || (message_parts == nullptr && num_parts != 0)) {
    RaiseErrorNamed(kind, kUnreadable, 1);
    return;
  }
  RaiseErrorNamed(kind, message_parts, static_cast<size_t>(num_parts));
}

int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                      const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  // Runs inside error handling: a failure leaves the caller's pending error
  // as it was and raises nothing (so NULL arguments are only refused).
  if (kind == nullptr || message == nullptr || out == nullptr) return -1;
  // Both texts are copied: NULL bytes behind a size are refused, not read.
  if (c_boundary::NullBytes(*kind) || c_boundary::NullBytes(*message) ||
      (backtrace != nullptr && c_boundary::NullBytes(*backtrace))) {
    return -1;
  }
  const CallingContext::PendingGuard keep;
  return c_boundary::HandOut(
      Error::Create(*kind, *message, backtrace != nullptr ? *backtrace : kNoBacktrace), out);
}

int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) {
  // The cause is read back as an Error (upstream types it Optional<Error>):
  // another type is refused, by the return code only, like every failure here.
  if (cause_chain != nullptr &&
      static_cast<TVMFFIObject*>(cause_chain)->type_index != kTVMFFIError) {
    return -1;
  }
  if (TVMFFIErrorCreate(kind, message, backtrace, out) != 0) return -1;
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(*out);
  if (cause_chain != nullptr) ObjectIncRef(static_cast<TVMFFIObject*>(cause_chain));
  if (extra_context != nullptr) ObjectIncRef(static_cast<TVMFFIObject*>(extra_context));
  cell->cause_chain = cause_chain;
  cell->extra_context = extra_context;
  static_cast<TVMFFIObject*>(*out)->deleter = &ContextErrorDeleter;
  return 0;
}

const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno, const char* func,
                                       int cross_ffi_boundary) {
  if (!FFI_CORE_ERROR_BACKTRACES) return &kNoBacktrace;
  return detail::Backtrace(filename, lineno, func, cross_ffi_boundary != 0);
}

}  // extern "C"
