// Single-thread port: what core may assume of the processor (port.h). It runs
// on any CPU, so it asks the compiler.
#ifndef FFI_CORE_PORT_SINGLE_THREAD_PORT_CPU_H_
#define FFI_CORE_PORT_SINGLE_THREAD_PORT_CPU_H_

#include <ffi_core/port.h>

namespace ffi_core {
namespace port {

#if defined(__ARM_FEATURE_UNALIGNED) || defined(__x86_64__) || defined(__aarch64__)
constexpr bool kUnalignedAccess = true;
#else
constexpr bool kUnalignedAccess = false;
#endif

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_SINGLE_THREAD_PORT_CPU_H_
