/* The boards' command line, split into argv (argv_split.c): shared by the
 * Cortex-M startup (semihosting's command line) and the RISC-V one (the
 * device tree's bootargs). */
#ifndef FFI_CORE_BOARD_ARGV_SPLIT_H_
#define FFI_CORE_BOARD_ARGV_SPLIT_H_

/* Splits `line` in place on spaces and appends its words to argv from
 * argv[argc] on, up to `max` words in all. QEMU joins its words with single
 * spaces, so qemu-run.sh wraps a word containing spaces in "...": the
 * quotes keep it whole and are removed. Words past `max` are dropped with a
 * line through `report`. Sets argv[result] = NULL (argv holds max + 1) and
 * returns the new argc. */
int ffi_core_board_split_argv(char* line, char** argv, int argc, int max,
                              void (*report)(const char* text));

#endif /* FFI_CORE_BOARD_ARGV_SPLIT_H_ */
