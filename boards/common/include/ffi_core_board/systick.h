/* SysTick helper for tests: a periodic interrupt on the processor clock,
 * a tick counter, and a callback run in interrupt context (used to race
 * code in the SysTick handler against the main loop).
 *
 * Processor clock under QEMU: 25 MHz on mps2-an385/386/500, 20 MHz on
 * mps2-an505, 32 MHz on mps3-an547, 16 MHz on microbit. With
 * `-icount shift=0` one instruction takes 1 ns of virtual time, so one
 * SysTick count is 1e9 / clock instructions (40 on the MPS2 boards).
 *
 * On the RISC-V boards the same interface runs on the CLINT's machine timer:
 * the clock is mtime, 10 MHz on QEMU virt (100 instructions per count with
 * `-icount shift=0`), and the handler is the machine timer interrupt. */
#ifndef FFI_CORE_BOARD_SYSTICK_H
#define FFI_CORE_BOARD_SYSTICK_H

#include <stdint.h>

#include "ffi_core_board/board.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*ffi_core_systick_callback)(void* context);

/* Starts SysTick on the processor clock with interrupt enabled: the handler
 * runs every reload + 1 clock cycles. reload must be 1..0xFFFFFF; returns 0
 * on success, -1 (and leaves SysTick untouched) otherwise. */
int ffi_core_systick_start(uint32_t reload);

/* Stops the counter and its interrupt. Callback and tick count are kept. */
void ffi_core_systick_stop(void);

/* Number of SysTick interrupts taken since reset (wraps at 2^32). */
uint32_t ffi_core_systick_ticks(void);

/* Clock counts left before the next interrupt (reload down to 0). */
uint32_t ffi_core_systick_count(void);

/* Installs `callback(context)` to run from every SysTick interrupt after the
 * tick count is incremented; NULL removes it. Safe to call while running. */
void ffi_core_systick_set_callback(ffi_core_systick_callback callback, void* context);

/* Inside the callback: the address at which the interrupted code resumes
 * (the exception frame's PC on Arm, mepc on RISC-V). Tests use it to tell
 * which instruction window an interrupt landed in. */
uint32_t ffi_core_systick_interrupted_pc(void);

#ifdef __cplusplus
}
#endif

#endif
