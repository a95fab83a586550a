// RV32: what core may assume of the processor (port.h). A misaligned word
// access may trap (the privileged spec leaves it to the core; the ESP32-C3
// and E31 trap), so core copies bytes a word at a time only from aligned
// addresses.
#ifndef FFI_CORE_PORT_RISCV32_IMC_PORT_CPU_H_
#define FFI_CORE_PORT_RISCV32_IMC_PORT_CPU_H_

#include <ffi_core/port.h>

namespace ffi_core {
namespace port {

constexpr bool kUnalignedAccess = false;

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_RISCV32_IMC_PORT_CPU_H_
