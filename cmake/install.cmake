# `cmake --install` of any preset: headers, libffi_core.a, the TVM backend
# library, on a board its startup objects, linker script and QEMU runner,
# the toolchain files, and the CMake package `ffi_core` that an out-of-tree
# firmware finds with find_package(ffi_core REQUIRED):
#   ffi_core::ffi_core  the runtime (libffi_core.a)
#   ffi_core::tvm       TVM's backend API (libffi_core_tvm.a), ffi_core_tvm_add_c_module()
#   ffi_core::containers  the ffi.Array, ffi.List, ... globals (libffi_core_containers.a)
#   ffi_core::board     startup, semihosting system calls and linker script (boards only)
#   ffi_core::ffi_core_shared, ffi_core::tvm_shared   the host's shared runtime
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(_pkg_dir "${CMAKE_INSTALL_LIBDIR}/cmake/ffi_core")
set(_share "share/ffi_core")

install(DIRECTORY core/include/ port/include/ tvm_backend/include/ DESTINATION include)
foreach(_dir IN LISTS FFI_CORE_PORT_INCLUDE_DIR)
  install(DIRECTORY "${_dir}/" DESTINATION include)
endforeach()
install(FILES "${FFI_CORE_DLPACK_INCLUDE_DIR}/dlpack/dlpack.h" DESTINATION include/dlpack)

set_target_properties(ffi_core_tvm PROPERTIES EXPORT_NAME tvm)
set_target_properties(ffi_core_containers PROPERTIES EXPORT_NAME containers)
set(_targets ffi_core ffi_core_headers ffi_core_flags ffi_core_tvm ffi_core_containers)
if(NOT CMAKE_CROSSCOMPILING)
  set_target_properties(ffi_core_tvm_shared PROPERTIES EXPORT_NAME tvm_shared)
  list(APPEND _targets ffi_core_shared ffi_core_tvm_shared)
endif()
if(FFI_CORE_BOARD)
  set_target_properties(ffi_core_board PROPERTIES EXPORT_NAME board)
  list(APPEND _targets ffi_core_board)
  get_filename_component(_board_ld_dir "${FFI_CORE_BOARD_LINKER_SCRIPT}" DIRECTORY)
  install(FILES "${FFI_CORE_BOARD_LINKER_SCRIPT}" "${FFI_CORE_BOARDS_DIR}/${FFI_CORE_BOARD_COMMON}/ffi_core_sections.ld"
          DESTINATION "${_share}/board")
  install(PROGRAMS "${FFI_CORE_QEMU_RUN}" DESTINATION "${_share}/board")
  install(DIRECTORY toolchains/ DESTINATION "${_share}/toolchains")
endif()
install(TARGETS ${_targets} EXPORT ffi_core_targets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        OBJECTS DESTINATION "${CMAKE_INSTALL_LIBDIR}/ffi_core_objects")
install(EXPORT ffi_core_targets NAMESPACE ffi_core:: DESTINATION "${_pkg_dir}"
        FILE ffi_core_targets.cmake)
install(FILES tvm_backend/cmake/ffi_core_tvm.cmake tvm_backend/cmake/ffi_core_tvm_c_module.cmake
        DESTINATION "${_pkg_dir}")

# What the package records about the build it came from.
set(FFI_CORE_PACKAGE_CPU "")
if(FFI_CORE_BOARD)
  set(FFI_CORE_PACKAGE_CPU "${FFI_CORE_TOOLCHAIN_CPU}")
endif()
configure_package_config_file(cmake/ffi_core-config.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/ffi_core-config.cmake" INSTALL_DESTINATION "${_pkg_dir}")
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/ffi_core-config-version.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/ffi_core-config.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/ffi_core-config-version.cmake"
        DESTINATION "${_pkg_dir}")
