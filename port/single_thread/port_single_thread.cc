// Single-thread port: nothing to exclude with one context, so no table lock.
#include <ffi_core/port.h>

namespace ffi_core {
namespace port {

void GlobalLock() {}
void GlobalUnlock() {}

}  // namespace port
}  // namespace ffi_core
