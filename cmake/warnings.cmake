# Warnings are errors everywhere; C++ is built without exceptions or RTTI.
add_library(ffi_core_flags INTERFACE)
target_compile_options(ffi_core_flags INTERFACE
  -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
  # ABI-change notes about GCC 7.1 argument passing: informational only.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-psabi>
  $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -Wnon-virtual-dtor>)
