# Compiles one TFLite model with scripts/tvm-compile.py twice, on the wheel's
# runtime and on ffi-core's (the overlay first on PYTHONPATH), and fails
# unless every file written is byte for byte the same.
# Usage: cmake -DPYTHON=<python> -DSCRIPT=<tvm-compile.py> -DMODEL=<.tflite>
#              -DCPU=<cpu> -DNAME=<name> -DOVERLAY=<dir> -DOUT=<dir>
#              -P compare_tvm_compile.cmake
if(NOT EXISTS "${MODEL}")
  message("SKIPPED: ${MODEL} is missing (scripts/fetch-mlperf-tiny.sh downloads it)")
  return()
endif()
# The overlay must put ffi-core's runtime under the package.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "PYTHONPATH=${OVERLAY}" "${PYTHON}" -c
          "import tvm_ffi; print(open('/proc/self/maps').read())"
  OUTPUT_VARIABLE maps RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT maps MATCHES "libffi_core\\.so")
  message(FATAL_ERROR "tvm_ffi under ${OVERLAY} does not load libffi_core.so")
endif()
file(REMOVE_RECURSE "${OUT}")
foreach(runtime wheel ffi_core)
  set(env "")
  if(runtime STREQUAL "ffi_core")
    set(env "PYTHONPATH=${OVERLAY}")
  endif()
  string(TIMESTAMP start "%s")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env ${env} "${PYTHON}" "${SCRIPT}" "${MODEL}" --cpu "${CPU}"
            --out "${OUT}/${runtime}" --name "${NAME}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tvm-compile.py on the ${runtime} runtime failed (${rc}):\n${out}\n${err}")
  endif()
  message("${runtime}: ${seconds} s: ${out}")
endforeach()
file(GLOB written RELATIVE "${OUT}/wheel" "${OUT}/wheel/*")
list(LENGTH written n)
if(n EQUAL 0)
  message(FATAL_ERROR "tvm-compile.py wrote nothing in ${OUT}/wheel")
endif()
foreach(f IN LISTS written)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUT}/wheel/${f}"
                          "${OUT}/ffi_core/${f}" RESULT_VARIABLE differs)
  if(NOT differs EQUAL 0)
    message(FATAL_ERROR "${f} differs between the wheel's runtime and ffi-core's")
  endif()
endforeach()
message("identical on both runtimes: ${written}")
