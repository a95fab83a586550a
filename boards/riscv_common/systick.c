/* The periodic-interrupt helper (include/ffi_core_board/systick.h) on the
 * CLINT's machine timer: "clock cycles" are mtime counts (10 MHz on QEMU's
 * virt machine), and the handler is the machine timer interrupt. */
#include "ffi_core_board/systick.h"

#include <stddef.h>

#define CLINT_MTIMECMP_LO (*(volatile uint32_t*)0x02004000u)
#define CLINT_MTIMECMP_HI (*(volatile uint32_t*)0x02004004u)
#define CLINT_MTIME_LO (*(volatile uint32_t*)0x0200BFF8u)
#define CLINT_MTIME_HI (*(volatile uint32_t*)0x0200BFFCu)
#define MIE_MTIE (1u << 7)
#define MSTATUS_MIE (1u << 3)

void ffi_core_timer_interrupt(void); /* from the trap entry, startup.c */

static volatile uint32_t tick_count;
static volatile uint32_t interrupted_pc;
static volatile uint32_t tick_period;
static uint64_t next_deadline; /* written with the timer interrupt off */
static ffi_core_systick_callback volatile tick_callback;
static void* volatile tick_context;

static uint64_t mtime(void) {
  uint32_t hi;
  uint32_t lo;
  do {
    hi = CLINT_MTIME_HI;
    lo = CLINT_MTIME_LO;
  } while (hi != CLINT_MTIME_HI);
  return ((uint64_t)hi << 32) | lo;
}

/* High word first at all-ones, so no value in between is due early. */
static void set_deadline(uint64_t at) {
  CLINT_MTIMECMP_HI = 0xFFFFFFFFu;
  CLINT_MTIMECMP_LO = (uint32_t)at;
  CLINT_MTIMECMP_HI = (uint32_t)(at >> 32);
}

static void clear_mie(uint32_t bits) {
  __asm__ volatile(".option push\n\t.option arch, +zicsr\n\tcsrc mie, %0\n\t.option pop" ::"r"(bits)
                   : "memory");
}

int ffi_core_systick_start(uint32_t reload) {
  if (reload == 0 || reload > 0xFFFFFFu) {
    return -1;
  }
  clear_mie(MIE_MTIE); /* stop while reprogramming */
  tick_period = reload + 1;
  next_deadline = mtime() + tick_period;
  set_deadline(next_deadline);
  __asm__ volatile(
      ".option push\n\t.option arch, +zicsr\n\tcsrs mie, %0\n\tcsrs mstatus, %1\n\t.option pop" ::
          "r"(MIE_MTIE),
      "r"(MSTATUS_MIE)
      : "memory");
  return 0;
}

void ffi_core_systick_stop(void) { clear_mie(MIE_MTIE); }

uint32_t ffi_core_systick_ticks(void) { return tick_count; }

uint32_t ffi_core_systick_count(void) {
  /* Counts left to the next interrupt, as SysTick's down-counter shows. */
  const uint64_t now = mtime();
  return now >= next_deadline ? 0u : (uint32_t)(next_deadline - now - 1u);
}

void ffi_core_systick_set_callback(ffi_core_systick_callback callback, void* context) {
  /* Interrupts off so the handler never sees a new callback with the old
   * context; MIE is restored as it was, so this nests. */
  uint32_t mstatus;
  __asm__ volatile(".option push\n\t.option arch, +zicsr\n\tcsrrci %0, mstatus, 8\n\t.option pop"
                   : "=r"(mstatus)::"memory");
  tick_context = context;
  tick_callback = callback;
  __asm__ volatile(".option push\n\t.option arch, +zicsr\n\tcsrs mstatus, %0\n\t.option pop" ::"r"(
                       mstatus & MSTATUS_MIE)
                   : "memory");
}

uint32_t ffi_core_systick_interrupted_pc(void) { return interrupted_pc; }

void ffi_core_timer_interrupt(void) {
  uint32_t mepc;
  __asm__ volatile(".option push\n\t.option arch, +zicsr\n\tcsrr %0, mepc\n\t.option pop"
                   : "=r"(mepc));
  interrupted_pc = mepc;
  tick_count = tick_count + 1;
  const ffi_core_systick_callback callback = tick_callback;
  if (callback != NULL) {
    callback(tick_context);
  }
  /* The next deadline one period after this one, so the ticks measure time
   * exactly whatever the handler's latency; unless that has passed already
   * (a handler longer than the period), where it is a period from now: else
   * the handler would run back to back and the main loop never again. */
  next_deadline += tick_period;
  const uint64_t now = mtime();
  if (next_deadline <= now) {
    next_deadline = now + tick_period;
  }
  set_deadline(next_deadline);
}
