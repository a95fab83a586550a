// Scratch: a short-lived array of T from AllocateBuffer, given back
// when it goes out of scope (the views a container is built from, ...).
#ifndef FFI_CORE_EXTRA_FRONTEND_SCRATCH_H_
#define FFI_CORE_EXTRA_FRONTEND_SCRATCH_H_

#include <ffi_core/allocator.h>
#include <ffi_core/error.h>

#include <cstddef>
#include <new>
#include <type_traits>

namespace ffi_core {
namespace frontend {

template <typename T>
class Scratch {
 public:
  // `count` default-constructed items, or a MemoryError naming `what`.
  static Expected<Scratch> Make(size_t count, const char* what) {
    void* block = nullptr;
    if (count != 0 && count <= SIZE_MAX / sizeof(T)) {
      block = AllocateBuffer(count * sizeof(T), alignof(T));
    }
    if (block == nullptr && count != 0) {
      return RaiseError(ErrorKind::kMemoryError,
                        {what, ": no memory for ", static_cast<unsigned long>(count), " items"});
    }
    T* items = static_cast<T*>(block);
    for (size_t i = 0; i < count; ++i) new (&items[i]) T();
    return Scratch(items, count);
  }
  Scratch(Scratch&& other) noexcept : items_(other.items_), count_(other.count_) {
    other.items_ = nullptr;
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  Scratch& operator=(Scratch&&) = delete;
  ~Scratch() {
    if (items_ == nullptr) return;
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (size_t i = 0; i < count_; ++i) items_[i].~T();
    }
    FreeBuffer(items_);
  }

  T* data() { return items_; }
  T& operator[](size_t i) { return items_[i]; }
  size_t size() const { return count_; }

 private:
  Scratch(T* items, size_t count) : items_(items), count_(count) {}
  T* items_;
  size_t count_;
};

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_SCRATCH_H_
