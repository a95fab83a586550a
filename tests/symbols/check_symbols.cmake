# Fails if libffi_core.a references what firmware must not pull in:
# exception machinery, RTTI, iostreams, std::string, and (for 32-bit
# targets without libatomic) calls to out-of-line atomic helpers (a port may
# define them: riscv32_imc).
# Usage: cmake -DNM=<nm> -DLIB=<libffi_core.a> -P check_symbols.cmake
execute_process(COMMAND "${NM}" -A "${LIB}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
set(forbidden
  "__cxa_throw" "__cxa_begin_catch" "__cxa_allocate_exception" "__gxx_personality_v0"
  " _ZTI" " _ZTS"
  "_ZNSt8ios_base" "_ZSt4cout" "_ZSt4cerr" "_ZNSt7__cxx1112basic_string" "_ZNSt8functionI"
  " U __atomic_" " U __sync_")
set(found "")
foreach(pattern IN LISTS forbidden)
  string(FIND "${symbols}" "${pattern}" at)
  if(NOT at EQUAL -1)
    string(REGEX MATCHALL "[^\n]*${pattern}[^\n]*" lines "${symbols}")
    list(APPEND found ${lines})
  endif()
endforeach()
if(found)
  list(JOIN found "\n" text)
  message(FATAL_ERROR "forbidden symbols in ${LIB}:\n${text}")
endif()
string(REGEX MATCHALL "\n" lines "${symbols}")
list(LENGTH lines n)
message(STATUS "${LIB}: ${n} symbol lines, none forbidden")
