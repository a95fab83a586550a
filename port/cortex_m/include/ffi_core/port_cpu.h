// ARMv7-M / ARMv8-M mainline: what core may assume of the processor (port.h).
// LDR and STR take any address (unless firmware sets CCR.UNALIGN_TRP, which
// the boards leave clear).
#ifndef FFI_CORE_PORT_CORTEX_M_PORT_CPU_H_
#define FFI_CORE_PORT_CORTEX_M_PORT_CPU_H_

#include <ffi_core/port.h>

namespace ffi_core {
namespace port {

constexpr bool kUnalignedAccess = true;

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_CORTEX_M_PORT_CPU_H_
