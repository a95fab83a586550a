# Shared tail of every boards/<board>/board.cmake. The board file sets
#   FFI_CORE_BOARD                board (= folder) name
#   FFI_CORE_BOARD_CPU            toolchains/<cpu>.cmake it must be built with
#   FFI_CORE_QEMU_MACHINE         qemu-system-arm -machine value
#   FFI_CORE_QEMU_CPU             qemu -cpu value; empty = the machine's own CPU
#   FFI_CORE_BOARD_LINKER_SCRIPT  absolute path of its linker script
#   FFI_CORE_BOARD_NUM_IRQS       external interrupts in the vector table
#   FFI_CORE_BOARD_COMMON         folder of its startup code and section layout:
#                                 common (Cortex-M, the default) or riscv_common
#   FFI_CORE_BOARD_CMDLINE_MAX    optional: bytes of the command-line buffer (512)
# and then includes this file. See boards/README.md for the contract.

get_filename_component(FFI_CORE_BOARDS_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
get_filename_component(FFI_CORE_BOARD_TOOLCHAIN_FILE
  "${FFI_CORE_BOARDS_DIR}/../toolchains/${FFI_CORE_BOARD_CPU}.cmake" ABSOLUTE)
set(FFI_CORE_QEMU_RUN "${FFI_CORE_BOARDS_DIR}/qemu-run.sh")
if(NOT FFI_CORE_BOARD_COMMON)
  set(FFI_CORE_BOARD_COMMON common)
endif()

# Included before project(): the only useful thing is choosing the toolchain
# (it has to be known when project() enables the languages).
if(NOT DEFINED PROJECT_NAME) # CMAKE_PROJECT_NAME is cached and survives re-configures
  if(NOT CMAKE_TOOLCHAIN_FILE)
    set(CMAKE_TOOLCHAIN_FILE "${FFI_CORE_BOARD_TOOLCHAIN_FILE}" CACHE FILEPATH
        "Toolchain chosen by board ${FFI_CORE_BOARD}")
  endif()
  return()
endif()

# Catch a board/toolchain mix-up at configure time, not as a fault in QEMU.
if(NOT FFI_CORE_TOOLCHAIN_CPU STREQUAL FFI_CORE_BOARD_CPU)
  message(FATAL_ERROR
    "Board '${FFI_CORE_BOARD}' needs -DCMAKE_TOOLCHAIN_FILE=${FFI_CORE_BOARD_TOOLCHAIN_FILE} "
    "(active toolchain CPU: '${FFI_CORE_TOOLCHAIN_CPU}').")
endif()

# Command prefix that runs an ELF for this board; also the default
# emulator for add_test() of targets created from here on.
set(FFI_CORE_BOARD_EMULATOR "${FFI_CORE_QEMU_RUN}")
if(FFI_CORE_QEMU_CPU)
  list(APPEND FFI_CORE_BOARD_EMULATOR --cpu "${FFI_CORE_QEMU_CPU}")
endif()
list(APPEND FFI_CORE_BOARD_EMULATOR "${FFI_CORE_QEMU_MACHINE}")
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${FFI_CORE_BOARD_EMULATOR}")
endif()

if(TARGET ffi_core_board)
  return() # included twice; the target and functions already exist
endif()

if(NOT CMAKE_C_COMPILER_LOADED)
  enable_language(C) # the startup code is C
endif()

get_filename_component(_ffi_core_cc_dir "${CMAKE_C_COMPILER}" DIRECTORY)
find_program(FFI_CORE_SIZE_TOOL NAMES arm-none-eabi-size riscv64-unknown-elf-size HINTS "${_ffi_core_cc_dir}")

# Startup, C library system calls and the periodic-interrupt helper. OBJECT so the vector table
# and system calls are always linked in (an archive member nobody references
# would be skipped); --gc-sections drops what is unused.
set(_ffi_core_common "${FFI_CORE_BOARDS_DIR}/${FFI_CORE_BOARD_COMMON}")
add_library(ffi_core_board OBJECT
  "${_ffi_core_common}/startup.c"
  "${_ffi_core_common}/syscalls.c"
  "${_ffi_core_common}/systick.c"
  "${FFI_CORE_BOARDS_DIR}/common/argv_split.c"
  "${FFI_CORE_BOARDS_DIR}/common/stack_use.c")
# What every board's startup shares (argv_split.h, stack_use.h).
target_include_directories(ffi_core_board PRIVATE "${FFI_CORE_BOARDS_DIR}/common")
# The board services' header (board.h, systick.h) is one for every board.
target_include_directories(ffi_core_board PUBLIC
  "$<BUILD_INTERFACE:${FFI_CORE_BOARDS_DIR}/common/include>" "$<INSTALL_INTERFACE:include>")
# What links a firmware for this board: its linker script, and the folder
# holding ffi_core_sections.ld (INCLUDEd by it), here or installed.
get_filename_component(_ffi_core_ld_name "${FFI_CORE_BOARD_LINKER_SCRIPT}" NAME)
target_link_options(ffi_core_board INTERFACE
  "$<BUILD_INTERFACE:-T${FFI_CORE_BOARD_LINKER_SCRIPT}>"
  "$<BUILD_INTERFACE:-L${_ffi_core_common}>"
  "$<INSTALL_INTERFACE:-T$<INSTALL_PREFIX>/share/ffi_core/board/${_ffi_core_ld_name}>"
  "$<INSTALL_INTERFACE:-L$<INSTALL_PREFIX>/share/ffi_core/board>")
target_compile_definitions(ffi_core_board PRIVATE
  "FFI_CORE_BOARD_NAME=\"${FFI_CORE_BOARD}\""
  "FFI_CORE_BOARD_NUM_IRQS=${FFI_CORE_BOARD_NUM_IRQS}")
# FFI_CORE_BOARD_CMDLINE_MAX: the command line's buffer, where the board
# sets one (startup.c's default otherwise).
if(FFI_CORE_BOARD_CMDLINE_MAX)
  target_compile_definitions(ffi_core_board PRIVATE
    "FFI_CORE_BOARD_CMDLINE_MAX=${FFI_CORE_BOARD_CMDLINE_MAX}")
endif()
target_compile_options(ffi_core_board PRIVATE -Wall -Wextra -Werror)

# Turns an add_executable() target into a bootable image for this board:
# startup + system calls and the board linker script (ffi_core_board
# carries both), a .map next to the
# binary and a size report after linking. Uses the keyword form of
# target_link_libraries(), so callers must use it (PRIVATE/PUBLIC) too.
function(ffi_core_board_executable target)
  target_link_libraries(${target} PRIVATE ffi_core_board)
  target_link_options(${target} PRIVATE
    "-Wl,-Map=${CMAKE_CURRENT_BINARY_DIR}/${target}.map"
    "-Wl,--print-memory-usage")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
    "${FFI_CORE_BOARD_LINKER_SCRIPT}"
    "${FFI_CORE_BOARDS_DIR}/${FFI_CORE_BOARD_COMMON}/ffi_core_sections.ld")
  set_property(TARGET ${target} PROPERTY SUFFIX ".elf")
  if(FFI_CORE_SIZE_TOOL)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND "${FFI_CORE_SIZE_TOOL}" "$<TARGET_FILE:${target}>" VERBATIM)
  endif()
endfunction()

# Virtual nanoseconds per SysTick count (x100) under -icount shift=0 (one
# instruction per virtual nanosecond), from each board's processor clock
# (boards/README.md): what turns a firmware's clock counts into instructions.
set(FFI_CORE_BOARD_NS_PER_COUNT_X100 4000)  # 25 MHz: mps2-an385/386/500
if(FFI_CORE_QEMU_MACHINE STREQUAL "mps2-an505")
  set(FFI_CORE_BOARD_NS_PER_COUNT_X100 5000)  # 20 MHz
elseif(FFI_CORE_QEMU_MACHINE STREQUAL "mps3-an547")
  set(FFI_CORE_BOARD_NS_PER_COUNT_X100 3125)  # 32 MHz
elseif(FFI_CORE_QEMU_MACHINE STREQUAL "microbit")
  set(FFI_CORE_BOARD_NS_PER_COUNT_X100 6250)  # 16 MHz
elseif(FFI_CORE_QEMU_MACHINE STREQUAL "virt")
  set(FFI_CORE_BOARD_NS_PER_COUNT_X100 10000)  # RISC-V: the CLINT's mtime, 10 MHz
endif()
