// Bare-metal ports: no system heap (port.h). Inline, so an allocation that
// reaches it folds into the MemoryError and no heap code is linked.
#ifndef FFI_CORE_PORT_BARE_METAL_PORT_HEAP_H_
#define FFI_CORE_PORT_BARE_METAL_PORT_HEAP_H_

#include <ffi_core/port.h>

#include <cstddef>

namespace ffi_core {
namespace port {

constexpr bool kSystemHeap = false;
inline void* SystemAllocate(size_t /*size*/, size_t /*alignment*/) { return nullptr; }
inline void SystemFree(void* /*ptr*/, size_t /*size*/, size_t /*alignment*/) {}

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_BARE_METAL_PORT_HEAP_H_
