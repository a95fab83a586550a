// The few parts of libstdc++'s compiled library that the unit tests reach
// through its headers (std::string, std::vector, std::string_view), for
// targets that have the headers only. Linked with the tests, never with
// ffi_core. Built without exceptions, so what libstdc++ would throw ends the
// run with the reason.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

namespace std {

// The library's copy of std::string: its header declares it extern.
template class basic_string<char>;

namespace {
[[noreturn]] void Fail(const char* what, const char* detail) {
  std::printf("libstdc++ would throw %s: %s\n", what, detail != nullptr ? detail : "");
  std::exit(3);
}
}  // namespace

void __throw_bad_alloc() { Fail("bad_alloc", nullptr); }
void __throw_logic_error(const char* s) { Fail("logic_error", s); }
void __throw_length_error(const char* s) { Fail("length_error", s); }
void __throw_out_of_range_fmt(const char* format, ...) {
  char text[160];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  Fail("out_of_range", text);
}

}  // namespace std

// The C library's heap; a failed allocation ends the run (no exceptions).
void* operator new(std::size_t size) {
  void* p = std::malloc(size != 0 ? size : 1);
  if (p == nullptr) std::__throw_bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
