// Shared by the board-only C++ tests: a pass/fail tally and the closing
// "N passed, N failed" line.
#ifndef FFI_CORE_TESTS_TARGET_TARGET_TEST_SUPPORT_H_
#define FFI_CORE_TESTS_TARGET_TARGET_TEST_SUPPORT_H_

#include <cstdio>

namespace target_test {

inline int g_passed = 0;
inline int g_failed = 0;

inline void Expect(bool ok, const char* what) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::printf("FAILED: %s\n", what);
  }
}

// Prints the closing line; the exit code to return.
inline int Report() {
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}

}  // namespace target_test

#endif  // FFI_CORE_TESTS_TARGET_TARGET_TEST_SUPPORT_H_
