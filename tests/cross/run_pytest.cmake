# Runs one pytest file (or directory) with the given Python, failing with a
# clear message when pytest (or numpy, or tvm_ffi, or a module of MODULES)
# is missing from it. pytest fails (exit 5) when no test was collected.
# Usage: cmake -DPYTHON=<python> -DTEST_FILE=<file.py> [-DMODULES=a;b] -P run_pytest.cmake
if(NOT EXISTS "${PYTHON}")
  message(FATAL_ERROR "Python '${PYTHON}' not found: run scripts/setup.sh or set FFI_CORE_PYTHON")
endif()
foreach(module pytest numpy tvm_ffi ${MODULES})
  execute_process(COMMAND "${PYTHON}" -c "import ${module}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "'${module}' is not importable in ${PYTHON}: install it "
                        "(${PYTHON} -m pip install ${module}, or run scripts/setup.sh)")
  endif()
endforeach()
# -p no:cacheprovider: no .pytest_cache in the source tree.
execute_process(COMMAND "${PYTHON}" -m pytest -q -p no:cacheprovider "${TEST_FILE}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pytest failed (exit ${rc})")
endif()
