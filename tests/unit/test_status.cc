// Status, Expected and the propagation macros.
#include <climits>
#include <cstdint>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

Expected<int> Half(int x) {
  if (x % 2 != 0) return RaiseError(ErrorKind::kValueError, {"odd: ", x});
  return x / 2;
}

Status CheckHalf(int x) {
  FFI_CORE_RETURN_IF_ERROR(Half(x));  // an Expected, not a Status
  return Status::Ok();
}

Expected<int> Quarter(int x) {
  FFI_CORE_ASSIGN_OR_RETURN(int h, Half(x));
  FFI_CORE_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

// A buggy producer: returns "OK" but no value.
Expected<int> ForgetsTheValue() { return Status::Ok(); }

Expected<int> PassesItOn() {
  FFI_CORE_ASSIGN_OR_RETURN(int v, ForgetsTheValue());
  return v + 1;
}

}  // namespace

TEST_CASE("FFI_CORE_RETURN_IF_ERROR takes a Status or an Expected") {
  CHECK(CheckHalf(4).ok());
  Status s = CheckHalf(3);
  CHECK(s.kind() == ErrorKind::kValueError);
  CHECK(TakeError().message == "odd: 3");
  Expected<int> q = Quarter(12);
  REQUIRE(q.ok());
  CHECK(*q == 3);
  CHECK(Quarter(6).status().kind() == ErrorKind::kValueError);
  TakeError();
}

TEST_CASE("an Expected built from an OK Status is refused, never ok without a value") {
  Expected<int> e = ForgetsTheValue();
  CHECK(!e.ok());
  CHECK(!e.status().ok());
  CHECK(e.status().kind() == ErrorKind::kInternalError);
  TakenError t = TakeError();
  CHECK(t.kind == "InternalError");
  CHECK(Contains(t.message, "OK Status without a value"));
  // Propagation stops too instead of reading a value that is not there.
  Expected<int> passed = PassesItOn();
  CHECK(!passed.ok());
  CHECK(passed.status().kind() == ErrorKind::kInternalError);
  TakeError();
}

TEST_CASE("error messages take every integral type, extremes included") {
  const uint64_t u64_max = UINT64_MAX;
  const int64_t i64_min = INT64_MIN;
  const unsigned long long ull = 42ull;
  const short sh = -7;
  const unsigned char uc = 200;
  const size_t sz = 5;
  static_cast<void>(RaiseError(ErrorKind::kValueError,
                               {u64_max, " ", i64_min, " ", ull, " ", sh, " ", uc, " ", sz}));
  CHECK(TakeError().message == "18446744073709551615 -9223372036854775808 42 -7 200 5");
}
