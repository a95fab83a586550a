// Bare-metal ports: the calling context of port.h is whatever the weak hook
// ffi_core_port_context() returns (one static block unless the firmware
// overrides it for RTOS tasks or interrupts). Called directly, with no
// wrapper between core and the hook.
#ifndef FFI_CORE_PORT_BARE_METAL_PORT_CONTEXT_H_
#define FFI_CORE_PORT_BARE_METAL_PORT_CONTEXT_H_

#include <ffi_core/port.h>
#include <ffi_core/port_hooks.h>

namespace ffi_core {
namespace port {

inline ContextStorage* CurrentContext() { return ffi_core_port_context(); }

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_BARE_METAL_PORT_CONTEXT_H_
