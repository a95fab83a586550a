// The baseline of the footprint report: the same board support (startup,
// syscalls, exit) and toolchain flags as the footprint firmware, and no
// ffi-core. The difference between the two images is what ffi-core and the
// app on it add, libc and libgcc included.
int main() { return 0; }
