#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

TEST_CASE("with no allocator, every object allocation fails with a clear MemoryError") {
  Allocator* previous = GetAllocator();
  SetAllocator(nullptr);
  TVMFFIObjectHandle f = nullptr;
  CHECK(TVMFFIFunctionCreate(
            reinterpret_cast<void*>(1),
            [](void*, const TVMFFIAny*, int32_t, TVMFFIAny*) { return 0; }, nullptr, &f) != 0);
  TakenError t = TakeError();
  CHECK(t.kind == "MemoryError");
  CHECK(Contains(t.message, "no allocator installed"));
  CHECK(Contains(t.message, "for type index 68"));  // kTVMFFIFunction
  SetAllocator(previous);
}

TEST_CASE("the system heap by default: objects on the host, a clear refusal on bare metal") {
  Allocator* previous = GetAllocator();
  SetAllocator(SystemAllocator());
  TVMFFIObjectHandle f = nullptr;
  const int rc = TVMFFIFunctionCreate(
      reinterpret_cast<void*>(1), [](void*, const TVMFFIAny*, int32_t, TVMFFIAny*) { return 0; },
      nullptr, &f);
  if (FFI_CORE_TEST_SYSTEM_HEAP) {
    REQUIRE(rc == 0);
    CHECK(TVMFFIObjectDecRef(f) == 0);
  } else {
    CHECK(rc != 0);
    TakenError t = TakeError();
    CHECK(t.kind == "MemoryError");
    CHECK(Contains(t.message, "system heap exhausted or absent"));
  }
  SetAllocator(previous);
}

TEST_CASE("ArenaAllocator: aligned bumps, exhaustion, reset") {
  static StaticArena<256> arena;
  REQUIRE(arena.Reset());
  Allocator* a = arena.allocator();
  void* p1 = Allocate(*a, 10, 1);
  void* p2 = Allocate(*a, 16, 16);
  REQUIRE(p1 != nullptr);
  REQUIRE(p2 != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(p2) % 16 == 0);
  CHECK(arena.live_blocks() == 2);
  CHECK(Allocate(*a, 1024, 8) == nullptr);
  CHECK(arena.failed_allocations() == 1);
  CHECK(Allocate(*a, 8, 3) == nullptr);  // not a power of two
  CHECK_FALSE(arena.Reset());            // blocks still live
  Deallocate(*a, p1, 10, 1);
  Deallocate(*a, p2, 16, 16);
  CHECK(arena.Reset());
  CHECK(arena.used_bytes() == 0);
}

TEST_CASE("objects from an arena in static storage") {
  static StaticArena<1024> arena;
  REQUIRE(arena.Reset());
  Allocator* previous = GetAllocator();
  SetAllocator(arena.allocator());
  {
    Expected<String> s = String::FromCStr("lives in the arena, not the heap");
    REQUIRE(s.ok());
    CHECK(arena.live_blocks() == 1);
    const uintptr_t p = reinterpret_cast<uintptr_t>(s->data());
    const uintptr_t lo = reinterpret_cast<uintptr_t>(&arena);
    CHECK(p > lo);
    CHECK(p < lo + sizeof(arena));
  }
  CHECK(arena.live_blocks() == 0);
  // Exhaust it: the failure is a MemoryError naming the size.
  char big[2048];
  std::memset(big, 'z', sizeof(big));
  CHECK_FALSE(String::FromBytes(big, sizeof(big)).ok());
  TakenError t = TakeError();
  CHECK(t.kind == "MemoryError");
  CHECK(Contains(t.message, "allocator exhausted"));
  SetAllocator(previous);
}

TEST_CASE("PoolAllocator: fixed blocks, reuse, limits") {
  static StaticPool<64, 4> pool;
  Allocator* a = pool.allocator();
  CHECK(pool.block_count() == 4);
  void* blocks[4];
  for (void*& b : blocks) {
    b = Allocate(*a, 64, 8);
    REQUIRE(b != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(b) % PoolAllocator::kBlockAlignment == 0);
  }
  CHECK(Allocate(*a, 8, 8) == nullptr);  // empty
  CHECK(pool.peak_blocks() == 4);
  Deallocate(*a, blocks[2], 64, 8);
  CHECK(Allocate(*a, 65, 8) == nullptr);  // too big for a block
  void* again = Allocate(*a, 32, 8);
  CHECK(again == blocks[2]);
  for (void* b : blocks) Deallocate(*a, b, 64, 8);
  CHECK(pool.live_blocks() == 0);
  CHECK(pool.failed_allocations() == 2);
}

TEST_CASE("strings and functions from a pool, all returned") {
  static StaticPool<96, 8> pool;
  Allocator* previous = GetAllocator();
  SetAllocator(pool.allocator());
  {
    Expected<String> s = String::FromCStr("pooled string");
    Expected<Function> f = Function::FromTyped([](int x) { return x; });
    REQUIRE(s.ok());
    REQUIRE(f.ok());
    CHECK(pool.live_blocks() == 2);
  }
  CHECK(pool.live_blocks() == 0);
  SetAllocator(previous);
}

TEST_CASE("the system heap aligns small and large requests and refuses odd alignments") {
  Allocator* a = SystemAllocator();
  for (size_t alignment : {size_t{1}, size_t{8}, size_t{16}, size_t{64}, size_t{4096}}) {
    CAPTURE(alignment);
    void* p = Allocate(*a, 24, alignment);
    if (!FFI_CORE_TEST_SYSTEM_HEAP) {
      CHECK(p == nullptr);  // bare metal: no heap, every request refused
      continue;
    }
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(p) % alignment == 0);
    std::memset(p, 0xab, 24);
    Deallocate(*a, p, 24, alignment);
  }
  CHECK(Allocate(*a, 24, 12) == nullptr);
  CHECK(Allocate(*a, 24, 0) == nullptr);
}

TEST_CASE("CountingAllocator counts and injects failures") {
  CountingAllocator counter(TestHeap());
  Allocator* a = counter.allocator();
  void* p = Allocate(*a, 40, 8);
  REQUIRE(p != nullptr);
  CHECK(counter.live_blocks() == 1);
  CHECK(counter.live_bytes() == 40);
  counter.FailAfter(1);
  void* q = Allocate(*a, 8, 8);
  CHECK(q != nullptr);
  CHECK(Allocate(*a, 8, 8) == nullptr);
  Deallocate(*a, p, 40, 8);
  Deallocate(*a, q, 8, 8);
  CHECK(counter.live_blocks() == 0);
  CHECK(counter.total_allocations() == 2);
}

TEST_CASE("HeapAllocator gives blocks of any size, aligned, and merges what comes back") {
  static StaticHeap<2048> heap;
  Allocator* a = heap.allocator();
  void* p = Allocate(*a, 100, 8);
  void* q = Allocate(*a, 300, 64);
  void* r = Allocate(*a, 1, 1);
  REQUIRE(p != nullptr);
  REQUIRE(q != nullptr);
  REQUIRE(r != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(p) % HeapAllocator::kGranule == 0);
  CHECK(reinterpret_cast<uintptr_t>(q) % 64 == 0);
  CHECK(heap.live_blocks() == 3);
  std::memset(q, 0xab, 300);  // writable, and not overlapping the others' headers
  // Too big, a bad alignment: refused, counted, nothing else disturbed.
  CHECK(Allocate(*a, 4096, 8) == nullptr);
  CHECK(Allocate(*a, 8, 3) == nullptr);
  CHECK(heap.failed_allocations() == 2);
  const size_t peak = heap.peak_bytes();
  Deallocate(*a, q, 300, 64);
  Deallocate(*a, p, 100, 8);
  Deallocate(*a, r, 1, 1);
  CHECK(heap.live_blocks() == 0);
  CHECK(heap.used_bytes() == 0);
  CHECK(heap.peak_bytes() == peak);
  // Small blocks gather at the top, large ones at the bottom, so a small
  // survivor does not cut the space a large block needs in two.
  void* small = Allocate(*a, 32, 8);
  void* large = Allocate(*a, 512, 8);
  REQUIRE(small != nullptr);
  REQUIRE(large != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(large) < reinterpret_cast<uintptr_t>(small));
  Deallocate(*a, large, 512, 8);
  void* larger = Allocate(*a, 1024, 8);
  CHECK(larger == large);
  Deallocate(*a, larger, 1024, 8);
  Deallocate(*a, small, 32, 8);
  // Merged again: one block nearly the whole heap fits.
  void* big = Allocate(*a, heap.capacity() - 64, 8);
  CHECK(big != nullptr);
  Deallocate(*a, big, heap.capacity() - 64, 8);
  heap.ResetPeak();
  CHECK(heap.peak_bytes() == 0);
}
