// A growing run of text from the installed allocator, for results whose
// length is not known ahead (ffi.ReprPrint). Every append can fail with a
// MemoryError; the text is never cut short.
#ifndef FFI_CORE_EXTRA_FRONTEND_TEXT_BUILDER_H_
#define FFI_CORE_EXTRA_FRONTEND_TEXT_BUILDER_H_

#include <ffi_core/expected.h>
#include <ffi_core/status.h>
#include <ffi_core/string.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ffi_core {
namespace frontend {

class TextBuilder {
 public:
  TextBuilder() = default;
  TextBuilder(const TextBuilder&) = delete;
  TextBuilder& operator=(const TextBuilder&) = delete;
  ~TextBuilder();

  [[nodiscard]] Status Append(const char* data, size_t size);
  [[nodiscard]] Status Append(const char* text) { return Append(text, std::strlen(text)); }
  [[nodiscard]] Status Append(const TVMFFIByteArray& text) { return Append(text.data, text.size); }
  [[nodiscard]] Status AppendInt(int64_t value);
  // As C++ streams print a double by default (printf's %g, 6 digits).
  [[nodiscard]] Status AppendFloat(double value);
  // "0x" and lower-case hex digits, as upstream prints addresses.
  [[nodiscard]] Status AppendAddress(const void* p);

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  Expected<String> ToString() const { return String::FromBytes(data_, size_); }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_TEXT_BUILDER_H_
