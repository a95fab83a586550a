// The minimal firmware of the footprint report: ffi-core doing its core
// job and nothing else. Builds Anys, calls a packed function with two
// arguments through TVMFFIFunctionCall, raises an error and reads it back,
// and creates and releases a String object from a pool allocator.
#include <ffi_core/any.h>
#include <ffi_core/pool_allocator.h>
#include <ffi_core/string.h>
#include <tvm/ffi/c_api.h>

namespace {

ffi_core::StaticPool<96, 2> g_pool;

int Add(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (num_args != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add expects two ints");
    return -1;
  }
  ffi_core::TypeTraits<int64_t>::Write(args[0].v_int64 + args[1].v_int64, result);
  return 0;
}

}  // namespace

int main() {
  ffi_core::SetAllocator(g_pool.allocator());
  int failures = 0;

  TVMFFIObjectHandle add = nullptr;
  if (TVMFFIFunctionCreate(nullptr, &Add, nullptr, &add) != 0) return 2;
  ffi_core::AnyView args[2] = {ffi_core::AnyView(int64_t{40}), ffi_core::AnyView(int64_t{2})};
  TVMFFIAny result = ffi_core::NoneAny();
  TVMFFIAny* raw = const_cast<TVMFFIAny*>(&args[0].raw());
  if (TVMFFIFunctionCall(add, raw, 2, &result) != 0 || result.v_int64 != 42) ++failures;

  // A bad call raises; read the error back through its cell.
  result = ffi_core::NoneAny();
  if (TVMFFIFunctionCall(add, raw, 1, &result) == 0) ++failures;
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == nullptr || TVMFFIErrorGetCellPtr(err)->kind.size != 9) ++failures;
  if (err != nullptr) TVMFFIObjectDecRef(err);
  TVMFFIObjectDecRef(add);

  {
    ffi_core::Expected<ffi_core::String> s =
        ffi_core::String::FromCStr("a string object from the pool");
    if (!s.ok() || s->is_small() || g_pool.live_blocks() != 1) ++failures;
  }
  if (g_pool.live_blocks() != 0) ++failures;
  return failures;
}
