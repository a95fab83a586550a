# Cortex-M0+ (armv6-m, no FPU). Multilib: thumb/v6-m/nofp.
set(FFI_CORE_TOOLCHAIN_CPU cortex-m0plus)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-mcpu=cortex-m0plus -mfloat-abi=soft")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
