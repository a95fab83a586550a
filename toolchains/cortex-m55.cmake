# Cortex-M55 (armv8.1-m.main, MVE integer+float, double-precision FPU), hard-float ABI.
# -mcpu picks the FPU and MVE (-mfpu=auto). GCC 12's multilib map sends this
# to thumb/v8-m.main+dp/hard (thumb/v8.1-m.main+mve/hard is only chosen for
# -march=armv8.1-m.main+mve). Same hard-float ABI, so newlib/libstdc++ from
# there link fine; our own code is still compiled with MVE enabled.
set(FFI_CORE_TOOLCHAIN_CPU cortex-m55)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-mcpu=cortex-m55 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
