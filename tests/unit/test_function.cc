#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

TEST_CASE("a typed function converts arguments and its result") {
  AllocatorScope scope;
  Expected<Function> add = Function::FromTyped([](int64_t a, int64_t b) { return a + b; }, "add");
  REQUIRE(add.ok());
  Expected<Any> r = (*add)(int64_t{2}, int64_t{40});
  REQUIRE(r.ok());
  CHECK(r->As<int64_t>().value() == 42);
}

TEST_CASE("a typed function reports the arity") {
  AllocatorScope scope;
  Expected<Function> add = Function::FromTyped([](int a, int b) { return a + b; }, "add");
  REQUIRE(add.ok());
  Expected<Any> r = (*add)(1);
  CHECK_FALSE(r.ok());
  CHECK(r.status().kind() == ErrorKind::kTypeError);
  TakenError t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(t.message == "add: expected 2 arguments, got 1");
}

TEST_CASE("a typed function names the bad argument, expected and actual type") {
  AllocatorScope scope;
  Expected<Function> f = Function::FromTyped([](int, double, String) { return 0; }, "f");
  REQUIRE(f.ok());
  Expected<Any> r = (*f)(1, "not a float", "s");
  CHECK_FALSE(r.ok());
  TakenError t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(t.message == "f: argument #1: expected float, got const char*");

  r = (*f)(1, 2.0, 3);
  CHECK_FALSE(r.ok());
  t = TakeError();
  CHECK(t.message == "f: argument #2: expected str, got int");

  r = (*f)(int64_t{1} << 40, 2.0, "s");
  CHECK_FALSE(r.ok());
  t = TakeError();
  CHECK(t.message == "f: argument #0: value out of range for int");
}

TEST_CASE("typed functions may return void, Status or Expected") {
  AllocatorScope scope;
  int calls = 0;
  Expected<Function> v = Function::FromTyped([&calls](int x) { calls += x; });
  REQUIRE(v.ok());
  Expected<Any> r = (*v)(5);
  REQUIRE(r.ok());
  CHECK(r->is_none());
  CHECK(calls == 5);

  Expected<Function> fails = Function::FromTyped([](int x) -> Expected<int> {
    if (x < 0) return RaiseError(ErrorKind::kValueError, {"negative: ", x});
    return x * 2;
  });
  REQUIRE(fails.ok());
  CHECK((*fails)(4)->As<int>().value() == 8);
  Expected<Any> bad = (*fails)(-3);
  CHECK_FALSE(bad.ok());
  CHECK(bad.status().kind() == ErrorKind::kValueError);
  CHECK(TakeError().message == "negative: -3");
}

TEST_CASE("strings cross a typed call in both forms") {
  AllocatorScope scope;
  Expected<Function> echo = Function::FromTyped([](String s) { return s; });
  REQUIRE(echo.ok());
  for (const char* text : {"short", "a string that needs an object"}) {
    Expected<Any> r = (*echo)(text);
    REQUIRE(r.ok());
    Expected<String> s = r->As<String>();
    REQUIRE(s.ok());
    CHECK(*s == text);
  }
}

TEST_CASE("a packed function sees raw arguments") {
  AllocatorScope scope;
  Expected<Function> count = Function::FromPacked([](PackedArgs args, Any* rv) {
    *rv = Any(static_cast<int64_t>(args.size()));
    return Status::Ok();
  });
  REQUIRE(count.ok());
  CHECK((*count)(1, 2.0, "three", nullptr)->As<int>().value() == 4);
  CHECK((*count)()->As<int>().value() == 0);
}

TEST_CASE("a failing callee that forgot to raise still yields an error") {
  AllocatorScope scope;
  Expected<Function> f =
      Function::FromPacked([](PackedArgs, Any*) { return Status(ErrorKind::kValueError); });
  REQUIRE(f.ok());
  CHECK_FALSE((*f)().ok());
  TakenError t = TakeError();
  CHECK(t.kind == "RuntimeError");
  CHECK(Contains(t.message, "without raising"));
}

TEST_CASE("captured state is destroyed with the function") {
  AllocatorScope scope;
  struct Probe {
    int* destroyed;
    ~Probe() {
      if (destroyed != nullptr) ++*destroyed;
    }
    Probe(int* d) : destroyed(d) {}
    Probe(Probe&& o) noexcept : destroyed(o.destroyed) { o.destroyed = nullptr; }
  };
  int destroyed = 0;
  {
    Expected<Function> f =
        Function::FromPacked([p = Probe(&destroyed)](PackedArgs, Any*) { return Status::Ok(); });
    REQUIRE(f.ok());
    CHECK(destroyed == 0);
  }
  CHECK(destroyed == 1);
}

TEST_CASE("creating a function without memory is a MemoryError") {
  AllocatorScope scope;
  scope.counter().FailAfter(0);
  Expected<Function> f = Function::FromTyped([](int x) { return x; });
  CHECK_FALSE(f.ok());
  CHECK(f.status().kind() == ErrorKind::kMemoryError);
  CHECK(TakeError().kind == "MemoryError");
}

TEST_CASE("functions travel inside Any and come back typed") {
  AllocatorScope scope;
  Expected<Function> inner = Function::FromTyped([](int x) { return x + 1; });
  REQUIRE(inner.ok());
  Expected<Function> apply =
      Function::FromTyped([](Function f, int x) -> Expected<Any> { return f(x); });
  REQUIRE(apply.ok());
  Expected<Any> r = (*apply)(*inner, 41);
  REQUIRE(r.ok());
  CHECK(r->As<int>().value() == 42);
}
