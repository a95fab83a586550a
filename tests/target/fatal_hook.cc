// A firmware's own fatal hook (overriding the weak default): report and stop.
#include <ffi_core/port_hooks.h>

#include <cstdio>
#include <cstdlib>

extern "C" void ffi_core_fatal(const char* message) {
  std::printf("fatal hook: %s\n", message);
  std::exit(7);
}
