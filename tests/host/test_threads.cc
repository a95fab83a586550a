// Host-only: the error slot is per thread and reference counts are atomic.
#include <thread>
#include <vector>

#include "../unit/test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

TEST_CASE("each thread has its own error slot") {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "main thread");
  bool other_saw_empty = false;
  std::string_view other_message;
  std::thread t([&] {
    other_saw_empty = !HasPendingError();
    TVMFFIErrorSetRaisedFromCStr("TypeError", "worker thread");
    TakenError e = TakeError();
    other_saw_empty = other_saw_empty && e.message == "worker thread";
  });
  t.join();
  CHECK(other_saw_empty);
  CHECK(TakeError().message == "main thread");
}

TEST_CASE("reference counts stay exact under concurrent copies") {
  AllocatorScope scope;
  Expected<String> s = String::FromCStr("shared between threads");
  REQUIRE(s.ok());
  TVMFFIObject* obj = s->any().raw().v_obj;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&s] {
      for (int k = 0; k < 20000; ++k) {
        Any copy(*s);
        Any another = copy;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(ObjectStrongCount(obj) == 1);
  CHECK(ObjectWeakCount(obj) == 1);
}

TEST_CASE("an error moved out on one thread can be released on another") {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "travels");
  Error e = Error::MoveFromRaised();
  std::thread t([e = std::move(e)]() mutable { e = Error(); });
  t.join();
  TVMFFIErrorSetRaisedFromCStr("ValueError", "slot reusable");
  CHECK(TakeError().message == "slot reusable");
}

TEST_CASE("an error moved out survives the exit of the thread that raised it") {
  // Regression: the error lived in the raising thread's thread_local slot,
  // so after the thread exited its memory was reused by the next thread.
  TVMFFIObjectHandle held = nullptr;
  std::thread raiser([&held] {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "raised on a thread that is gone");
    TVMFFIErrorMoveFromRaised(&held);
  });
  raiser.join();
  REQUIRE(held != nullptr);
  std::vector<std::thread> others;
  for (int i = 0; i < 4; ++i) {
    others.emplace_back([] {
      for (int k = 0; k < 8; ++k) {
        TVMFFIErrorSetRaisedFromCStr("TypeError", "another thread's text");
        TakeError();
      }
      TVMFFIErrorSetRaisedFromCStr("KeyError", "left pending at thread exit");
    });
  }
  for (std::thread& t : others) t.join();
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(held);
  CHECK(View(cell->kind) == "ValueError");
  CHECK(View(cell->message) == "raised on a thread that is gone");
  CHECK(ObjectStrongCount(static_cast<TVMFFIObject*>(held)) == 1);
  CHECK(TVMFFIObjectDecRef(held) == 0);
}
