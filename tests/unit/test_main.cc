// doctest's runner, built without exceptions or RTTI like the library.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "test_support.h"
