// Bare-metal stand-in for the Linux cross package's bits/os_defines.h, which
// needs glibc's <features.h>: no operating system to describe.
#ifndef _GLIBCXX_OS_DEFINES
#define _GLIBCXX_OS_DEFINES 1
#endif
