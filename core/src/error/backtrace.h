// Internal: the backtraces errors keep where FFI_CORE_ERROR_BACKTRACES is 1
// (the host). An error's cell.backtrace points into a BacktraceText object
// when non-empty, so the text needs no field of its own in the error; an
// empty backtrace is the static "". Where backtraces are off, none of this
// is called and update_backtrace drops what it is given.
#ifndef FFI_CORE_SRC_ERROR_BACKTRACE_H_
#define FFI_CORE_SRC_ERROR_BACKTRACE_H_

#include <tvm/ffi/c_api.h>

namespace ffi_core {
namespace detail {

// Sets `error`'s backtrace to `text` (which may be empty), releasing what it
// held. A text that cannot be stored (no memory) leaves the backtrace as it
// was: it is a diagnostic, and the error being reported matters more.
void SetBacktrace(TVMFFIErrorCell* cell, const TVMFFIByteArray& text);
// Releases what an error's backtrace holds; it becomes empty.
void ReleaseBacktrace(TVMFFIErrorCell* cell);
// The cell's update_backtrace: replaces, or appends to, the backtrace.
void UpdateBacktrace(TVMFFIObjectHandle error, const TVMFFIByteArray* text, int32_t update_mode);
// TVMFFIBacktrace, as upstream's: lines in Python's traceback form
// (`  File "<file>", line <n>, in <func>`), innermost first: the frame the
// caller names, then the native frames the port can name, without the
// runtime's own and up to the FFI boundary unless `cross_ffi_boundary`.
// Kept by the calling context until its next call.
const TVMFFIByteArray* Backtrace(const char* filename, int lineno, const char* func,
                                 bool cross_ffi_boundary);

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_ERROR_BACKTRACE_H_
