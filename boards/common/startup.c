/* Shared Cortex-M startup for the ffi-core QEMU boards.
 *
 * Board specifics arrive as macros from board.cmake:
 *   FFI_CORE_BOARD_NAME       string, e.g. "mps2-an385"
 *   FFI_CORE_BOARD_NUM_IRQS   external interrupt lines in the vector table
 * Everything architecture-dependent (FPU, fault status registers, stack
 * limit) is keyed off the compiler's target macros, so one file serves
 * armv6-m, armv7(e)-m, armv8-m.main and armv8.1-m.main. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argv_split.h"
#include "exception_frame.h"
#include "ffi_core_board/board.h"
#include "semihost.h"
#include "stack_use.h"

#ifndef FFI_CORE_BOARD_NAME
#error "FFI_CORE_BOARD_NAME must be defined by board.cmake"
#endif
#ifndef FFI_CORE_BOARD_NUM_IRQS
#define FFI_CORE_BOARD_NUM_IRQS 32
#endif
/* Command-line buffer and argv slots; sized for a few doctest filters. */
#ifndef FFI_CORE_BOARD_CMDLINE_MAX
#define FFI_CORE_BOARD_CMDLINE_MAX 512
#endif
#ifndef FFI_CORE_BOARD_ARGV_MAX
#define FFI_CORE_BOARD_ARGV_MAX 16
#endif

/* armv6-m (and v8-m baseline) lack the configurable fault status registers. */
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define HAS_FAULT_STATUS 0
#else
#define HAS_FAULT_STATUS 1
#endif
/* armv8-m mainline adds MSPLIM and, with the Security Extension, SecureFault. */
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define IS_V8M_MAIN 1
#else
#define IS_V8M_MAIN 0
#endif

#define REG32(addr) (*(volatile uint32_t*)(addr))
#define SCB_SHCSR REG32(0xE000ED24u)
#define SCB_CFSR REG32(0xE000ED28u)
#define SCB_HFSR REG32(0xE000ED2Cu)
#define SCB_MMFAR REG32(0xE000ED34u)
#define SCB_BFAR REG32(0xE000ED38u)
#define SCB_CPACR REG32(0xE000ED88u)
#define SCB_SFSR REG32(0xE000EDE4u)
#define SCB_SFAR REG32(0xE000EDE8u)
#define MPU_TYPE REG32(0xE000ED90u)
#define MPU_CTRL REG32(0xE000ED94u)
#define MPU_RNR REG32(0xE000ED98u)
#define MPU_RBAR REG32(0xE000ED9Cu)
#define MPU_RASR REG32(0xE000EDA0u)

/* Bottom of the stack made inaccessible on pre-v8-M cores with an MPU
 * (v8-M mainline uses MSPLIM instead). */
#if IS_V8M_MAIN
#define STACK_GUARD_SIZE 0u
#else
#define STACK_GUARD_SIZE 256u
#endif

/* Linker-script symbols (boards/common/ffi_core_sections.ld). */
extern uint32_t __stack_top[], __stack_limit[];
extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start__[], __bss_end__[];

int main(int argc, char** argv);
void __libc_init_array(void);

__attribute__((noreturn)) void Reset_Handler(void);
void ffi_core_default_handler(void);
__attribute__((noreturn)) void ffi_core_fault_report(const uint32_t* frame, uint32_t exc_return);

/* Weak so a program can take over an exception; by default everything
 * unexpected ends in the fault reporter. SysTick_Handler is defined in
 * systick.c. */
#define DEFAULT_HANDLER __attribute__((weak, alias("ffi_core_default_handler")))
void NMI_Handler(void) DEFAULT_HANDLER;
void HardFault_Handler(void) DEFAULT_HANDLER;
void MemManage_Handler(void) DEFAULT_HANDLER;
void BusFault_Handler(void) DEFAULT_HANDLER;
void UsageFault_Handler(void) DEFAULT_HANDLER;
void SecureFault_Handler(void) DEFAULT_HANDLER;
void SVC_Handler(void) DEFAULT_HANDLER;
void DebugMon_Handler(void) DEFAULT_HANDLER;
void PendSV_Handler(void) DEFAULT_HANDLER;
void SysTick_Handler(void) DEFAULT_HANDLER;

/* Entry 0 is the initial stack pointer, not a function: a union keeps the
 * table free of object/function pointer casts. */
typedef union {
  void (*handler)(void);
  const void* stack_top;
} vector_entry;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic" /* [a ... b] range designator */
__attribute__((section(".vectors"), used))
const vector_entry ffi_core_vectors[16 + FFI_CORE_BOARD_NUM_IRQS] = {
    [0] = {.stack_top = __stack_top},
    [1] = {.handler = Reset_Handler},
    [2] = {.handler = NMI_Handler},
    [3] = {.handler = HardFault_Handler},
    [4] = {.handler = MemManage_Handler},
    [5] = {.handler = BusFault_Handler},
    [6] = {.handler = UsageFault_Handler},
    [7] = {.handler = SecureFault_Handler},
    [11] = {.handler = SVC_Handler},
    [12] = {.handler = DebugMon_Handler},
    [14] = {.handler = PendSV_Handler},
    [15] = {.handler = SysTick_Handler},
    [16 ... 16 + FFI_CORE_BOARD_NUM_IRQS - 1] = {.handler = ffi_core_default_handler},
};
#pragma GCC diagnostic pop

const char* ffi_core_board_name(void) { return FFI_CORE_BOARD_NAME; }

int ffi_core_board_in_interrupt(void) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  return ipsr != 0;
}

void ffi_core_board_exit(int status) {
  /* SYS_EXIT_EXTENDED carries the status to QEMU's own exit code. */
  const uint32_t block[2] = {SH_ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
  sh_call(SH_SYS_EXIT_EXTENDED, block);
  /* Host without the extension: plain SYS_EXIT (AArch32 passes the reason
   * itself) can still tell success from failure. */
  sh_call(SH_SYS_EXIT, (const void*)(uintptr_t)(status == 0 ? SH_ADP_STOPPED_APPLICATION_EXIT
                                                            : SH_ADP_STOPPED_RUN_TIME_ERROR));
  for (;;) {
    /* Nothing stopped us: park; the QEMU wrapper's timeout ends the run. */
  }
}

#if !IS_V8M_MAIN
/* Without MSPLIM (pre-v8-M) an overflowing stack silently runs into the
 * heap and .bss. Where the core has an MPU (PMSAv6/v7, e.g. QEMU's M3/M4/M7;
 * QEMU's M0 has none) make the lowest STACK_GUARD_SIZE bytes of the stack
 * a no-access region, so an overflow faults instead. Returns the guard's
 * bytes (0 without an MPU). */
static uint32_t enable_stack_guard(void) {
  if (((MPU_TYPE >> 8) & 0xFFu) == 0) {
    return 0; /* no MPU regions */
  }
  MPU_RNR = 0;
  MPU_RBAR = (uint32_t)(uintptr_t)__stack_limit; /* aligned by the linker script */
  /* XN, AP = no access, SIZE field n means 2^(n+1) bytes, enable. */
  MPU_RASR = (1u << 28) | (7u << 1) | 1u;
  MPU_CTRL = (1u << 2) | 1u; /* PRIVDEFENA: default map everywhere else */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  return STACK_GUARD_SIZE;
}
#endif

/* ---- argv from QEMU: "<kernel path> <-append words>" via SYS_GET_CMDLINE ---- */

static char cmdline[FFI_CORE_BOARD_CMDLINE_MAX];
static char* argv_table[FFI_CORE_BOARD_ARGV_MAX + 1];
static char default_argv0[] = FFI_CORE_BOARD_NAME;

/* Returns argc (at least 1). */
static int build_argv(void) {
  struct {
    char* buffer;
    uint32_t length;
  } block = {cmdline, sizeof cmdline};
  if (sh_call(SH_SYS_GET_CMDLINE, &block) != 0) {
    sh_write0("ffi-core: command line unavailable or too long, ignoring it\n");
    cmdline[0] = '\0';
  }
  int argc = ffi_core_board_split_argv(cmdline, argv_table, 0, FFI_CORE_BOARD_ARGV_MAX, sh_write0);
  if (argc == 0) {
    argv_table[argc++] = default_argv0;
    argv_table[argc] = NULL;
  }
  return argc;
}

void Reset_Handler(void) {
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  /* CP10/CP11 full access before the first FP/MVE instruction. The
   * barrier's memory clobber keeps the compiler from hoisting any
   * (auto-vectorised) code above it. */
  SCB_CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
#if IS_V8M_MAIN
  /* Stack overflow into the heap becomes a UsageFault (STKOF). */
  __asm__ volatile("msr msplim, %0" : : "r"(__stack_limit));
  const uint32_t guard = 0;
#else
  const uint32_t guard = enable_stack_guard();
#endif
#if HAS_FAULT_STATUS
  /* Report MemManage/Bus/Usage(/Secure)Faults under their own name
   * instead of everything escalating to HardFault. */
  SCB_SHCSR |= (7u << 16) | (IS_V8M_MAIN ? (1u << 19) : 0u);
#endif

  /* newlib's crt0 is not used: copy .data from its load address, zero .bss. */
  memcpy(__data_start, __data_load, (size_t)((char*)__data_end - (char*)__data_start));
  memset(__bss_start__, 0, (size_t)((char*)__bss_end__ - (char*)__bss_start__));
  ffi_core_board_stack_paint(__stack_limit + guard / sizeof(uint32_t));

  __libc_init_array(); /* C++ static constructors, __attribute__((constructor)) */

  int argc = build_argv();
  exit(main(argc, argv_table)); /* exit() runs atexit/destructors, flushes stdio, then _exit() */
}

/* ---- fault reporting ---- */

static void put_hex(const char* label, uint32_t value) {
  char text[12] = "0x";
  for (int i = 0; i < 8; ++i) {
    text[2 + i] = "0123456789abcdef"[(value >> (28 - 4 * i)) & 0xFu];
  }
  text[10] = ' ';
  text[11] = '\0';
  sh_write0(label);
  sh_write0(text);
}

static const char* exception_name(uint32_t number) {
  static const char* const names[16] = {
      "Thread",     "Reset",       "NMI",      "HardFault", "MemManage", "BusFault",
      "UsageFault", "SecureFault", "Reserved", "Reserved",  "Reserved",  "SVCall",
      "DebugMon",   "Reserved",    "PendSV",   "SysTick",
  };
  return number < 16 ? names[number] : "IRQ";
}

/* Called (never returns) from ffi_core_default_handler on a fresh stack with
 * the exception frame the core pushed and the EXC_RETURN value. Uses only
 * SYS_WRITE0: the heap, stdio or stack may be what broke. */
__attribute__((used, noreturn)) void ffi_core_fault_report(const uint32_t* frame,
                                                           uint32_t exc_return) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  const uint32_t number = ipsr & 0x1FFu;

  char digits[4];
  char* digit = &digits[sizeof digits - 1];
  *digit = '\0';
  uint32_t rest = number;
  do {
    *--digit = (char)('0' + rest % 10);
    rest /= 10;
  } while (rest != 0);
  sh_write0("\n*** ffi-core: ");
  sh_write0(exception_name(number));
  sh_write0(" (exception ");
  sh_write0(digit);
  sh_write0(") on " FFI_CORE_BOARD_NAME "\n    ");
  put_hex("SP=", (uint32_t)(uintptr_t)frame);
  /* A corrupted stack pointer is a common cause; only read the frame
   * when it lies inside the stack, or the report itself would fault. */
  const uintptr_t at = (uintptr_t)frame;
  if (at >= (uintptr_t)__stack_limit + STACK_GUARD_SIZE && at + 32 <= (uintptr_t)__stack_top) {
    put_hex("PC=", frame[6]);
    put_hex("LR=", frame[5]);
    put_hex("xPSR=", frame[7]);
  } else {
    sh_write0("(no readable exception frame: stack overflow or corrupt SP) ");
  }
  put_hex("EXC_RETURN=", exc_return);
#if HAS_FAULT_STATUS
  sh_write0("\n    ");
  put_hex("CFSR=", SCB_CFSR);
  put_hex("HFSR=", SCB_HFSR);
  put_hex("MMFAR=", SCB_MMFAR);
  put_hex("BFAR=", SCB_BFAR);
#if IS_V8M_MAIN
  put_hex("SFSR=", SCB_SFSR);
  put_hex("SFAR=", SCB_SFAR);
#endif
#endif
  sh_write0("\n");
  /* Distinct, documented status: 100 + exception number. */
  ffi_core_board_exit(100 + (int)number);
}

/* Common entry for every fault and unexpected exception/IRQ. Thumb-1 only
 * so it also assembles for armv6-m. */
/* The reporter runs on its own stack: the faulting one may be overflowed,
 * and on small boards the exception frame sits right at its top, where the
 * reporter's calls would overwrite it before it is printed. */
__attribute__((used, aligned(8))) uint8_t ffi_core_fault_stack[512];

__attribute__((naked)) void ffi_core_default_handler(void) {
  __asm__ volatile(FFI_CORE_FRAME_TO_R0
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
                   "movs r2, #0\n\t" /* the fault stack lies below MSPLIM's guard: lift it */
                   "msr  msplim, r2\n\t"
#endif
                   "ldr  r2, =ffi_core_fault_stack + 512\n\t" /* see ffi_core_fault_stack */
                   "mov  sp, r2\n\t"
                   "ldr  r2, =ffi_core_fault_report\n\t"
                   "bx   r2\n\t" /* r0 = frame, r1 = EXC_RETURN */
                   ".ltorg\n");
}
