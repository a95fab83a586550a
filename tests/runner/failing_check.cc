// Fails on purpose: tests/CMakeLists.txt expects this run to exit non-zero
// and to report the check's place, expression, values and context.
#include "../unit/test_support.h"

TEST_CASE("a failing check fails the run") {
  const int step = 7;
  CAPTURE(step);
  const int sum = 2 + 2;
  CHECK(sum == 5);
  CHECK(sum == 4);
}

TEST_CASE("a failing require fails the run") {
  const bool ready = false;
  REQUIRE(ready);
}
