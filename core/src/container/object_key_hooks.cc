#include <ffi_core/container/object_key_hooks.h>

namespace ffi_core {

namespace detail {
const ObjectKeyHooks* g_object_key_hooks = nullptr;
}  // namespace detail

void SetObjectKeyHooks(const ObjectKeyHooks* hooks) { detail::g_object_key_hooks = hooks; }

}  // namespace ffi_core
