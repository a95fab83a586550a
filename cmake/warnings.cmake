# Warnings are errors everywhere; C++ is built without exceptions or RTTI.
add_library(ffi_core_flags INTERFACE)
target_compile_options(ffi_core_flags INTERFACE
  -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
  $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -Wnon-virtual-dtor>)
