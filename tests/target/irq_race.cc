// On target: reference counting raced between the main loop and the SysTick
// interrupt. The handler churns a shared object (inc/dec strong and weak,
// promote, global lock) and drops the last strong reference of objects the
// main loop is concurrently promoting and releasing weakly. Every object
// must be destroyed exactly once and freed exactly once. The handler counts
// where it lands (interrupted_window.h): the test fails unless it hit the
// masked sections on every port, and the exclusive-access windows where the
// port has them.
#include <ffi_core/object.h>
#include <ffi_core/port.h>
#include <ffi_core_board/systick.h>

#include <cstdio>

#include "interrupted_window.h"
#include "target_test_support.h"

using namespace ffi_core;

using target_test::Expect;

namespace {

constexpr int kObjects = 3000;
constexpr int kSlots = 64;
// Each window kind must be hit this often: under -icount the same build hits
// the same number every run, far above this.
constexpr uint32_t kMinHits = 20;

volatile uint32_t g_destroy_only;  // deleter(Strong)
volatile uint32_t g_free_only;     // deleter(Weak)
volatile uint32_t g_both;          // deleter(Both)
volatile uint32_t g_isr_runs;
volatile uint32_t g_in_exclusive;  // landed between an exclusive load and store
volatile uint32_t g_after_masked;  // waited for a masked section to end
TVMFFIObject g_shared;
TVMFFIObject g_objects[kSlots];
TVMFFIObject* volatile g_handoff;

void CountingDeleter(void*, int flags) {
  if (flags == kTVMFFIObjectDeleterFlagBitMaskBoth) g_both = g_both + 1;
  if (flags == kTVMFFIObjectDeleterFlagBitMaskStrong) g_destroy_only = g_destroy_only + 1;
  if (flags == kTVMFFIObjectDeleterFlagBitMaskWeak) g_free_only = g_free_only + 1;
}

void Churn(TVMFFIObject* o) {
  ObjectIncRef(o);
  ObjectIncWeakRef(o);
  if (ObjectTryPromoteWeak(o)) ObjectDecRef(o);
  ObjectDecWeakRef(o);
  ObjectDecRef(o);
  port::GlobalLock();
  port::GlobalUnlock();
}

void OnTick(void*) {
  g_isr_runs = g_isr_runs + 1;
  switch (target_test::ClassifyInterruptedPc(ffi_core_systick_interrupted_pc())) {
    case target_test::Window::kExclusive:
      g_in_exclusive = g_in_exclusive + 1;
      break;
    case target_test::Window::kAfterMasked:
      g_after_masked = g_after_masked + 1;
      break;
    case target_test::Window::kOther:
      break;
  }
  Churn(&g_shared);
  TVMFFIObject* h = g_handoff;
  if (h != nullptr) {
    g_handoff = nullptr;
    ObjectDecRef(h);  // the last strong reference, racing the main loop
  }
}

}  // namespace

int main() {
  InitObjectHeader(&g_shared, kTVMFFIDynObjectBegin, &CountingDeleter);
  ffi_core_systick_set_callback(&OnTick, nullptr);
  // An interrupt every few thousand instructions (tests/target/CMakeLists.txt
  // picks the board's timer counts) lands inside the LDREX/STREX, LR/SC or
  // masked windows of the main loop many times over.
  if (ffi_core_systick_start(FFI_CORE_TEST_RACE_RELOAD) != 0) return 10;
  // A fixed-length loop would meet a fixed-period interrupt at the same few
  // instructions every time: a spin of pseudo-random length between churns
  // moves the phase, so the interrupt lands all over the loop.
  uint32_t lcg = 1;
  for (int i = 0; i < 100000; ++i) {
    Churn(&g_shared);
    lcg = lcg * 1664525u + 1013904223u;
    for (uint32_t spin = lcg >> 28; spin > 0; --spin) __asm__ volatile("nop");
  }

  uint32_t promoted = 0;
  for (int i = 0; i < kObjects; ++i) {
    TVMFFIObject* o = &g_objects[i % kSlots];
    InitObjectHeader(o, kTVMFFIDynObjectBegin, &CountingDeleter);
    ObjectIncWeakRef(o);
    g_handoff = o;  // the handler now owns the strong reference
    for (int spin = (i * 7919) % 1500; spin > 0; --spin) __asm__ volatile("nop");
    if (ObjectTryPromoteWeak(o)) {
      ++promoted;
      ObjectDecRef(o);
    }
    ObjectDecWeakRef(o);
    while (g_handoff != nullptr) {
    }
  }
  ffi_core_systick_stop();

  std::printf(
      "isr runs %lu (in exclusive windows %lu, after masked sections %lu), promoted %lu, "
      "deleter calls: both %lu, strong %lu, weak %lu\n",
      static_cast<unsigned long>(g_isr_runs), static_cast<unsigned long>(g_in_exclusive),
      static_cast<unsigned long>(g_after_masked), static_cast<unsigned long>(promoted),
      static_cast<unsigned long>(g_both), static_cast<unsigned long>(g_destroy_only),
      static_cast<unsigned long>(g_free_only));
  Expect(g_isr_runs > 1000, "the interrupt ran often");
  Expect(g_after_masked >= kMinHits, "interrupts waited for masked sections");
  Expect(!target_test::kHasExclusiveAccess || g_in_exclusive >= kMinHits,
         "interrupts landed inside exclusive-access windows");
  Expect(ObjectStrongCount(&g_shared) == 1 && ObjectWeakCount(&g_shared) == 1,
         "shared counts intact");
  Expect(g_destroy_only + g_both == kObjects, "every object destroyed once");
  Expect(g_free_only + g_both == kObjects, "every object freed once");
  Expect(g_both >= 1 && g_destroy_only >= 1, "both release paths ran");
  bool all_dead = true;
  for (const TVMFFIObject& o : g_objects) all_dead = all_dead && ObjectStrongCount(&o) == 0;
  Expect(all_dead, "no object left alive");
  ObjectDecRef(&g_shared);
  return target_test::Report();
}
