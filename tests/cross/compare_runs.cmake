# Runs one program against ffi-core's runtime and against the wheel's, and
# fails unless both succeed and print the same transcript.
# Usage: cmake -DOURS=<cmd;args> -DUPSTREAM=<cmd;args> [-DOURS_ENV=<K=V>]
#              [-DUPSTREAM_ENV=<K=V>] -DMIN_LINES=<n> -P compare_runs.cmake
cmake_policy(VERSION 3.20)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${OURS_ENV} ${OURS}
                OUTPUT_VARIABLE ours ERROR_VARIABLE ours_err RESULT_VARIABLE rc1)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${UPSTREAM_ENV} ${UPSTREAM}
                OUTPUT_VARIABLE upstream ERROR_VARIABLE upstream_err RESULT_VARIABLE rc2)
message(STATUS "ffi-core's runtime:\n${ours}${ours_err}")
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "a run failed (ffi-core ${rc1}, wheel ${rc2}); the wheel's run:\n"
                      "${upstream}${upstream_err}")
endif()
string(REGEX MATCHALL "\n" newlines "${ours}")
list(LENGTH newlines lines)
if(lines LESS MIN_LINES)
  message(FATAL_ERROR "only ${lines} lines printed, expected at least ${MIN_LINES}")
endif()
if(NOT ours STREQUAL upstream)
  message(FATAL_ERROR "transcripts differ; the wheel's runtime printed:\n${upstream}")
endif()
message(STATUS "${lines} lines identical on both runtimes")
