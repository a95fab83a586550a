// A doctest stand-in for targets with no compiled C++ library (bare-metal
// RISC-V: Debian ships libstdc++'s headers for it, not the library, and
// doctest needs iostreams). tests/CMakeLists.txt puts this folder on the
// include path there, so the unit tests' `#include <doctest/doctest.h>` gets
// it. It does what those tests use and nothing more: TEST_CASE, CHECK,
// CHECK_FALSE, CHECK_MESSAGE, REQUIRE, REQUIRE_MESSAGE, FAIL_CHECK, INFO,
// CAPTURE, and -tc=<wildcard> to pick test cases. Output goes through printf.
//
// A failed check prints file:line, the expression and its values, and the
// INFO/CAPTURE context; the run then exits non-zero. doctest built without
// exceptions carries on after a failed REQUIRE (into what it guarded); here
// a failed REQUIRE ends the run instead.
#ifndef FFI_CORE_TESTS_FREESTANDING_DOCTEST_H_
#define FFI_CORE_TESTS_FREESTANDING_DOCTEST_H_

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>

namespace doctest {
namespace detail {

// Fixed-size text, so that formatting needs no heap; text that does not fit
// ends in a visible marker.
class Text {
 public:
  static constexpr size_t kCapacity = 384;
  void Append(std::string_view s) {
    for (char c : s) Put(c);
  }
  __attribute__((format(printf, 2, 3))) void Printf(const char* format, ...) {
    char buf[64];
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(buf, sizeof(buf), format, args);
    va_end(args);
    if (n > 0)
      Append(std::string_view(buf, static_cast<size_t>(n) < sizeof(buf) ? n : sizeof(buf) - 1));
  }
  const char* c_str() const { return data_; }

 private:
  void Put(char c) {
    if (size_ + 1 < kCapacity) {
      data_[size_++] = c;
    } else if (!truncated_) {
      truncated_ = true;
      const char marker[] = "...[cut]";
      size_ = kCapacity - sizeof(marker);
      for (char m : marker) data_[size_++] = m;
      size_--;  // keep the terminator
    }
    data_[size_] = '\0';
  }
  char data_[kCapacity] = {};
  size_t size_ = 0;
  bool truncated_ = false;
};

// A value as doctest would show it; what has no printable form shows as {?}.
template <typename T>
void Format(Text& out, const T& value) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    out.Append(value ? "true" : "false");
  } else if constexpr (std::is_same_v<U, char>) {
    out.Printf("'%c'", value);
  } else if constexpr (std::is_enum_v<U>) {
    Format(out, static_cast<std::underlying_type_t<U>>(value));
  } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
    out.Printf("%lld", static_cast<long long>(value));
  } else if constexpr (std::is_integral_v<U>) {
    out.Printf("%llu", static_cast<unsigned long long>(value));
  } else if constexpr (std::is_floating_point_v<U>) {
    out.Printf("%.17g", static_cast<double>(value));
  } else if constexpr (std::is_same_v<U, std::nullptr_t>) {
    out.Append("nullptr");
  } else if constexpr (std::is_pointer_v<U> && !std::is_convertible_v<U, const char*>) {
    out.Printf("%p", static_cast<const volatile void*>(value));
  } else if constexpr (std::is_convertible_v<const T&, const char*>) {
    const char* s = value;
    if (s == nullptr) {
      out.Append("nullptr");
    } else {
      out.Append("\"");
      out.Append(s);
      out.Append("\"");
    }
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    out.Append("\"");
    out.Append(std::string_view(value));
    out.Append("\"");
  } else {
    out.Append("{?}");
  }
}

// Message pieces (CHECK_MESSAGE, INFO): strings as they are, values formatted.
template <typename T>
void AppendPiece(Text& out, const T& piece) {
  if constexpr (std::is_convertible_v<const T&, const char*>) {
    const char* s = piece;
    out.Append(s != nullptr ? s : "nullptr");
  } else if constexpr (std::is_convertible_v<const T&, std::string_view> &&
                       !std::is_same_v<T, std::nullptr_t>) {
    out.Append(std::string_view(piece));
  } else {
    Format(out, piece);
  }
}
template <typename... Args>
void AppendPieces(Text& out, const Args&... pieces) {
  (AppendPiece(out, pieces), ...);
}

struct Result {
  bool passed;
  Text values;
};

template <typename L, typename R>
Result Compared(bool passed, const L& lhs, const char* op, const R& rhs) {
  Result r{passed, {}};
  Format(r.values, lhs);
  r.values.Append(op);
  Format(r.values, rhs);
  return r;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wfloat-equal"
// The left operand of a checked expression; a comparison operator takes the
// right one, and a lone operand is checked for truth.
template <typename L>
struct Lhs {
  const L& lhs;
  template <typename R>
  Result operator==(const R& rhs) const {
    return Compared(static_cast<bool>(lhs == rhs), lhs, " == ", rhs);
  }
  template <typename R>
  Result operator!=(const R& rhs) const {
    return Compared(static_cast<bool>(lhs != rhs), lhs, " != ", rhs);
  }
  template <typename R>
  Result operator<(const R& rhs) const {
    return Compared(static_cast<bool>(lhs < rhs), lhs, " < ", rhs);
  }
  template <typename R>
  Result operator<=(const R& rhs) const {
    return Compared(static_cast<bool>(lhs <= rhs), lhs, " <= ", rhs);
  }
  template <typename R>
  Result operator>(const R& rhs) const {
    return Compared(static_cast<bool>(lhs > rhs), lhs, " > ", rhs);
  }
  template <typename R>
  Result operator>=(const R& rhs) const {
    return Compared(static_cast<bool>(lhs >= rhs), lhs, " >= ", rhs);
  }
  operator Result() const {
    Result r{static_cast<bool>(lhs), {}};
    Format(r.values, lhs);
    return r;
  }
};
#pragma GCC diagnostic pop

struct Decomposer {
  template <typename L>
  Lhs<L> operator<<(const L& lhs) const {
    return Lhs<L>{lhs};
  }
};

// INFO/CAPTURE scopes, innermost first: printed with a failure while alive.
struct ContextNode {
  void (*print)(const ContextNode*);
  ContextNode* outer;
};
struct State {
  ContextNode* context = nullptr;
  const char* test_name = "";
  bool test_failed = false;
  unsigned long asserts = 0;
  unsigned long asserts_failed = 0;
  unsigned long tests_run = 0;
  unsigned long tests_failed = 0;
};
inline State& GetState() {
  static State state;
  return state;
}

template <typename F>
class ContextScope : ContextNode {
 public:
  explicit ContextScope(F f) : ContextNode{&PrintIt, GetState().context}, f_(f) {
    GetState().context = this;
  }
  ~ContextScope() { GetState().context = outer; }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  static void PrintIt(const ContextNode* node) {
    Text t;
    static_cast<const ContextScope*>(node)->f_(t);
    std::printf("  logged: %s\n", t.c_str());
  }
  F f_;
};
// Copy elision (C++17) makes the returned scope the named one.
template <typename F>
ContextScope<F> MakeContextScope(F f) {
  return ContextScope<F>(f);
}

enum class Level { kCheck, kRequire };

void ReportFailure(const char* file, int line, Level level, const char* macro,
                   const char* expression, const char* values, const char* message);

inline void Assert(const char* file, int line, Level level, const char* macro,
                   const char* expression, const Result& result, bool negate) {
  State& s = GetState();
  s.asserts++;
  if (result.passed != negate) return;
  ReportFailure(file, line, level, macro, expression, result.values.c_str(), nullptr);
}

template <typename... Args>
void Message(const char* file, int line, Level level, const char* macro, const char* expression,
             bool passed, const Args&... pieces) {
  State& s = GetState();
  s.asserts++;
  if (passed) return;
  Text t;
  AppendPieces(t, pieces...);
  ReportFailure(file, line, level, macro, expression, nullptr, t.c_str());
}

struct TestCase {
  void (*function)();
  const char* name;
  const char* file;
  int line;
  TestCase* next;
};
inline TestCase*& Registry() {
  static TestCase* head = nullptr;
  return head;
}
inline int Register(TestCase* test) {
  TestCase** tail = &Registry();
  while (*tail != nullptr) tail = &(*tail)->next;
  *tail = test;  // file order, as doctest runs them within a file
  return 0;
}

}  // namespace detail
}  // namespace doctest

#define DOCTEST_CAT_IMPL(a, b) a##b
#define DOCTEST_CAT(a, b) DOCTEST_CAT_IMPL(a, b)
#define DOCTEST_ANONYMOUS(x) DOCTEST_CAT(x, __LINE__)

#define DOCTEST_TEST_CASE_IMPL(function, test, reg, name)                                   \
  static void function();                                                                   \
  static ::doctest::detail::TestCase test = {&function, name, __FILE__, __LINE__, nullptr}; \
  [[maybe_unused]] static const int reg = ::doctest::detail::Register(&test);               \
  static void function()
#define TEST_CASE(name)                                                                         \
  DOCTEST_TEST_CASE_IMPL(DOCTEST_ANONYMOUS(doctest_test_fn_), DOCTEST_ANONYMOUS(doctest_test_), \
                         DOCTEST_ANONYMOUS(doctest_reg_), name)

#define DOCTEST_ASSERT(level, macro, negate, ...)                                       \
  ::doctest::detail::Assert(__FILE__, __LINE__, ::doctest::detail::Level::level, macro, \
                            #__VA_ARGS__, ::doctest::detail::Decomposer() << __VA_ARGS__, negate)
#define CHECK(...) DOCTEST_ASSERT(kCheck, "CHECK", false, __VA_ARGS__)
#define CHECK_FALSE(...) DOCTEST_ASSERT(kCheck, "CHECK_FALSE", true, __VA_ARGS__)
#define REQUIRE(...) DOCTEST_ASSERT(kRequire, "REQUIRE", false, __VA_ARGS__)

#define CHECK_MESSAGE(cond, ...)                                                   \
  ::doctest::detail::Message(__FILE__, __LINE__, ::doctest::detail::Level::kCheck, \
                             "CHECK_MESSAGE", #cond, static_cast<bool>(cond), __VA_ARGS__)
#define REQUIRE_MESSAGE(cond, ...)                                                   \
  ::doctest::detail::Message(__FILE__, __LINE__, ::doctest::detail::Level::kRequire, \
                             "REQUIRE_MESSAGE", #cond, static_cast<bool>(cond), __VA_ARGS__)
#define FAIL_CHECK(...)                                                                          \
  ::doctest::detail::Message(__FILE__, __LINE__, ::doctest::detail::Level::kCheck, "FAIL_CHECK", \
                             "", false, __VA_ARGS__)

#define INFO(...)                                                                      \
  auto DOCTEST_ANONYMOUS(doctest_info_) =                                              \
      ::doctest::detail::MakeContextScope([&](::doctest::detail::Text& doctest_text) { \
        ::doctest::detail::AppendPieces(doctest_text, __VA_ARGS__);                    \
      })
#define CAPTURE(x) INFO(#x " := ", x)

#ifdef DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "doctest_main.h"
#endif

#endif  // FFI_CORE_TESTS_FREESTANDING_DOCTEST_H_
