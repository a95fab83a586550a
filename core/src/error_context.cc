// Errors carrying a cause chain and extra context
// (TVMFFIErrorCreateWithCauseAndExtraContext): an ordinary heap error whose
// deleter also drops its references to the two.
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <tvm/ffi/c_api.h>

namespace {

void ContextErrorDeleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(self);
    if (cell->cause_chain != nullptr) TVMFFIObjectDecRef(cell->cause_chain);
    if (cell->extra_context != nullptr) TVMFFIObjectDecRef(cell->extra_context);
  }
  ffi_core::detail::ObjectDeleter<ffi_core::ErrorObj>(self, flags);
}

}  // namespace

extern "C" int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) {
  // TVMFFIErrorCreate leaves the error slot alone; so does this.
  if (TVMFFIErrorCreate(kind, message, backtrace, out) != 0) return -1;
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(*out);
  if (cause_chain != nullptr) TVMFFIObjectIncRef(cause_chain);
  if (extra_context != nullptr) TVMFFIObjectIncRef(extra_context);
  cell->cause_chain = cause_chain;
  cell->extra_context = extra_context;
  static_cast<TVMFFIObject*>(*out)->deleter = &ContextErrorDeleter;
  return 0;
}
