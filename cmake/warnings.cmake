# Warnings are errors everywhere; C++ is built without exceptions or RTTI.
set(_ffi_core_warnings -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
    # ABI-change notes about GCC 7.1 argument passing: informational only.
    $<$<CXX_COMPILER_ID:GNU>:-Wno-psabi>)
add_library(ffi_core_flags INTERFACE)
target_compile_options(ffi_core_flags INTERFACE ${_ffi_core_warnings}
  $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -Wnon-virtual-dtor>)
# The one exception: upstream's C++ API on the host (extra/cxx_api), built
# with the wheel's headers, whose inline code throws tvm::ffi::Error and
# whose classes carry vtables and typeinfo.
add_library(ffi_core_cxx_api_flags INTERFACE)
target_compile_options(ffi_core_cxx_api_flags INTERFACE ${_ffi_core_warnings} -fexceptions -frtti
  # The wheel's object.h orders reference counts with stand-alone fences,
  # which GCC warns ThreadSanitizer does not model; that code is upstream's
  # and ffi-core's own (FFI_CORE_TSAN_ORDERING) stays checked.
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<BOOL:${FFI_CORE_TSAN_ORDERING}>>:-Wno-tsan>)
