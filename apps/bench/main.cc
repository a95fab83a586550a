// Call-cost benchmark for the boards: instructions per operation, counted
// deterministically. Run under QEMU with -icount shift=0 (one instruction
// per virtual nanosecond; boards/qemu-run.sh with FFI_CORE_QEMU_ICOUNT=1),
// so SysTick counts of the processor clock convert exactly to instructions.
#include <ffi_core/ffi_core.h>
#include <ffi_core_board/systick.h>

#include <cstdio>

namespace {

constexpr uint32_t kReload = 999;  // an interrupt every 1000 clock counts
constexpr int kIterations = 20000;

ffi_core::StaticPool<96, 8> g_pool;
TVMFFIObjectHandle g_add = nullptr;
TVMFFIAny g_args[2];

int Add(void*, const TVMFFIAny* args, int32_t, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}

void Empty() {}
void CallTwoInts() {
  TVMFFIAny result = ffi_core::NoneAny();
  TVMFFIFunctionCall(g_add, g_args, 2, &result);
}
void IncDecRef() {
  TVMFFIObjectIncRef(g_add);
  TVMFFIObjectDecRef(g_add);
}
void RaiseAndTake() {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "bad input");
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIObjectDecRef(err);
}
void SmallString() {
  TVMFFIByteArray bytes{"abc", 3};
  TVMFFIAny out = ffi_core::NoneAny();
  TVMFFIStringFromByteArray(&bytes, &out);
}
void StringObject() {
  TVMFFIByteArray bytes{"a longer string", 15};
  TVMFFIAny out = ffi_core::NoneAny();
  TVMFFIStringFromByteArray(&bytes, &out);
  TVMFFIObjectDecRef(out.v_obj);
}

// Clock counts for kIterations calls of fn, from interrupts plus the
// current counter value.
uint64_t Measure(void (*fn)()) {
  ffi_core_systick_start(kReload);
  const uint32_t ticks0 = ffi_core_systick_ticks();
  const uint32_t val0 = ffi_core_systick_count();
  for (int i = 0; i < kIterations; ++i) fn();
  const uint32_t val1 = ffi_core_systick_count();
  const uint32_t ticks1 = ffi_core_systick_ticks();
  ffi_core_systick_stop();
  // The counter counts down from kReload.
  return uint64_t{ticks1 - ticks0} * (kReload + 1) + val0 - val1;
}

}  // namespace

int main() {
  ffi_core::SetAllocator(g_pool.allocator());
  if (TVMFFIFunctionCreate(nullptr, &Add, nullptr, &g_add) != 0) return 1;
  ffi_core::TypeTraits<int64_t>::Write(40, &g_args[0]);
  ffi_core::TypeTraits<int64_t>::Write(2, &g_args[1]);
  struct Case {
    const char* name;
    void (*fn)();
  };
  const Case cases[] = {{"TVMFFIFunctionCall, 2 int args", &CallTwoInts},
                        {"TVMFFIObjectIncRef + DecRef", &IncDecRef},
                        {"raise + MoveFromRaised + DecRef", &RaiseAndTake},
                        {"TVMFFIStringFromByteArray, 3 B (small)", &SmallString},
                        {"TVMFFIStringFromByteArray, 15 B (object) + DecRef", &StringObject}};
  const uint64_t loop = Measure(&Empty);
  std::printf("ffi-core call cost on %s, %d iterations, instructions per operation\n",
              FFI_CORE_BENCH_BOARD, kIterations);
  std::printf("(loop overhead subtracted; checking mode %s)\n",
              FFI_CORE_CHECK_PADDING ? "on" : "off");
  for (const Case& c : cases) {
    const uint64_t counts = Measure(c.fn) - loop;
    // FFI_CORE_BENCH_NS_PER_COUNT_X100: virtual ns per clock count, x100.
    const uint64_t insns_x100 = counts * FFI_CORE_BENCH_NS_PER_COUNT_X100 / kIterations;
    std::printf("  %-52s %5lu.%02lu\n", c.name, static_cast<unsigned long>(insns_x100 / 100),
                static_cast<unsigned long>(insns_x100 % 100));
  }
  TVMFFIObjectDecRef(g_add);
  return 0;
}
