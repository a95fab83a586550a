// The C++ side of short_enum_caller.c: a typed function reading a tensor or
// a device through ffi-core, which applies the short-enum policy.
#include <ffi_core/ffi_core.h>

namespace {
ffi_core::StaticArena<1024> g_arena;
}  // namespace

extern "C" TVMFFIObjectHandle ShortEnumCallee(void) {
  ffi_core::SetAllocator(g_arena.allocator());
  ffi_core::Expected<ffi_core::Function> f = ffi_core::Function::FromPacked(
      [](ffi_core::PackedArgs args, ffi_core::Any* rv) -> ffi_core::Status {
        ffi_core::TensorView t;
        DLDevice d{};
        if (args[0].TryAs(&t) == ffi_core::Conversion::kOk) {
          *rv = ffi_core::Any(static_cast<int64_t>(t.device().device_type));
        } else if (args[0].TryAs(&d) == ffi_core::Conversion::kOk) {
          *rv = ffi_core::Any(static_cast<int64_t>(d.device_type));
        } else {
          return ffi_core::RaiseError(ffi_core::ErrorKind::kTypeError,
                                      {"expected a tensor or a device"});
        }
        return ffi_core::Status::Ok();
      });
  if (!f.ok()) return nullptr;
  ffi_core::ObjectPtr<ffi_core::FunctionObj> obj = f.value().object();
  return obj.release();
}
