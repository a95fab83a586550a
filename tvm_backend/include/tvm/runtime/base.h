/*
 * ffi-core: the export macros TVM's generated C source expects from
 * tvm/runtime/base.h (TVM_DLL on every generated function).
 */
#ifndef TVM_RUNTIME_BASE_H_
#define TVM_RUNTIME_BASE_H_

#include <tvm/ffi/c_api.h>

#ifndef TVM_DLL
#define TVM_DLL __attribute__((visibility("default")))
#define TVM_DLL_EXPORT __attribute__((visibility("default")))
#endif
#ifndef TVM_RUNTIME_DLL
#define TVM_RUNTIME_DLL __attribute__((visibility("default")))
#define TVM_RUNTIME_DLL_EXPORT __attribute__((visibility("default")))
#endif

#endif /* TVM_RUNTIME_BASE_H_ */
