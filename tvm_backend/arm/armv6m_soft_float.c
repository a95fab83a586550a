/* TVM's LLVM back end calls the generic soft-float helpers (__addsf3, ...);
 * the ARMv6-M libgcc only has their EABI names (__aeabi_fadd, ...). These
 * forward one to the other; each compiles to a single branch. Weak, in case
 * a runtime library provides them after all. */
float __aeabi_fadd(float a, float b);
float __aeabi_fsub(float a, float b);
float __aeabi_fmul(float a, float b);
float __aeabi_fdiv(float a, float b);
float __aeabi_i2f(int a);
float __aeabi_ui2f(unsigned a);
int __aeabi_f2iz(float a);
double __aeabi_f2d(float a);
float __aeabi_d2f(double a);
double __aeabi_dadd(double a, double b);
double __aeabi_dsub(double a, double b);
double __aeabi_dmul(double a, double b);
double __aeabi_ddiv(double a, double b);

__attribute__((weak)) float __addsf3(float a, float b) { return __aeabi_fadd(a, b); }
__attribute__((weak)) float __subsf3(float a, float b) { return __aeabi_fsub(a, b); }
__attribute__((weak)) float __mulsf3(float a, float b) { return __aeabi_fmul(a, b); }
__attribute__((weak)) float __divsf3(float a, float b) { return __aeabi_fdiv(a, b); }
__attribute__((weak)) float __floatsisf(int a) { return __aeabi_i2f(a); }
__attribute__((weak)) float __floatunsisf(unsigned a) { return __aeabi_ui2f(a); }
__attribute__((weak)) int __fixsfsi(float a) { return __aeabi_f2iz(a); }
__attribute__((weak)) double __extendsfdf2(float a) { return __aeabi_f2d(a); }
__attribute__((weak)) float __truncdfsf2(double a) { return __aeabi_d2f(a); }
__attribute__((weak)) double __adddf3(double a, double b) { return __aeabi_dadd(a, b); }
__attribute__((weak)) double __subdf3(double a, double b) { return __aeabi_dsub(a, b); }
__attribute__((weak)) double __muldf3(double a, double b) { return __aeabi_dmul(a, b); }
__attribute__((weak)) double __divdf3(double a, double b) { return __aeabi_ddiv(a, b); }
