#include "text_builder.h"

#include <ffi_core/allocator.h>
#include <ffi_core/error.h>

#include <cstdio>

namespace ffi_core {
namespace frontend {

TextBuilder::~TextBuilder() { FreeBuffer(data_); }

Status TextBuilder::Append(const char* data, size_t size) {
  if (size > capacity_ - size_) {
    if (size > SIZE_MAX / 2 - size_) {
      return RaiseError(ErrorKind::kMemoryError, {"text too long"});
    }
    size_t capacity = capacity_ == 0 ? 64 : capacity_;
    while (capacity - size_ < size) capacity *= 2;
    char* grown = static_cast<char*>(AllocateBuffer(capacity, 1));
    if (grown == nullptr) {
      return RaiseError(ErrorKind::kMemoryError,
                        {"out of memory building text of ", size_ + size, " bytes"});
    }
    if (size_ != 0) std::memcpy(grown, data_, size_);
    FreeBuffer(data_);
    data_ = grown;
    capacity_ = capacity;
  }
  if (size != 0) std::memcpy(data_ + size_, data, size);
  size_ += size;
  return Status::Ok();
}

Status TextBuilder::AppendInt(int64_t value) {
  char buf[24];
  const int n = std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(value));
  return Append(buf, static_cast<size_t>(n));
}

Status TextBuilder::AppendFloat(double value) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof(buf), "%g", value);
  return Append(buf, static_cast<size_t>(n));
}

Status TextBuilder::AppendAddress(const void* p) {
  char buf[24];
  const int n = std::snprintf(buf, sizeof(buf), "0x%llx",
                              static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return Append(buf, static_cast<size_t>(n));
}

}  // namespace frontend
}  // namespace ffi_core
