// Bare metal has no threads library: libstdc++'s single-threaded gthreads
// instead of the Linux cross package's POSIX ones.
#include <bits/gthr-single.h>
