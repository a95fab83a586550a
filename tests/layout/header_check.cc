// c_api.h on its own, as strict C++17 (see CMakeLists.txt).
#include <tvm/ffi/c_api.h>
int c_api_header_check_cxx() { return static_cast<int>(sizeof(TVMFFIAny)); }
