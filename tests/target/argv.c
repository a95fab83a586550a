/* The board startup's argv (boards/common/argv_split.c): prints what main
 * received after argv[0] (the ELF path on Arm, the board's name on RISC-V),
 * each word in brackets, so the tests can see words kept whole, quotes
 * removed and extra words dropped. */
#include <stdio.h>

int main(int argc, char** argv) {
  printf("argc=%d", argc);
  for (int i = 1; i < argc; ++i) {
    printf(" [%s]", argv[i]);
  }
  printf("\nargv[argc] is %s\n", argv[argc] == NULL ? "NULL" : "set");
  return argv[argc] == NULL ? 0 : 1;
}
