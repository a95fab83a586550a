// On target (RISC-V boards): the __atomic helpers the RISC-V ports supply,
// raced against the timer interrupt. std::atomic<uint64_t> calls the
// __atomic_*_8 helpers on every RV32 core; without the A extension every
// 32-bit read-modify-write calls an __atomic_*_4 helper too. The handler
// and the main loop add to the same counters; none of the adds may be lost.
#include <ffi_core_board/systick.h>

#include <atomic>
#include <cstdint>
#include <cstdio>

#include "target_test_support.h"

using target_test::Expect;

namespace {

std::atomic<uint32_t> g_word{0};
std::atomic<uint64_t> g_wide{0};
volatile uint32_t g_isr_runs;

constexpr uint64_t kHigh = uint64_t{1} << 32;  // every wide add crosses into the high word

void OnTick(void*) {
  g_isr_runs = g_isr_runs + 1;
  g_word.fetch_add(1, std::memory_order_relaxed);
  g_wide.fetch_add(kHigh + 1, std::memory_order_relaxed);
}

}  // namespace

int main() {
  constexpr uint32_t kAdds = 200000;
  ffi_core_systick_set_callback(&OnTick, nullptr);
  if (ffi_core_systick_start(FFI_CORE_TEST_RACE_RELOAD) != 0) return 10;
  for (uint32_t i = 0; i < kAdds; ++i) {
    g_word.fetch_add(1, std::memory_order_relaxed);
    uint64_t seen = g_wide.load(std::memory_order_relaxed);
    while (!g_wide.compare_exchange_weak(seen, seen + kHigh + 1, std::memory_order_relaxed)) {
    }
  }
  ffi_core_systick_stop();
  const uint32_t runs = g_isr_runs;
  const uint64_t total = kAdds + uint64_t{runs};
  std::printf("isr runs %lu, word %lu, wide 0x%llx\n", static_cast<unsigned long>(runs),
              static_cast<unsigned long>(g_word.load()),
              static_cast<unsigned long long>(g_wide.load()));
  Expect(runs > 1000, "the interrupt ran often");
  Expect(g_word.load() == static_cast<uint32_t>(total), "no 32-bit add lost");
  Expect(g_wide.load() == total * (kHigh + 1), "no 64-bit add lost or torn");
  uint32_t expected = 5;
  g_word.store(7);
  Expect(!g_word.compare_exchange_strong(expected, 9) && expected == 7,
         "a failed 32-bit CAS reports the value it saw");
  Expect(g_word.exchange(11) == 7 && g_word.load() == 11, "32-bit exchange");
  return target_test::Report();
}
