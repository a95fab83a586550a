#include "probe.c"
