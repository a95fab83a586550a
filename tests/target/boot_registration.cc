// A system-library registration that fails before main (as a generated
// module's static constructor would, e.g. with a NULL address) must be
// reported at boot through the log hook, not only left in the error slot
// that nobody reads yet.
#include <ffi_core/port_hooks.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstdio>
#include <cstring>

namespace {

char g_logged[160];
int g_log_calls = 0;

__attribute__((constructor)) void RegisterBeforeMain() {
  // The result is what a generated constructor ignores; the log must not.
  (void)TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_lost_kernel", nullptr);
}

}  // namespace

extern "C" void ffi_core_log(const char* message) {
  ++g_log_calls;
  std::snprintf(g_logged, sizeof(g_logged), "%s", message);
}

int main() {
  std::printf("logged before main (%d): %s\n", g_log_calls, g_logged);
  const bool ok = g_log_calls == 1 && std::strstr(g_logged, "__tvm_ffi_lost_kernel") != nullptr;
  std::printf("boot registration failure %s\n", ok ? "reported" : "NOT reported");
  return ok ? 0 : 1;
}
