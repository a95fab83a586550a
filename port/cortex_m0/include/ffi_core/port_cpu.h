// ARMv6-M (M0/M0+): what core may assume of the processor (port.h). A word
// load or store at an address that is not a multiple of 4 faults.
#ifndef FFI_CORE_PORT_CORTEX_M0_PORT_CPU_H_
#define FFI_CORE_PORT_CORTEX_M0_PORT_CPU_H_

#include <ffi_core/port.h>

namespace ffi_core {
namespace port {

constexpr bool kUnalignedAccess = false;

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_CORTEX_M0_PORT_CPU_H_
