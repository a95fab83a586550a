# CMake helpers for firmware that runs TVM's output on ffi-core.
#
# ffi_core_tvm_add_c_module(<target> NAME <id> SOURCE <tvm.c> [PREFIX <prefix>])
#   Adds a C source written by TVM (target "c", from
#   `tvm.compile(...).mod.inspect_source()`) to <target> together with the
#   system-library registration TVM's C output lacks: every function it
#   defines becomes findable through ffi.SystemLib / ffi.ModuleGetFunction, as
#   with TVM's LLVM objects. NAME (a C identifier, unique per firmware) lets
#   several such modules share one firmware.
function(ffi_core_tvm_add_c_module target)
  cmake_parse_arguments(ARG "" "NAME;SOURCE;PREFIX" "" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCE)
    message(FATAL_ERROR "ffi_core_tvm_add_c_module(${target}): NAME and SOURCE are required")
  endif()
  get_filename_component(_source "${ARG_SOURCE}" ABSOLUTE)
  set(_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ffi_core_tvm_c_module.cmake")
  set(_wrapper "${CMAKE_CURRENT_BINARY_DIR}/ffi_core_tvm_${ARG_NAME}_module.c")
  add_custom_command(OUTPUT "${_wrapper}"
    COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${_source}" "-DOUTPUT=${_wrapper}"
            "-DNAME=${ARG_NAME}" "-DPREFIX=${ARG_PREFIX}" -P "${_script}"
    DEPENDS "${_source}" "${_script}"
    COMMENT "System-library registration for ${ARG_SOURCE}"
    VERBATIM)
  target_sources(${target} PRIVATE "${_wrapper}")
  # TVM's C output is not warning-clean (unused variables, casts).
  set_source_files_properties("${_wrapper}" PROPERTIES COMPILE_OPTIONS "-w")
endfunction()
