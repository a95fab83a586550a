# Cortex-M7 with double-precision FPU (armv7e-m, fpv5-d16, hard-float ABI).
# Multilib: thumb/v7e-m+dp/hard.
set(FFI_CORE_TOOLCHAIN_CPU cortex-m7)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
