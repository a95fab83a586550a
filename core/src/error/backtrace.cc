#include "error/backtrace.h"

#include <ffi_core/object.h>

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

const TVMFFIByteArray* BacktraceLine(const char* filename, int lineno, const char* func) {
  // Either name may be missing (no debug information): <unknown> stands in.
  const char* const file = filename != nullptr ? filename : "<unknown>";
  const char* const in = func != nullptr ? func : "<unknown>";
  const unsigned line = lineno > 0 ? static_cast<unsigned>(lineno) : 0;
  static constexpr char kFile[] = "  File \"";
  static constexpr char kLine[] = "\", line ";
  static constexpr char kIn[] = ", in ";
  const size_t file_size = std::strlen(file);
  const size_t in_size = std::strlen(in);
  char digits[12];
  const size_t digits_size = WriteDecimal(digits, line);
  const size_t size = (sizeof(kFile) - 1) + file_size + (sizeof(kLine) - 1) + digits_size +
                      (sizeof(kIn) - 1) + in_size + 1;
  BacktraceText* text = NewText(size);
  if (text == nullptr) return &kEmpty;
  char* out = const_cast<char*>(text->bytes.data);
  for (const TVMFFIByteArray& part :
       {TVMFFIByteArray{kFile, sizeof(kFile) - 1}, TVMFFIByteArray{file, file_size},
        TVMFFIByteArray{kLine, sizeof(kLine) - 1}, TVMFFIByteArray{digits, digits_size},
        TVMFFIByteArray{kIn, sizeof(kIn) - 1}, TVMFFIByteArray{in, in_size},
        TVMFFIByteArray{"\n", 1}}) {
    std::memcpy(out, part.data, part.size);
    out += part.size;
  }
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
