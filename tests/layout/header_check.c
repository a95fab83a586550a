/* c_api.h on its own, as strict C99 (see CMakeLists.txt). */
#include <tvm/ffi/c_api.h>
int c_api_header_check(void) { return (int)sizeof(TVMFFIAny); }
