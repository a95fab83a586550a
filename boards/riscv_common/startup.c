/* Startup for the ffi-core RISC-V QEMU boards (machine mode, one hart).
 *
 * QEMU's virt machine with -bios none jumps to the start of RAM with
 * a0 = hart id and a1 = the device tree; the kernel's bootargs (-append)
 * become argv. Traps: the machine timer goes to the timer helper
 * (systick.c); everything else is a fault, reported with mcause, mepc and
 * mtval on the console, and the run exits with 100 + the exception code. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argv_split.h"
#include "console.h"
#include "ffi_core_board/board.h"
#include "stack_use.h"

#ifndef FFI_CORE_BOARD_NAME
#error "FFI_CORE_BOARD_NAME must be defined by board.cmake"
#endif
#ifndef FFI_CORE_BOARD_CMDLINE_MAX
#define FFI_CORE_BOARD_CMDLINE_MAX 512
#endif
#ifndef FFI_CORE_BOARD_ARGV_MAX
#define FFI_CORE_BOARD_ARGV_MAX 16
#endif

/* QEMU virt's test finisher (sifive_test). */
#define FINISHER (*(volatile uint32_t*)0x00100000u)
#define FINISHER_PASS 0x5555u
#define FINISHER_FAIL 0x3333u

/* Linker-script symbols (boards/riscv_common/ffi_core_sections.ld). */
extern uint32_t __stack_top[], __stack_limit[];
extern uint32_t __bss_start__[], __bss_end__[];

int main(int argc, char** argv);
void __libc_init_array(void);
void ffi_core_timer_interrupt(void); /* systick.c */

__attribute__((noreturn)) void ffi_core_reset(const void* fdt);
__attribute__((noreturn)) void ffi_core_fault_report(uint32_t mcause, uint32_t mepc, uint32_t sp);
void ffi_core_interrupt(uint32_t mcause);
void ffi_core_trap_entry(void);

/* Reset: global pointer (for linker relaxation), thread pointer (picolibc's
 * errno is thread-local), stack, trap vector; then C. */
__attribute__((naked, section(".text.start"))) void _start(void) {
  __asm__ volatile(
      ".option push\n\t"
      ".option norelax\n\t"
      "la gp, __global_pointer$\n\t"
      ".option pop\n\t"
      "la tp, __tls_base\n\t"
      "la sp, __stack_top\n\t"
      "la t0, ffi_core_trap_entry\n\t"
      ".option push\n\t.option arch, +zicsr\n\t"
      "csrw mtvec, t0\n\t"
      ".option pop\n\t"
      "mv a0, a1\n\t"
      "j ffi_core_reset\n");
}

/* Every trap: the caller-saved registers on the interrupted stack, then C.
 * An interrupt (mcause < 0) returns with mret; anything else is reported
 * from a stack of its own (the faulting one may be what broke). */
__attribute__((used, aligned(16))) uint8_t ffi_core_fault_stack[1024];
volatile uint32_t ffi_core_interrupt_depth;

__attribute__((naked, aligned(4))) void ffi_core_trap_entry(void) {
  __asm__ volatile(
      ".option push\n\t.option arch, +zicsr\n\t"
      "addi sp, sp, -64\n\t"
      "sw ra, 0(sp)\n\tsw t0, 4(sp)\n\tsw t1, 8(sp)\n\tsw t2, 12(sp)\n\t"
      "sw a0, 16(sp)\n\tsw a1, 20(sp)\n\tsw a2, 24(sp)\n\tsw a3, 28(sp)\n\t"
      "sw a4, 32(sp)\n\tsw a5, 36(sp)\n\tsw a6, 40(sp)\n\tsw a7, 44(sp)\n\t"
      "sw t3, 48(sp)\n\tsw t4, 52(sp)\n\tsw t5, 56(sp)\n\tsw t6, 60(sp)\n\t"
      "csrr a0, mcause\n\t"
      "bgez a0, 1f\n\t"
      "call ffi_core_interrupt\n\t"
      "lw ra, 0(sp)\n\tlw t0, 4(sp)\n\tlw t1, 8(sp)\n\tlw t2, 12(sp)\n\t"
      "lw a0, 16(sp)\n\tlw a1, 20(sp)\n\tlw a2, 24(sp)\n\tlw a3, 28(sp)\n\t"
      "lw a4, 32(sp)\n\tlw a5, 36(sp)\n\tlw a6, 40(sp)\n\tlw a7, 44(sp)\n\t"
      "lw t3, 48(sp)\n\tlw t4, 52(sp)\n\tlw t5, 56(sp)\n\tlw t6, 60(sp)\n\t"
      "addi sp, sp, 64\n\t"
      "mret\n"
      "1:\n\t"
      "csrr a1, mepc\n\t"
      "addi a2, sp, 64\n\t"
      "la sp, ffi_core_fault_stack + 1024\n\t"
      "j ffi_core_fault_report\n\t"
      ".option pop\n");
}

void ffi_core_interrupt(uint32_t mcause) {
  ffi_core_interrupt_depth = ffi_core_interrupt_depth + 1;
  if ((mcause & 0x7FFFFFFFu) == 7u) {
    ffi_core_timer_interrupt();
  } else {
    ffi_core_fault_report(mcause, 0, 0);
  }
  ffi_core_interrupt_depth = ffi_core_interrupt_depth - 1;
}

int ffi_core_board_in_interrupt(void) { return ffi_core_interrupt_depth != 0; }

const char* ffi_core_board_name(void) { return FFI_CORE_BOARD_NAME; }

void ffi_core_board_exit(int status) {
  const uint32_t code = (uint32_t)status & 0xFFFFu;
  FINISHER = code == 0 ? FINISHER_PASS : (code << 16) | FINISHER_FAIL;
  for (;;) {
    /* No finisher: park; the QEMU wrapper's timeout ends the run. */
  }
}

/* ---- argv: the device tree's /chosen/bootargs ---- */

static char cmdline[FFI_CORE_BOARD_CMDLINE_MAX];
static char* argv_table[FFI_CORE_BOARD_ARGV_MAX + 1];
static char default_argv0[] = FFI_CORE_BOARD_NAME;

static uint32_t be32(const uint8_t* p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Copies /chosen/bootargs into cmdline; empty when there is none. */
static void read_bootargs(const uint8_t* fdt) {
  cmdline[0] = '\0';
  if (fdt == NULL || be32(fdt) != 0xD00DFEEDu) {
    return;
  }
  const uint8_t* p = fdt + be32(fdt + 8);
  const char* strings = (const char*)fdt + be32(fdt + 12);
  int depth = 0;
  bool in_chosen = false;
  for (;;) {
    const uint32_t token = be32(p);
    p += 4;
    if (token == 1u) { /* begin node: name, padded to 4 */
      const char* name = (const char*)p;
      ++depth;
      if (depth == 2) {
        in_chosen = strcmp(name, "chosen") == 0;
      }
      p += (strlen(name) + 4u) & ~3u;
    } else if (token == 2u) { /* end node */
      if (depth == 2) {
        in_chosen = false;
      }
      --depth;
    } else if (token == 3u) { /* property: length, name offset, value */
      const uint32_t length = be32(p);
      const char* name = strings + be32(p + 4);
      p += 8;
      if (in_chosen && depth == 2 && strcmp(name, "bootargs") == 0) {
        if (length > sizeof cmdline) {
          console_write("ffi-core: command line too long, ignoring it\n");
        } else if (length != 0) {
          memcpy(cmdline, p, length);
          cmdline[length - 1] = '\0';
        }
        return;
      }
      p += (length + 3u) & ~3u;
    } else if (token != 4u) { /* anything but a NOP ends the walk */
      return;
    }
  }
}

/* argv[0] is the board's name, then the bootargs' words. */
static int build_argv(const void* fdt) {
  read_bootargs((const uint8_t*)fdt);
  argv_table[0] = default_argv0;
  return ffi_core_board_split_argv(cmdline, argv_table, 1, FFI_CORE_BOARD_ARGV_MAX, console_write);
}

void ffi_core_reset(const void* fdt) {
  /* QEMU loads .data in place (the image runs from RAM): only .bss is
   * cleared. */
  memset(__bss_start__, 0, (size_t)((char*)__bss_end__ - (char*)__bss_start__));
  ffi_core_board_stack_paint(__stack_limit);
  __libc_init_array();
  const int argc = build_argv(fdt);
  exit(main(argc, argv_table));
}

/* ---- fault reporting ---- */

static void put_hex(const char* label, uint32_t value) {
  char text[12] = "0x";
  for (int i = 0; i < 8; ++i) {
    text[2 + i] = "0123456789abcdef"[(value >> (28 - 4 * i)) & 0xFu];
  }
  text[10] = ' ';
  text[11] = '\0';
  console_write(label);
  console_write(text);
}

static const char* exception_name(uint32_t code) {
  static const char* const names[16] = {
      "InstructionMisaligned",
      "InstructionAccessFault",
      "IllegalInstruction",
      "Breakpoint",
      "LoadMisaligned",
      "LoadAccessFault",
      "StoreMisaligned",
      "StoreAccessFault",
      "EcallU",
      "EcallS",
      "Reserved",
      "EcallM",
      "InstructionPageFault",
      "LoadPageFault",
      "Reserved",
      "StorePageFault",
  };
  return code < 16 ? names[code] : "Exception";
}

/* Uses only the console: the heap, stdio or stack may be what broke. */
void ffi_core_fault_report(uint32_t mcause, uint32_t mepc, uint32_t sp) {
  uint32_t mtval;
  __asm__ volatile(".option push\n\t.option arch, +zicsr\n\tcsrr %0, mtval\n\t.option pop"
                   : "=r"(mtval));
  const bool interrupt = (mcause & 0x80000000u) != 0;
  const uint32_t code = mcause & 0x7FFFFFFFu;
  console_write("\n*** ffi-core: ");
  console_write(interrupt ? "unexpected interrupt" : exception_name(code));
  console_write(" on " FFI_CORE_BOARD_NAME "\n    ");
  put_hex("PC=", mepc);
  put_hex("SP=", sp);
  put_hex("mcause=", mcause);
  put_hex("mtval=", mtval);
  if (sp != 0 &&
      (sp < (uint32_t)(uintptr_t)__stack_limit || sp > (uint32_t)(uintptr_t)__stack_top)) {
    console_write("(stack pointer outside the stack: overflow or corruption)");
  }
  console_write("\n");
  /* Distinct, documented status: 100 + exception code (Breakpoint = 103). */
  ffi_core_board_exit(100 + (interrupt ? 16 : (int)(code & 0xFFu)));
}
