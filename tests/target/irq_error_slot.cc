// On target: an interrupt, and tasks, with their own calling contexts (each
// with its error slot). The firmware overrides ffi_core_port_context
// (port_hooks.h) to give a handler (ffi_core_board_in_interrupt) a context of its own, and
// in thread mode the context of the running task, as an RTOS would (here two tasks switched by
// hand). The SysTick handler raises into it, reads its error back and releases it, thousands of
// times, while the main loop raises, holds and re-reads its own errors. Errors come from the pool
// shared by both contexts (claimed atomically), so neither may ever see the other's text, a held
// error never changes, and at the end every pooled error is free again.
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/port_hooks.h>
#include <ffi_core_board/systick.h>

#include <cstdio>
#include <cstring>

#include "target_test_support.h"

using namespace ffi_core;

using target_test::Expect;

namespace {

port::ContextStorage g_task_contexts[2];
volatile int g_current_task;  // what an RTOS keeps in its task control block
port::ContextStorage g_irq_context;

volatile uint32_t g_irq_raised;
volatile uint32_t g_irq_wrong;
volatile uint32_t g_irq_exhausted;

bool Is(const TVMFFIByteArray& b, const char* text) {
  return b.size == std::strlen(text) && std::memcmp(b.data, text, b.size) == 0;
}

void OnTick(void*) {
  // Leave one pending now and then: the next raise replaces it.
  TVMFFIErrorSetRaisedFromCStr("KeyError", "from the interrupt");
  g_irq_raised = g_irq_raised + 1;
  if (g_irq_raised % 4 == 0) return;
  TVMFFIObjectHandle e = nullptr;
  TVMFFIErrorMoveFromRaised(&e);
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(e);
  if (Is(cell->kind, "MemoryError")) {
    g_irq_exhausted = g_irq_exhausted + 1;  // the documented stand-in
  } else if (!Is(cell->kind, "KeyError") || !Is(cell->message, "from the interrupt")) {
    g_irq_wrong = g_irq_wrong + 1;
  }
  TVMFFIObjectDecRef(e);
}

}  // namespace

// Handler mode has its own context; in thread mode, each task has its own.
extern "C" port::ContextStorage* ffi_core_port_context(void) {
  return ffi_core_board_in_interrupt() ? &g_irq_context : &g_task_contexts[g_current_task];
}

namespace {

// Two tasks switched by hand: each keeps its pending error across the other's
// raises, and an error moved out by a task that then ends stays valid.
void CheckTaskSlots() {
  g_current_task = 0;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "task 0, pending over a switch");
  g_current_task = 1;
  Expect(!HasPendingError(), "task 1 starts with an empty slot");
  TVMFFIErrorSetRaisedFromCStr("TypeError", "task 1, moved out");
  Error from_task_1 = Error::MoveFromRaised();
  TVMFFIErrorSetRaisedFromCStr("KeyError", "task 1, pending when it ends");
  // Task 1 ends: its RTOS hook releases its context, as port_hooks.h says.
  port::ReleaseContext(&g_task_contexts[1]);
  g_current_task = 0;
  Error mine = Error::MoveFromRaised();
  Expect(mine && Is(mine.message(), "task 0, pending over a switch"),
         "task 0's pending error survived task 1's raises");
  Expect(Is(from_task_1.message(), "task 1, moved out"),
         "an error moved out by an ended task stays valid");
}

}  // namespace

int main() {
  CheckTaskSlots();
  // Held by the main loop for the whole test.
  TVMFFIErrorSetRaisedFromCStr("ValueError", "held by the main loop");
  Error held = Error::MoveFromRaised();
  Expect(static_cast<bool>(held), "the main loop's error was raised");

  ffi_core_systick_set_callback(&OnTick, nullptr);
  if (ffi_core_systick_start(FFI_CORE_TEST_SLOT_RELOAD) != 0) return 10;
  uint32_t main_wrong = 0;
  // Until the interrupt has raised often (QEMU paces SysTick by host time).
  for (int i = 0; g_irq_raised < 3000 && i < 3000000; ++i) {
    char message[24];  // "main <i>"
    std::snprintf(message, sizeof(message), "main %d", i);
    TVMFFIErrorSetRaisedFromCStr("TypeError", message);
    // Interrupts land here, between raising and taking.
    for (int spin = (i * 37) % 200; spin > 0; --spin) __asm__ volatile("nop");
    Error e = Error::MoveFromRaised();
    if (!e || !Is(e.kind(), "TypeError") || !Is(e.message(), message)) ++main_wrong;
    if (!Is(held.message(), "held by the main loop")) ++main_wrong;
    if (ObjectStrongCount(&held.object()->header) != 1) ++main_wrong;
  }
  ffi_core_systick_stop();
  std::printf("irq raised %lu (exhausted %lu), main wrong %lu, irq wrong %lu\n",
              static_cast<unsigned long>(g_irq_raised), static_cast<unsigned long>(g_irq_exhausted),
              static_cast<unsigned long>(main_wrong), static_cast<unsigned long>(g_irq_wrong));
  Expect(g_irq_raised >= 3000, "the interrupt raised often");
  Expect(main_wrong == 0, "the main loop only ever saw its own errors");
  Expect(g_irq_wrong == 0, "the interrupt only ever saw its own errors");
  Expect(g_irq_exhausted == 0, "the pool had room for both contexts");
  Expect(Is(held.message(), "held by the main loop"), "the held error is intact");
  Expect(!HasPendingError(), "nothing pending in the main loop's slot");
  // Release everything: the interrupt's pending one too; then the whole
  // pool must be free again, for this context to fill.
  port::ReleaseContext(&g_irq_context);
  held = Error();
  Error all[FFI_CORE_ERROR_POOL_SIZE];
  bool pool_free = true;
  for (Error& e : all) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "refill");
    e = Error::MoveFromRaised();
    pool_free = pool_free && Is(e.message(), "refill");
  }
  Expect(pool_free, "every pooled error came back");
  return target_test::Report();
}
