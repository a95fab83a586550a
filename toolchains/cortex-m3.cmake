# Cortex-M3 (armv7-m, no FPU). Multilib: thumb/v7-m/nofp.
set(FFI_CORE_TOOLCHAIN_CPU cortex-m3)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-mcpu=cortex-m3 -mfloat-abi=soft")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
