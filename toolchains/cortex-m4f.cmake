# Cortex-M4 with single-precision FPU (armv7e-m, fpv4-sp-d16, hard-float ABI).
# Multilib: thumb/v7e-m+fp/hard.
set(FFI_CORE_TOOLCHAIN_CPU cortex-m4f)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
