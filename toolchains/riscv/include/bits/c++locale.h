// Bare-metal stand-in for the Linux cross package's bits/c++locale.h, whose
// C locale handle is glibc's __locale_t: here there is only the "C" locale,
// so the handle is an unused pointer, as in libstdc++'s generic locale model.
// <string> reaches this header through <bits/localefwd.h>.
#ifndef _GLIBCXX_CXX_LOCALE_H
#define _GLIBCXX_CXX_LOCALE_H 1

#pragma GCC system_header

#include <clocale>

// libstdc++'s namespace macros are not C++ clang-format can settle on.
// clang-format off

#define _GLIBCXX_NUM_CATEGORIES 0

namespace std _GLIBCXX_VISIBILITY(default) {
  _GLIBCXX_BEGIN_NAMESPACE_VERSION

  typedef int* __c_locale;

  // Formats a number for the numeric facets; the "C" locale is the only one.
  inline int __convert_from_v(const __c_locale&, char* __out, const int __size, const char* __fmt,
                              ...) {
    __builtin_va_list __args;
    __builtin_va_start(__args, __fmt);
    const int __ret = __builtin_vsnprintf(__out, __size, __fmt, __args);
    __builtin_va_end(__args);
    return __ret;
  }

  _GLIBCXX_END_NAMESPACE_VERSION
}  // namespace std
// clang-format on

#endif  // _GLIBCXX_CXX_LOCALE_H
