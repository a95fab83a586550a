#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

int g_destroyed = 0;
struct Counted {
  TVMFFIObject header;
  int payload;
  ~Counted() { ++g_destroyed; }
};

}  // namespace

TEST_CASE("the object header is the ABI's 24 bytes and starts at strong 1, weak 1") {
  CHECK(sizeof(TVMFFIObject) == 24);
  AllocatorScope scope;
  Expected<Counted*> made = NewObject<Counted>(kTVMFFIDynObjectBegin, 0);
  REQUIRE(made.ok());
  TVMFFIObject* h = &made.value()->header;
  CHECK(h->combined_ref_count == ((uint64_t{1} << 32) | 1));
  CHECK(h->type_index == kTVMFFIDynObjectBegin);
  CHECK(h->__padding == 0);
  CHECK(scope.counter().live_blocks() == 1);
  g_destroyed = 0;
  ObjectDecRef(h);
  CHECK(g_destroyed == 1);
  CHECK(scope.counter().live_blocks() == 0);
}

TEST_CASE("ObjectPtr counts strong references") {
  AllocatorScope scope;
  g_destroyed = 0;
  {
    Expected<Counted*> made = NewObject<Counted>(kTVMFFIDynObjectBegin, 0);
    REQUIRE(made.ok());
    ObjectPtr<Counted> a = ObjectPtr<Counted>::Adopt(made.value());
    CHECK(a.use_count() == 1);
    ObjectPtr<Counted> b = a;
    CHECK(a.use_count() == 2);
    b.reset();
    CHECK(a.use_count() == 1);
    CHECK(g_destroyed == 0);
  }
  CHECK(g_destroyed == 1);
}

TEST_CASE("weak references: destroy on last strong, free on last weak") {
  AllocatorScope scope;
  g_destroyed = 0;
  Expected<Counted*> made = NewObject<Counted>(kTVMFFIDynObjectBegin, 0);
  REQUIRE(made.ok());
  ObjectPtr<Counted> strong = ObjectPtr<Counted>::Adopt(made.value());
  WeakObjectPtr<Counted> weak(strong);
  CHECK(ObjectWeakCount(strong.header()) == 2);
  {
    ObjectPtr<Counted> again = weak.lock();
    CHECK(again == strong);
    CHECK(strong.use_count() == 2);
  }
  strong.reset();
  CHECK(g_destroyed == 1);                    // payload gone
  CHECK(scope.counter().live_blocks() == 1);  // storage kept for the weak ref
  CHECK(weak.expired());
  CHECK_FALSE(weak.lock());
  weak.reset();
  CHECK(scope.counter().live_blocks() == 0);
}

namespace {
int g_last_flags = 0;
void RecordingDeleter(void* self, int flags) {
  g_last_flags |= flags;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectStorage(self);
}
}  // namespace

TEST_CASE("deleter flags follow the ABI: Both in the common case") {
  AllocatorScope scope;
  Expected<void*> mem = AllocateObjectStorage(sizeof(TVMFFIObject), alignof(TVMFFIObject), 200);
  REQUIRE(mem.ok());
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(mem.value());
  InitObjectHeader(obj, 200, &RecordingDeleter);
  g_last_flags = 0;
  ObjectDecRef(obj);
  CHECK(g_last_flags == kTVMFFIObjectDeleterFlagBitMaskBoth);
}

TEST_CASE("opaque objects run their deleter on the handle") {
  AllocatorScope scope;
  static int released = 0;
  int token = 42;
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIObjectCreateOpaque(
              &token, kTVMFFIOpaquePyObject, [](void* p) { released = *static_cast<int*>(p); },
              &h) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(h) == kTVMFFIOpaquePyObject);
  CHECK(TVMFFIOpaqueObjectGetCellPtr(h)->handle == &token);
  CHECK(TVMFFIObjectIncRef(h) == 0);
  CHECK(TVMFFIObjectDecRef(h) == 0);
  CHECK(released == 0);
  CHECK(TVMFFIObjectDecRef(h) == 0);
  CHECK(released == 42);
}

TEST_CASE("opaque objects need an object type index") {
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFIObjectCreateOpaque(nullptr, kTVMFFIInt, nullptr, &h) != 0);
  CHECK(TakeError().kind == "ValueError");
  CHECK(TVMFFIObjectCreateOpaque(nullptr, kTVMFFIOpaquePyObject, nullptr, nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("IncRef/DecRef on NULL report an error") {
  CHECK(TVMFFIObjectIncRef(nullptr) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "ValueError");
  CHECK(Contains(t.message, "TVMFFIObjectIncRef"));
  CHECK(TVMFFIObjectDecRef(nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}
