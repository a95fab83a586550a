// Host port: what core may assume of the processor (port.h). The hosts it
// runs on (x86-64, AArch64) load and store words at any address.
#ifndef FFI_CORE_PORT_HOST_PORT_CPU_H_
#define FFI_CORE_PORT_HOST_PORT_CPU_H_

#include <ffi_core/port.h>

namespace ffi_core {
namespace port {

constexpr bool kUnalignedAccess = true;

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_HOST_PORT_CPU_H_
