/* The ns16550 UART of QEMU's virt machine: unbuffered console output for
 * startup.c and syscalls.c. Internal to boards/riscv_common. */
#ifndef FFI_CORE_BOARD_RISCV_CONSOLE_H
#define FFI_CORE_BOARD_RISCV_CONSOLE_H

#include <stdint.h>

#define FFI_CORE_UART_BASE 0x10000000u
#define FFI_CORE_UART_THR (*(volatile uint8_t*)(FFI_CORE_UART_BASE + 0u))
#define FFI_CORE_UART_LSR (*(volatile uint8_t*)(FFI_CORE_UART_BASE + 5u))
#define FFI_CORE_UART_LSR_THRE 0x20u

static inline void console_putc(char c) {
  while ((FFI_CORE_UART_LSR & FFI_CORE_UART_LSR_THRE) == 0) {
  }
  FFI_CORE_UART_THR = (uint8_t)c;
}

static inline void console_write(const char* s) {
  for (; *s != '\0'; ++s) {
    console_putc(*s);
  }
}

#endif
