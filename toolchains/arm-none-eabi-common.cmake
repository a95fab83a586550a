# Shared arm-none-eabi-gcc settings for bare-metal Cortex-M builds.
#
# Not used directly: a CPU file (cortex-*.cmake) sets
#   FFI_CORE_TOOLCHAIN_CPU        CPU name, checked by boards/<board>/board.cmake
#   FFI_CORE_TOOLCHAIN_CPU_FLAGS  -mcpu/-mfpu/-mfloat-abi for that CPU
# and then includes this file. CMake re-reads the toolchain file for every
# try_compile, so everything here must be idempotent (plain set()s only).

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)

# Compiler checks cannot link without a board linker script; a static
# library is enough to prove the compiler works.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# newlib-nano (small stdio/malloc) is the default; OFF selects full newlib
# (about +120 KB of flash for a doctest binary, complete C library).
# Must be uniform over the whole build: nano.specs also switches the newlib
# headers, so it goes into compile *and* link flags.
if(NOT DEFINED FFI_CORE_NEWLIB_NANO)
  set(FFI_CORE_NEWLIB_NANO ON CACHE BOOL "Link newlib-nano (--specs=nano.specs)")
endif()
# Forward the choice into try_compile projects so checks see the same headers.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FFI_CORE_NEWLIB_NANO)
list(REMOVE_DUPLICATES CMAKE_TRY_COMPILE_PLATFORM_VARIABLES)

set(_ffi_core_tc_flags "${FFI_CORE_TOOLCHAIN_CPU_FLAGS} -mthumb")
# Size first: every function/object in its own section so --gc-sections
# can drop whatever the image does not reference.
string(APPEND _ffi_core_tc_flags " -Os -ffunction-sections -fdata-sections")
# GCC notes that argument passing of some std:: types changed in GCC 7.1;
# irrelevant when everything is built by one compiler, and very noisy.
string(APPEND _ffi_core_tc_flags " -Wno-psabi")
set(_ffi_core_tc_link_flags "-Wl,--gc-sections")
if(FFI_CORE_NEWLIB_NANO)
  # No -u _printf_float here: it adds about 15 KB to every firmware. A
  # program that formats floating point links it itself (tests/CMakeLists.txt).
  string(APPEND _ffi_core_tc_flags " --specs=nano.specs")
endif()

set(CMAKE_C_FLAGS_INIT "${_ffi_core_tc_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_ffi_core_tc_flags} -fno-exceptions -fno-rtti")
set(CMAKE_ASM_FLAGS_INIT "${FFI_CORE_TOOLCHAIN_CPU_FLAGS} -mthumb")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_ffi_core_tc_link_flags}")

# Host programs (tools) come from the host; headers, libraries and CMake
# packages never do: the host's /usr/include on the include path makes
# glibc headers shadow newlib's (doctest::doctest from the host package
# adds exactly that). Use host header-only libraries via a directory that
# contains only them (see boards/README.md).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
