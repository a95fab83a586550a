// Releases an object one time too many: a broken invariant that cannot be
// reported as an error value, so it goes to the fatal hook.
#include <ffi_core/object.h>

#include <cstdio>

int main() {
  TVMFFIObject obj;
  ffi_core::InitObjectHeader(&obj, kTVMFFIDynObjectBegin, nullptr);
  ffi_core::ObjectDecRef(&obj);
  std::printf("released once\n");
  ffi_core::ObjectDecRef(&obj);  // underflow
  std::printf("not reached\n");
  return 0;
}
