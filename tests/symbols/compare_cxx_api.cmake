# Fails unless libffi_core.so exports the C++ symbols of upstream's API that
# the wheel's libtvm_ffi.so does (mangled names, so signatures, vtables and
# typeinfo must agree), less the std:: template instantiations the wheel's
# build leaks and the symbols NOT_PROVIDED names (each with its reason in
# docs/compatibility.md). An entry of NOT_PROVIDED that ffi-core does export
# fails too, so the list stays true. Prints the counts either way.
# Usage: cmake -DNM=<nm> -DOURS=<libffi_core.so> -DWHEEL=<libtvm_ffi.so>
#              "-DNOT_PROVIDED=<mangled;...>" -P compare_cxx_api.cmake
function(cxx_api_symbols lib out)
  execute_process(COMMAND "${NM}" -D --defined-only "${lib}" OUTPUT_VARIABLE table
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} -D failed on ${lib}")
  endif()
  # Upstream's namespace, as a name's outer scope or as a vtable's,
  # typeinfo's or local static's class; std:: instantiations (_ZNSt...,
  # _ZTISt..., ...) mention it only inside template arguments.
  string(REGEX MATCHALL "[ \n][A-Za-z] _Z(TV|TI|TS|GVZ|Z)?N3tvm3ffi[^\n]*" found "${table}")
  set(names "")
  foreach(line IN LISTS found)
    string(REGEX REPLACE "^[ \n][A-Za-z] " "" name "${line}")
    list(APPEND names "${name}")
  endforeach()
  list(SORT names)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

cxx_api_symbols("${WHEEL}" wheel)
cxx_api_symbols("${OURS}" ours)
list(LENGTH wheel n_wheel)
list(LENGTH ours n_ours)
set(missing "")
set(provided_anyway "")
foreach(name IN LISTS wheel)
  list(FIND ours "${name}" at)
  list(FIND NOT_PROVIDED "${name}" known)
  if(at EQUAL -1 AND known EQUAL -1)
    list(APPEND missing "${name}")
  elseif(NOT at EQUAL -1 AND NOT known EQUAL -1)
    list(APPEND provided_anyway "${name}")
  endif()
endforeach()
set(extra "")
foreach(name IN LISTS ours)
  list(FIND wheel "${name}" at)
  if(at EQUAL -1)
    list(APPEND extra "${name}")
  endif()
endforeach()
list(LENGTH NOT_PROVIDED n_known)
message(STATUS "upstream's C++ API: the wheel exports ${n_wheel}, libffi_core.so ${n_ours}; "
               "${n_known} listed as not provided")
if(missing OR extra OR provided_anyway)
  list(JOIN missing "\n  " missing_text)
  list(JOIN extra "\n  " extra_text)
  list(JOIN provided_anyway "\n  " provided_text)
  message(FATAL_ERROR "missing from ${OURS}:\n  ${missing_text}\n"
                      "exported by it but not by the wheel:\n  ${extra_text}\n"
                      "listed as not provided, yet exported:\n  ${provided_text}")
endif()
