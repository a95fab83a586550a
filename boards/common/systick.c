/* SysTick helper, see include/ffi_core_board/systick.h. */
#include "ffi_core_board/systick.h"

#include <stddef.h>

#include "exception_frame.h"

#define REG32(addr) (*(volatile uint32_t*)(addr))
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SYST_CSR_ENABLE 1u
#define SYST_CSR_TICKINT 2u
#define SYST_CSR_CLKSOURCE_CPU 4u

void SysTick_Handler(void); /* vector table entry, see startup.c */
void ffi_core_systick_handle(const uint32_t* frame);

static volatile uint32_t tick_count;
static volatile uint32_t interrupted_pc;
static ffi_core_systick_callback volatile tick_callback;
static void* volatile tick_context;

int ffi_core_systick_start(uint32_t reload) {
  if (reload == 0 || reload > 0xFFFFFFu) {
    return -1;
  }
  SYST_CSR = 0; /* stop while reprogramming */
  SYST_RVR = reload;
  SYST_CVR = 0; /* any write clears; next clock reloads */
  SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE_CPU;
  return 0;
}

void ffi_core_systick_stop(void) { SYST_CSR = 0; }

uint32_t ffi_core_systick_ticks(void) { return tick_count; }

uint32_t ffi_core_systick_count(void) { return SYST_CVR; }

void ffi_core_systick_set_callback(ffi_core_systick_callback callback, void* context) {
  /* Mask interrupts so the handler never sees a new callback with the
   * old context. PRIMASK is restored, so this nests safely. */
  uint32_t primask;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  tick_context = context;
  tick_callback = callback;
  __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
}

uint32_t ffi_core_systick_interrupted_pc(void) { return interrupted_pc; }

/* Hands the interrupted code's exception frame to the handler proper. */
__attribute__((naked)) void SysTick_Handler(void) {
  __asm__ volatile(FFI_CORE_FRAME_TO_R0
                   "ldr  r1, =ffi_core_systick_handle\n\t"
                   "bx   r1\n\t"
                   ".ltorg\n");
}

void ffi_core_systick_handle(const uint32_t* frame) {
  interrupted_pc = frame[6];   /* r0-r3, r12, lr, pc, xpsr */
  tick_count = tick_count + 1; /* only the handler writes it */
  const ffi_core_systick_callback callback = tick_callback;
  if (callback != NULL) {
    callback(tick_context);
  }
}
