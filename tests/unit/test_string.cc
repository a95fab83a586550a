#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

TEST_CASE("strings of up to 7 bytes use the small form and need no memory") {
  Allocator* previous = GetAllocator();
  SetAllocator(nullptr);
  for (const char* text : {"", "a", "1234567"}) {
    Expected<String> s = String::FromCStr(text);
    REQUIRE(s.ok());
    CHECK(s->is_small());
    CHECK(s->any().type_index() == kTVMFFISmallStr);
    CHECK(s->any().raw().small_str_len == std::strlen(text));
    CHECK(*s == text);
    CHECK(s->data()[s->size()] == '\0');
  }
  // Eight bytes need an object, and there is no allocator.
  Expected<String> big = String::FromCStr("12345678");
  CHECK_FALSE(big.ok());
  CHECK(big.status().kind() == ErrorKind::kMemoryError);
  TakenError t = TakeError();
  CHECK(t.kind == "MemoryError");
  CHECK(Contains(t.message, "no allocator installed"));
  SetAllocator(previous);
}

TEST_CASE("longer strings are Str objects with the ABI layout") {
  AllocatorScope scope;
  Expected<String> s = String::FromCStr("12345678");
  REQUIRE(s.ok());
  CHECK_FALSE(s->is_small());
  TVMFFIObject* obj = s->any().raw().v_obj;
  CHECK(obj->type_index == kTVMFFIStr);
  TVMFFIByteArray* bytes = TVMFFIBytesGetByteArrayPtr(obj);
  CHECK(View(*bytes) == "12345678");
  CHECK(bytes->data[8] == '\0');
}

TEST_CASE("bytes keep embedded zeros") {
  AllocatorScope scope;
  const char data[] = {'a', '\0', 'b', '\0', 'c', '\0', 'd', '\0', 'e'};
  Expected<Bytes> b = Bytes::FromBytes(data, sizeof(data));
  REQUIRE(b.ok());
  CHECK(b->any().type_index() == kTVMFFIBytes);
  CHECK(b->size() == sizeof(data));
  CHECK(std::memcmp(b->data(), data, sizeof(data)) == 0);
}

TEST_CASE("TVMFFIStringFromByteArray and TVMFFIBytesFromByteArray") {
  AllocatorScope scope;
  TVMFFIByteArray small{"tiny", 4};
  TVMFFIAny out = NoneAny();
  REQUIRE(TVMFFIStringFromByteArray(&small, &out) == 0);
  CHECK(out.type_index == kTVMFFISmallStr);
  CHECK(View(TVMFFISmallBytesGetContentByteArray(&out)) == "tiny");

  TVMFFIByteArray big{"definitely not small", 20};
  REQUIRE(TVMFFIBytesFromByteArray(&big, &out) == 0);
  CHECK(out.type_index == kTVMFFIBytes);
  CHECK(View(*TVMFFIBytesGetByteArrayPtr(out.v_obj)) == "definitely not small");
  CHECK(TVMFFIObjectDecRef(out.v_obj) == 0);

  CHECK(TVMFFIStringFromByteArray(nullptr, &out) != 0);
  CHECK(TakeError().kind == "ValueError");
  TVMFFIByteArray bad{nullptr, 3};
  CHECK(TVMFFIStringFromByteArray(&bad, &out) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("TVMFFIStringFromByteArray may read its input from the value it overwrites") {
  const TVMFFIByteArray text{"abcdefg", 7};
  for (size_t from = 0; from < 7; ++from) {
    CAPTURE(from);
    TVMFFIAny v = NoneAny();
    REQUIRE(TVMFFIStringFromByteArray(&text, &v) == 0);
    // The tail of v's own bytes, re-encoded into v.
    const TVMFFIByteArray tail{v.v_bytes + from, 7 - from};
    REQUIRE(TVMFFIStringFromByteArray(&tail, &v) == 0);
    CHECK(v.type_index == kTVMFFISmallStr);
    CHECK(v.small_str_len == 7 - from);
    char expected[8] = {};
    std::memcpy(expected, text.data + from, 7 - from);
    CHECK(std::memcmp(v.v_bytes, expected, sizeof(expected)) == 0);
  }
}

TEST_CASE("allocation failure while making a string is a MemoryError") {
  AllocatorScope scope;
  scope.counter().FailAfter(0);
  TVMFFIByteArray big{"definitely not small", 20};
  TVMFFIAny out = NoneAny();
  CHECK(TVMFFIStringFromByteArray(&big, &out) != 0);
  CHECK(out.type_index == kTVMFFINone);
  TakenError t = TakeError();
  CHECK(t.kind == "MemoryError");
  CHECK(Contains(t.message, "allocator exhausted"));
}

TEST_CASE("small payloads of every length and source alignment are copied exactly") {
  const char source[16] = "ABCDEFGHIJKLMNO";
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t size = 0; size <= 7; ++size) {
      CAPTURE(offset);
      CAPTURE(size);
      const TVMFFIByteArray input{source + offset, size};
      TVMFFIAny out = NoneAny();
      REQUIRE(TVMFFIBytesFromByteArray(&input, &out) == 0);
      CHECK(out.type_index == kTVMFFISmallBytes);
      CHECK(out.small_str_len == size);
      // The bytes, then zeros to the end of the value.
      char expected[8] = {};
      std::memcpy(expected, source + offset, size);
      CHECK(std::memcmp(out.v_bytes, expected, sizeof(expected)) == 0);
    }
  }
}

TEST_CASE("object payloads of every short length and source alignment are copied exactly") {
  AllocatorScope scope;
  char source[64];
  for (size_t i = 0; i < sizeof(source); ++i) source[i] = static_cast<char>('A' + i % 50);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t size = 8; size + offset <= sizeof(source); ++size) {
      CAPTURE(offset);
      CAPTURE(size);
      const TVMFFIByteArray input{source + offset, size};
      TVMFFIAny out = NoneAny();
      REQUIRE(TVMFFIBytesFromByteArray(&input, &out) == 0);
      const TVMFFIByteArray* bytes = TVMFFIBytesGetByteArrayPtr(out.v_obj);
      CHECK(bytes->size == size);
      CHECK(std::memcmp(bytes->data, source + offset, size) == 0);
      CHECK(bytes->data[size] == '\0');
      CHECK(TVMFFIObjectDecRef(out.v_obj) == 0);
    }
  }
}

TEST_CASE("an impossible object size is refused, not copied") {
  AllocatorScope scope;
  const char text[] = "not nearly that long";
  for (size_t size : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 40}) {
    CAPTURE(size);
    const TVMFFIByteArray input{text, size};
    TVMFFIAny out = NoneAny();
    CHECK(TVMFFIStringFromByteArray(&input, &out) != 0);
    CHECK(out.type_index == kTVMFFINone);
    CHECK(TakeError().kind == "MemoryError");
  }
  const TVMFFIByteArray null_data{nullptr, 8};
  TVMFFIAny out = NoneAny();
  CHECK(TVMFFIStringFromByteArray(&null_data, &out) != 0);
  CHECK(TakeError().kind == "ValueError");
}
