# Shared riscv64-unknown-elf-gcc settings for bare-metal 32-bit RISC-V builds
# (GCC 12 with rv32 multilibs, picolibc).
#
# Not used directly: a CPU file (rv32*.cmake) sets
#   FFI_CORE_TOOLCHAIN_CPU        CPU name, checked by boards/<board>/board.cmake
#   FFI_CORE_TOOLCHAIN_CPU_FLAGS  -march/-mabi for that CPU
# and then includes this file. Idempotent (plain set()s only): CMake re-reads
# it for every try_compile.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_CXX_COMPILER riscv64-unknown-elf-g++)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)

# Compiler checks cannot link without a board linker script.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(FFI_CORE_PICOLIBC_DIR "/usr/lib/picolibc/riscv64-unknown-elf")
# Debian ships no C++ headers for riscv64-unknown-elf; the Linux cross
# package's are freestanding-clean once two bare-metal overrides (here, in
# toolchains/riscv/include) come before them. picolibc's C headers follow
# the C++ ones: <cstdlib> needs its own #include_next order.
set(FFI_CORE_RISCV_CXX_DIR "/usr/riscv64-linux-gnu/include/c++/12")
set(_ffi_core_cxx_includes
    "-isystem ${CMAKE_CURRENT_LIST_DIR}/riscv/include"
    "-isystem ${FFI_CORE_RISCV_CXX_DIR}"
    "-isystem ${FFI_CORE_RISCV_CXX_DIR}/riscv64-linux-gnu"
    "-isystem ${FFI_CORE_PICOLIBC_DIR}/include")
list(JOIN _ffi_core_cxx_includes " " _ffi_core_cxx_includes)

# The multilib is chosen only by exactly -march=rv32imac|rv32imc -mabi=ilp32:
# code that touches CSRs enables Zicsr in its own asm (.option arch, +zicsr).
set(_ffi_core_tc_flags "${FFI_CORE_TOOLCHAIN_CPU_FLAGS}")
string(APPEND _ffi_core_tc_flags " -Os -ffunction-sections -fdata-sections")
# Thread-local storage is picolibc's errno only; one context, no TLS setup.
string(APPEND _ffi_core_tc_flags " -ftls-model=local-exec")
# picolibc.specs only at link time: at compile time it puts picolibc's
# headers before the C++ ones.
set(_ffi_core_tc_link_flags "-specs=picolibc.specs -nostartfiles -Wl,--gc-sections")

set(CMAKE_C_FLAGS_INIT "${_ffi_core_tc_flags} -isystem ${FFI_CORE_PICOLIBC_DIR}/include")
set(CMAKE_CXX_FLAGS_INIT
    "${_ffi_core_tc_flags} ${_ffi_core_cxx_includes} -fno-exceptions -fno-rtti -fno-threadsafe-statics")
set(CMAKE_ASM_FLAGS_INIT "${FFI_CORE_TOOLCHAIN_CPU_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_ffi_core_tc_link_flags}")
# There is no libstdc++ for this target, only its headers: C++ programs link
# with the C driver, and the little C++ runtime they use (operator delete
# for virtual destructors, __cxa_pure_virtual) comes from the board.
set(CMAKE_CXX_LINK_EXECUTABLE
    "<CMAKE_C_COMPILER> <FLAGS> <CMAKE_CXX_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")

# As for Arm: host programs from the host, nothing else from it.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
