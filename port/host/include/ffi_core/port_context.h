// Host port: the calling context of port.h, one block per thread, looked up
// inline. Trivial and initial-exec TLS, so a lookup is one %fs-relative
// address and one test, with no call.
#ifndef FFI_CORE_PORT_HOST_PORT_CONTEXT_H_
#define FFI_CORE_PORT_HOST_PORT_CONTEXT_H_

#include <ffi_core/port.h>

namespace ffi_core {
namespace port {

namespace host {
// Defined in port_host.cc. __thread, not thread_local: an extern
// thread_local gets a dynamic-initialisation check at every use.
extern __attribute__((tls_model("initial-exec"))) __thread ContextStorage t_context;
extern __attribute__((tls_model("initial-exec"))) __thread bool t_release_armed;
// Makes the thread's exit release its context; once per thread.
[[gnu::cold, gnu::noinline]] void ArmRelease();
}  // namespace host

inline ContextStorage* CurrentContext() {
  if (__builtin_expect(!host::t_release_armed, 0)) host::ArmRelease();
  return &host::t_context;
}

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_HOST_PORT_CONTEXT_H_
