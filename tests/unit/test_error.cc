#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

TEST_CASE("an error raised from C comes back through the ABI's error cell") {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "bad shape");
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  REQUIRE(err != nullptr);
  CHECK(TVMFFIObjectGetTypeIndex(err) == kTVMFFIError);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  CHECK(View(cell->kind) == "ValueError");
  CHECK(View(cell->message) == "bad shape");
  CHECK(cell->cause_chain == nullptr);
  CHECK(TVMFFIObjectDecRef(err) == 0);
  // The slot is now empty.
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == nullptr);
}

TEST_CASE("message parts are concatenated and NULL parts skipped") {
  const char* parts[] = {"Argument 1 mismatch in `", nullptr, "matmul(x, y)", "`: dtype"};
  TVMFFIErrorSetRaisedFromCStrParts("TypeError", parts, 4);
  TakenError t = TakeError();
  CHECK(t.kind == "TypeError");
  CHECK(t.message == "Argument 1 mismatch in `matmul(x, y)`: dtype");
}

TEST_CASE("errors need no allocator") {
  Allocator* previous = GetAllocator();
  SetAllocator(nullptr);
  TVMFFICustomAllocator* custom = TVMFFIGetCustomAllocator();
  CHECK(custom != nullptr);
  TVMFFIErrorSetRaisedFromCStr("RuntimeError", "raised with no heap at all");
  TakenError t = TakeError();
  CHECK(t.kind == "RuntimeError");
  CHECK(t.message == "raised with no heap at all");
  SetAllocator(previous);
}

TEST_CASE("messages over capacity are cut with a visible marker, never overflow") {
  char long_message[3 * FFI_CORE_ERROR_MESSAGE_CAPACITY];
  std::memset(long_message, 'x', sizeof(long_message) - 1);
  long_message[sizeof(long_message) - 1] = '\0';
  TVMFFIErrorSetRaisedFromCStr("ValueError", long_message);
  TakenError t = TakeError();
  CHECK(t.message.size() == FFI_CORE_ERROR_MESSAGE_CAPACITY - 1);
  const std::string_view marker = FFI_CORE_TRUNCATION_MARKER;
  CHECK(t.message.substr(t.message.size() - marker.size()) == marker);
  CHECK(t.message.data()[t.message.size()] == '\0');

  char long_kind[2 * FFI_CORE_ERROR_KIND_CAPACITY];
  std::memset(long_kind, 'K', sizeof(long_kind) - 1);
  long_kind[sizeof(long_kind) - 1] = '\0';
  TVMFFIErrorSetRaisedFromCStr(long_kind, "m");
  TakenError k = TakeError();
  CHECK(k.kind.size() == FFI_CORE_ERROR_KIND_CAPACITY - 1);
}

TEST_CASE("message parts that cross the capacity are cut where they cross, with the marker") {
  const std::string_view marker = FFI_CORE_TRUNCATION_MARKER;
  // The first part fills the buffer exactly; any further byte is cut.
  char fill[FFI_CORE_ERROR_MESSAGE_CAPACITY];
  std::memset(fill, 'a', sizeof(fill) - 1);
  fill[sizeof(fill) - 1] = '\0';
  const char* exact[] = {fill, "", nullptr};
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", exact, 3);
  CHECK(TakeError().message == std::string_view(fill));
  const char* over[] = {fill, "b", "never copied"};
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", over, 3);
  TakenError t = TakeError();
  CHECK(t.message.size() == FFI_CORE_ERROR_MESSAGE_CAPACITY - 1);
  CHECK(t.message.substr(t.message.size() - marker.size()) == marker);
  CHECK(t.message.find('b') == std::string_view::npos);
  // Cut in the middle part: the last part is dropped.
  char half[FFI_CORE_ERROR_MESSAGE_CAPACITY / 2 + 1];
  std::memset(half, 'c', sizeof(half) - 1);
  half[sizeof(half) - 1] = '\0';
  const char* middle[] = {half, half, "tail"};
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", middle, 3);
  TakenError m = TakeError();
  CHECK(m.message.size() == FFI_CORE_ERROR_MESSAGE_CAPACITY - 1);
  CHECK(m.message.substr(m.message.size() - marker.size()) == marker);
  CHECK(m.message.find("tail") == std::string_view::npos);
  CHECK(m.message.data()[m.message.size()] == '\0');
}

TEST_CASE("a message exactly at capacity is kept whole") {
  char message[FFI_CORE_ERROR_MESSAGE_CAPACITY];
  std::memset(message, 'y', sizeof(message) - 1);
  message[sizeof(message) - 1] = '\0';
  TVMFFIErrorSetRaisedFromCStr("ValueError", message);
  TakenError t = TakeError();
  CHECK(t.message == std::string_view(message));
}

TEST_CASE("raising over a pending error replaces it without leaking") {
  AllocatorScope scope;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "first");
  TVMFFIErrorSetRaisedFromCStr("TypeError", "second");
  // A heap error set over an inline one, and replaced in turn.
  TVMFFIByteArray kind{"KeyError", 8};
  TVMFFIByteArray message{"third, from the heap", 20};
  TVMFFIObjectHandle heap = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &message, nullptr, &heap) == 0);
  CHECK(scope.counter().live_blocks() == 1);
  TVMFFIErrorSetRaised(heap);
  CHECK(TVMFFIObjectDecRef(heap) == 0);  // the slot holds its own reference
  TVMFFIErrorSetRaisedFromCStr("IndexError", "fourth");
  CHECK(scope.counter().live_blocks() == 0);
  TakenError t = TakeError();
  CHECK(t.kind == "IndexError");
  CHECK(t.message == "fourth");
}

TEST_CASE("errors held by the caller stay intact while new ones are raised") {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "kept");
  TakenError kept = TakeError();
  for (int i = 0; i < 5; ++i) TVMFFIErrorSetRaisedFromCStr("TypeError", "churn");
  CHECK(kept.message == "kept");
  TakenError last = TakeError();
  CHECK(last.message == "churn");
}

TEST_CASE("when the caller holds every pooled error, a static MemoryError stands in") {
  Allocator* previous = GetAllocator();
  SetAllocator(nullptr);
  Error held[FFI_CORE_ERROR_POOL_SIZE];
  for (Error& e : held) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "held");
    e = Error::MoveFromRaised();
    REQUIRE(e);
  }
  TVMFFIErrorSetRaisedFromCStr("TypeError", "no room");
  TakenError t = TakeError();
  CHECK(t.kind == "MemoryError");
  CHECK(Contains(t.message, "error pool exhausted"));
  for (Error& e : held) CHECK(View(e.message()) == "held");
  SetAllocator(previous);
}

TEST_CASE("TVMFFIErrorCreate never touches the slot, even when it fails") {
  AllocatorScope scope;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "pending before");
  scope.counter().FailAfter(0);
  TVMFFIByteArray kind{"TypeError", 9};
  TVMFFIByteArray message{"m", 1};
  TVMFFIObjectHandle out = nullptr;
  CHECK(TVMFFIErrorCreate(&kind, &message, nullptr, &out) != 0);
  CHECK(out == nullptr);
  scope.counter().FailAfter(-1);
  TakenError t = TakeError();
  CHECK(t.message == "pending before");
  CHECK(TVMFFIErrorCreate(nullptr, &message, nullptr, &out) != 0);
}

TEST_CASE("RaiseError formats integers and maps kinds both ways") {
  Status s = RaiseError(ErrorKind::kIndexError, {"index ", -12, " of ", 10u});
  CHECK(s.kind() == ErrorKind::kIndexError);
  CHECK(s.ToReturnCode() == -1);
  CHECK(StatusFromPendingError().kind() == ErrorKind::kIndexError);
  TakenError t = TakeError();
  CHECK(t.message == "index -12 of 10");
  CHECK(t.error.kind_code() == ErrorKind::kIndexError);
  CHECK(ErrorKindFromName("MemoryError", 11) == ErrorKind::kMemoryError);
  CHECK(ErrorKindFromName("SomethingElse", 13) == ErrorKind::kRuntimeError);
}

TEST_CASE("a NULL kind or message does not crash") {
  TVMFFIErrorSetRaisedFromCStr(nullptr, nullptr);
  TakenError t = TakeError();
  CHECK(t.kind == "RuntimeError");
  CHECK(t.message.empty());
  TVMFFIErrorMoveFromRaised(nullptr);
}

namespace {

// Raises a text of n bytes placed at offset `at` of a word-aligned buffer,
// with non-zero bytes around it, and checks what comes back.
void CheckTextAt(bool as_kind, size_t at, size_t n) {
  alignas(4) char src[FFI_CORE_ERROR_MESSAGE_CAPACITY + 16];
  std::memset(src, '#', sizeof(src));
  for (size_t i = 0; i < n; ++i) src[at + i] = static_cast<char>('a' + (at + i) % 26);
  src[at + n] = '\0';
  const char* text = src + at;
  if (as_kind) {
    TVMFFIErrorSetRaisedFromCStr(text, "m");
  } else {
    TVMFFIErrorSetRaisedFromCStr("ValueError", text);
  }
  TakenError t = TakeError();
  const std::string_view got = as_kind ? t.kind : t.message;
  const size_t cap = as_kind ? FFI_CORE_ERROR_KIND_CAPACITY : FFI_CORE_ERROR_MESSAGE_CAPACITY;
  CHECK(got.data()[got.size()] == '\0');
  if (n < cap) {
    CHECK(got == std::string_view(text, n));
  } else {
    const std::string_view marker = FFI_CORE_TRUNCATION_MARKER;
    CHECK(got.size() == cap - 1);
    CHECK(got.substr(0, got.size() - marker.size()) ==
          std::string_view(text, cap - 1 - marker.size()));
    CHECK(got.substr(got.size() - marker.size()) == marker);
  }
}

}  // namespace

TEST_CASE("kinds and messages of every length and alignment come back exact") {
  for (size_t at = 0; at < 4; ++at) {
    for (size_t n = 0; n <= FFI_CORE_ERROR_KIND_CAPACITY + 4; ++n) CheckTextAt(true, at, n);
    for (size_t n = 0; n <= FFI_CORE_ERROR_MESSAGE_CAPACITY + 4; ++n) CheckTextAt(false, at, n);
  }
}
