#include "error/backtrace.h"

#include <ffi_core/object.h>
#include <ffi_core/port.h>

#include <cstring>

#include "context/calling_context.h"

namespace ffi_core {
namespace detail {
namespace {

// The bytes of a backtrace; `bytes.data` points at the trailing storage.
struct BacktraceText {
  TVMFFIObject header;
  TVMFFIByteArray bytes;
};

const TVMFFIByteArray kEmpty = {"", 0};

BacktraceText* TextOf(const TVMFFIByteArray& bytes) {
  return reinterpret_cast<BacktraceText*>(const_cast<char*>(bytes.data) -
                                          TrailingOffset(sizeof(BacktraceText), 1));
}

// A text of `size` bytes to be written, or NULL (nothing raised: the
// caller's pending error, if any, stays).
BacktraceText* NewText(size_t size) {
  const CallingContext::PendingGuard keep;
  Expected<BacktraceText*> text = NewObject<BacktraceText>(kTVMFFIObject, size);
  if (!text.ok()) return nullptr;
  (*text)->bytes = TVMFFIByteArray{TrailingOf<char>(*text), size};
  return *text;
}

// `text` with the backtrace it replaces released.
void Install(TVMFFIErrorCell* cell, BacktraceText* text) {
  const TVMFFIByteArray old = cell->backtrace;
  cell->backtrace = text != nullptr ? text->bytes : kEmpty;
  if (old.size != 0) ObjectDecRef(&TextOf(old)->header);
}

// Decimal digits of `v` (non-negative) into `out`; returns their count.
size_t WriteDecimal(char* out, unsigned v) {
  char digits[12];
  size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  for (size_t i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  return n;
}

}  // namespace

void SetBacktrace(TVMFFIErrorCell* cell, const TVMFFIByteArray& text) {
  if (text.size == 0) return Install(cell, nullptr);
  BacktraceText* copy = NewText(text.size);
  if (copy == nullptr) return;
  std::memcpy(const_cast<char*>(copy->bytes.data), text.data, text.size);
  Install(cell, copy);
}

void ReleaseBacktrace(TVMFFIErrorCell* cell) { Install(cell, nullptr); }

void UpdateBacktrace(TVMFFIObjectHandle error, const TVMFFIByteArray* text, int32_t update_mode) {
  // A C callback with no way to fail: unreadable input changes nothing.
  if (error == nullptr || text == nullptr || (text->data == nullptr && text->size != 0)) return;
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(error);
  if (update_mode != kTVMFFIBacktraceUpdateModeAppend) return SetBacktrace(cell, *text);
  const TVMFFIByteArray old = cell->backtrace;
  if (text->size == 0) return;
  BacktraceText* joined = NewText(old.size + text->size);
  if (joined == nullptr) return;
  char* out = const_cast<char*>(joined->bytes.data);
  if (old.size != 0) std::memcpy(out, old.data, old.size);
  std::memcpy(out + old.size, text->data, text->size);
  Install(cell, joined);
}

namespace {

bool StartsWith(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// Frames that say nothing about the user's code: the runtime's own, the
// call machinery of upstream's headers, libc's and libffi's entry frames.
bool Uninteresting(const char* function) {
  for (const char* prefix : {"ffi_core::", "TVMFFIBacktrace", "TVMFFIErrorSetRaisedFromCStr",
                             "tvm::ffi::Function", "tvm::ffi::detail::", "__libc_", "ffi_call_"}) {
    if (StartsWith(function, prefix)) return true;
  }
  return false;
}

// Where a walk that stays on this side of the FFI stops: a call into the
// runtime, or the Python interpreter (whose frames Python reports itself).
bool FfiBoundary(const char* function) {
  for (const char* prefix :
       {"TVMFFIFunctionCall", "slot_tp_call", "object_is_not_callable", "_Py", "PyObject"}) {
    if (StartsWith(function, prefix)) return true;
  }
  return false;
}

constexpr char kFile[] = "  File \"";
constexpr char kLine[] = "\", line ";
constexpr char kIn[] = ", in ";
constexpr char kCut[] = "  ... (backtrace cut)\n";

// The backtrace text, built in a fixed buffer: it is a diagnostic, so a
// long one ends in a "cut" line rather than failing.
struct Lines {
  static constexpr size_t kCapacity = 8192;
  char text[kCapacity];
  size_t size = 0;
  bool cut = false;
  int frames_to_skip = 0;   // TVMFFIBacktrace's caller, given as the first line
  bool after_self = false;  // past TVMFFIBacktrace's own frame
  bool stop_at_boundary = true;
  int frames_left = 64;

  void Add(const char* file, unsigned line, const char* function) {
    char digits[12];
    const size_t digits_size = WriteDecimal(digits, line);
    const TVMFFIByteArray parts[] = {{kFile, sizeof(kFile) - 1},
                                     {file, std::strlen(file)},
                                     {kLine, sizeof(kLine) - 1},
                                     {digits, digits_size},
                                     {kIn, sizeof(kIn) - 1},
                                     {function, std::strlen(function)},
                                     {"\n", 1}};
    size_t need = 0;
    for (const TVMFFIByteArray& p : parts) need += p.size;
    if (cut || need > kCapacity - (sizeof(kCut) - 1) - size) {
      cut = true;
      return;
    }
    for (const TVMFFIByteArray& p : parts) {
      std::memcpy(text + size, p.data, p.size);
      size += p.size;
    }
  }

  // One native frame, innermost first; false ends the walk.
  static bool Visit(const char* function, void* context) {
    Lines& self = *static_cast<Lines*>(context);
    // Unnamed frames are not shown, as upstream; the runtime's own are not
    // named (hidden symbols) or are uninteresting.
    if (function == nullptr) return true;
    if (self.stop_at_boundary && FfiBoundary(function)) return false;
    if (Uninteresting(function)) return true;
    if (self.frames_to_skip > 0) {
      --self.frames_to_skip;
      return true;
    }
    self.Add("<unknown>", 0, function);
    return --self.frames_left > 0;
  }
};

}  // namespace

const TVMFFIByteArray* Backtrace(const char* filename, int lineno, const char* func,
                                 bool cross_ffi_boundary) {
  Lines lines;
  lines.stop_at_boundary = !cross_ffi_boundary;
  if (filename != nullptr && func != nullptr) {
    // The caller names its own frame, so its native one is skipped.
    lines.frames_to_skip = 1;
    if (!Uninteresting(func))
      lines.Add(filename, lineno > 0 ? static_cast<unsigned>(lineno) : 0, func);
  }
  port::VisitNativeFrames(&Lines::Visit, &lines);
  if (lines.cut) {
    std::memcpy(lines.text + lines.size, kCut, sizeof(kCut) - 1);
    lines.size += sizeof(kCut) - 1;
  }
  BacktraceText* text = NewText(lines.size);
  if (text == nullptr) return &kEmpty;
  std::memcpy(const_cast<char*>(text->bytes.data), lines.text, lines.size);
#if FFI_CORE_ERROR_BACKTRACES
  CallingContext::Current().SetBacktraceLine(&text->header);
  return &text->bytes;
#else
  // Not reached (TVMFFIBacktrace returns "" first): no context keeps it.
  ObjectDecRef(&text->header);
  return &kEmpty;
#endif
}

}  // namespace detail
}  // namespace ffi_core
