/* Every object TVM's LLVM back end writes for Arm refers to the EHABI
 * personality routine, although the kernels never throw. Without a
 * definition the linker pulls about 4 KB of libgcc's unwinder into a
 * firmware built without exceptions. This one is weak: a firmware that does
 * link the real unwinder gets libgcc's. Reaching it means an exception is
 * being unwound through TVM code, which cannot happen in such a firmware. */
#include <ffi_core/port_hooks.h>

__attribute__((weak)) int __aeabi_unwind_cpp_pr0(int state, void* ucbp, void* context) {
  (void)state;
  (void)ucbp;
  (void)context;
  ffi_core_fatal("ffi-core: C++ exception unwound through TVM code (no unwinder linked)");
  return 9; /* _URC_FAILURE */
}
