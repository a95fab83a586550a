// Shared by the libFuzzer harnesses: a failed property aborts with a message
// (libFuzzer then saves the input), and each input runs under a counting
// allocator that must end with no live block.
#ifndef FFI_CORE_TESTS_FUZZ_FUZZ_SUPPORT_H_
#define FFI_CORE_TESTS_FUZZ_FUZZ_SUPPORT_H_

#include <ffi_core/ffi_core.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ffi_core_fuzz {

[[noreturn]] inline void Fail(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: property failed: %s\n", file, line, what);
  std::abort();
}
#define FUZZ_CHECK(cond) \
  ((cond) ? static_cast<void>(0) : ::ffi_core_fuzz::Fail(#cond, __FILE__, __LINE__))

// Reads fixed-size values off the front of the input; zeros once it runs out.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  template <typename T>
  T Take() {
    T v{};
    const size_t n = size_ < sizeof(T) ? size_ : sizeof(T);
    if (n != 0) std::memcpy(&v, data_, n);
    data_ += n;
    size_ -= n;
    return v;
  }
  // The next n bytes (fewer if the input ends first).
  const uint8_t* Bytes(size_t n, size_t* got) {
    *got = size_ < n ? size_ : n;
    const uint8_t* p = data_;
    data_ += *got;
    size_ -= *got;
    return p;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  const uint8_t* data_;
  size_t size_;
};

// One input's counting allocator over malloc; checks on exit that every
// block came back and leaves the slot empty.
class CountedRun {
 public:
  CountedRun() : counter_(ffi_core::SystemAllocator()) {
    ffi_core::SetAllocator(counter_.allocator());
  }
  ~CountedRun() {
    ffi_core::Error::MoveFromRaised();
    FUZZ_CHECK(counter_.live_blocks() == 0);
    ffi_core::SetAllocator(ffi_core::SystemAllocator());
  }
  CountedRun(const CountedRun&) = delete;
  CountedRun& operator=(const CountedRun&) = delete;
  ffi_core::CountingAllocator& counter() { return counter_; }

 private:
  ffi_core::CountingAllocator counter_;
};

// A failed call must have left an error with a NUL-terminated message; it
// is taken so the next step starts clean.
inline void TakeRaisedError() {
  ffi_core::Error e = ffi_core::Error::MoveFromRaised();
  FUZZ_CHECK(static_cast<bool>(e));
  FUZZ_CHECK(e.message().data[e.message().size] == '\0');
}

}  // namespace ffi_core_fuzz

#endif  // FFI_CORE_TESTS_FUZZ_FUZZ_SUPPORT_H_
