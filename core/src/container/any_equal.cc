#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/object_key_hooks.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/string.h>

namespace ffi_core {
namespace {

// The object index of a byte sequence's either form, else the index itself.
int32_t ByteFamily(int32_t type_index) {
  if (type_index == kTVMFFISmallStr) return kTVMFFIStr;
  if (type_index == kTVMFFISmallBytes) return kTVMFFIBytes;
  return type_index;
}

}  // namespace

bool AnyEqual(const AnyView& a, const AnyView& b) {
  const int32_t family = ByteFamily(a.type_index());
  if (family != ByteFamily(b.type_index())) return false;
  if (family == kTVMFFIStr || family == kTVMFFIBytes) {
    const TVMFFIByteArray x = detail::ByteSequenceView(a.raw());
    const TVMFFIByteArray y = detail::ByteSequenceView(b.raw());
    return SameBytes(x.data, x.size, y.data, y.size);
  }
  // Plain values bit for bit (a NaN equals itself, -0.0 is not 0.0), objects
  // by identity unless their type compares by value, as upstream compares them.
  if (a.type_index() != b.type_index()) return false;
  if (a.raw().v_uint64 == b.raw().v_uint64) return true;
  const ObjectKeyHooks* hooks = detail::g_object_key_hooks;
  bool equal = false;
  return a.type_index() >= kTVMFFIStaticObjectBegin && hooks != nullptr &&
         hooks->equal(a.raw(), b.raw(), &equal) && equal;
}

}  // namespace ffi_core
