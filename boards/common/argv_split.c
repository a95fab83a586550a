#include "argv_split.h"

#include <stdbool.h>
#include <stddef.h>

int ffi_core_board_split_argv(char* line, char** argv, int argc, int max,
                              void (*report)(const char* text)) {
  char* p = line;
  for (;;) {
    while (*p == ' ') {
      ++p;
    }
    if (*p == '\0') {
      break;
    }
    if (argc == max) {
      report("ffi-core: too many arguments, extra ones dropped\n");
      break;
    }
    char* out = p;
    argv[argc++] = p;
    bool quoted = false;
    for (; *p != '\0' && (quoted || *p != ' '); ++p) {
      if (*p == '"') {
        quoted = !quoted;
      } else {
        *out++ = *p;
      }
    }
    if (*p != '\0') {
      ++p; /* step over the separator before out may overwrite it */
    }
    *out = '\0';
  }
  argv[argc] = NULL;
  return argc;
}
