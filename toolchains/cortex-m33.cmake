# Cortex-M33 (armv8-m.main + DSP) with single-precision FPU, hard-float ABI.
# QEMU's M33 (mps2-an505) models an SP-only FPU, hence fpv5-sp-d16.
# Multilib: thumb/v8-m.main+fp/hard.
set(FFI_CORE_TOOLCHAIN_CPU cortex-m33)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
