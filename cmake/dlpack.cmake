# DLPack comes from a package, never from this repository: the setup script
# installs the apache-tvm-ffi wheel (which ships DLPack 1.x headers) into
# .venv. FFI_CORE_DLPACK_INCLUDE_DIR overrides the search.
set(FFI_CORE_DLPACK_INCLUDE_DIR "" CACHE PATH "Directory holding dlpack/dlpack.h (DLPack >= 1.0)")
set(FFI_CORE_PYTHON "${CMAKE_SOURCE_DIR}/.venv/bin/python" CACHE FILEPATH
    "Python with apache-tvm-ffi installed (for DLPack headers and the upstream layout test)")

set(FFI_CORE_TVM_FFI_INCLUDE_DIR "")
if(EXISTS "${FFI_CORE_PYTHON}")
  execute_process(
    COMMAND "${FFI_CORE_PYTHON}" -c
            "import os, tvm_ffi; print(os.path.dirname(tvm_ffi.__file__))"
    OUTPUT_VARIABLE _tvm_ffi_dir OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _tvm_ffi_rc ERROR_QUIET)
  if(_tvm_ffi_rc EQUAL 0)
    set(FFI_CORE_TVM_FFI_INCLUDE_DIR "${_tvm_ffi_dir}/include")
    if(NOT FFI_CORE_DLPACK_INCLUDE_DIR)
      set(FFI_CORE_DLPACK_INCLUDE_DIR "${_tvm_ffi_dir}/3rdparty/dlpack/include" CACHE PATH "" FORCE)
    endif()
  endif()
endif()

if(NOT EXISTS "${FFI_CORE_DLPACK_INCLUDE_DIR}/dlpack/dlpack.h")
  message(FATAL_ERROR
    "dlpack/dlpack.h (DLPack >= 1.0) not found. Run scripts/setup.sh, which installs the "
    "apache-tvm-ffi wheel into .venv, or set FFI_CORE_DLPACK_INCLUDE_DIR.")
endif()
file(STRINGS "${FFI_CORE_DLPACK_INCLUDE_DIR}/dlpack/dlpack.h" _dlpack_major
     REGEX "^#define DLPACK_MAJOR_VERSION")
string(REGEX MATCH "[0-9]+" _dlpack_major "${_dlpack_major}")
if(_dlpack_major LESS 1)
  message(FATAL_ERROR "DLPack ${_dlpack_major}.x at ${FFI_CORE_DLPACK_INCLUDE_DIR}: need >= 1.0")
endif()
message(STATUS "ffi-core: DLPack headers from ${FFI_CORE_DLPACK_INCLUDE_DIR}")
