// Shared by the unit tests on the host and on every board.
#ifndef FFI_CORE_TESTS_TEST_SUPPORT_H_
#define FFI_CORE_TESTS_TEST_SUPPORT_H_

#define DOCTEST_CONFIG_NO_EXCEPTIONS_BUT_WITH_ALL_ASSERTS
#define DOCTEST_CONFIG_NO_POSIX_SIGNALS
#define DOCTEST_CONFIG_NO_MULTITHREADING
#define DOCTEST_CONFIG_COLORS_NONE
#include <doctest/doctest.h>
#include <ffi_core/ffi_core.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace ffi_core_test {

// The tests' heap: the C library's malloc, on the host and on boards (whose
// ports have no system heap). Over-allocates and keeps the block's start
// before the aligned pointer, so any alignment works with any libc.
inline ffi_core::Allocator* TestHeap() {
  static ffi_core::Allocator heap = {
      [](void*, size_t size, size_t alignment) -> void* {
        void* raw = std::malloc(size + alignment + sizeof(void*));
        if (raw == nullptr) return nullptr;
        const uintptr_t start = reinterpret_cast<uintptr_t>(raw) + sizeof(void*);
        void** aligned = reinterpret_cast<void**>((start + alignment - 1) & ~(alignment - 1));
        aligned[-1] = raw;
        return aligned;
      },
      [](void*, void* ptr, size_t, size_t) {
        if (ptr != nullptr) std::free(static_cast<void**>(ptr)[-1]);
      },
      nullptr};
  return &heap;
}

// Installs a counting allocator (over TestHeap) for one test and checks on
// exit that every block came back and no error was left pending.
class AllocatorScope {
 public:
  AllocatorScope() : counter_(TestHeap()) {
    previous_ = ffi_core::GetAllocator();
    ffi_core::SetAllocator(counter_.allocator());
  }
  ~AllocatorScope() {
    ffi_core::Error::MoveFromRaised();  // a pending error would hold no heap, but tidy up
    CHECK_MESSAGE(counter_.live_blocks() == 0, "leaked blocks: ", counter_.live_blocks());
    ffi_core::SetAllocator(previous_);
  }
  ffi_core::CountingAllocator& counter() { return counter_; }

 private:
  ffi_core::CountingAllocator counter_;
  ffi_core::Allocator* previous_;
};

inline std::string_view View(const TVMFFIByteArray& b) { return std::string_view(b.data, b.size); }

// Kind and message of the pending error (moved out of the slot).
struct TakenError {
  std::string_view kind;
  std::string_view message;
  ffi_core::Error error;  // keeps the text alive
};
inline TakenError TakeError() {
  TakenError t;
  t.error = ffi_core::Error::MoveFromRaised();
  if (t.error) {
    t.kind = View(t.error.kind());
    t.message = View(t.error.message());
  }
  return t;
}

inline bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

}  // namespace ffi_core_test

#endif  // FFI_CORE_TESTS_TEST_SUPPORT_H_
