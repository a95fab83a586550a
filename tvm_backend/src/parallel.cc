// TVM's parallel launch, serial on every target: one task runs the whole
// loop. Kernels stay correct (they split work by penv->num_task); a
// firmware or host wanting threads would provide its own launcher instead
// of this library's.
#include <ffi_core/error.h>
#include <tvm/runtime/c_backend_api.h>

extern "C" {

int TVMBackendParallelLaunch(FTVMParallelLambda flambda, void* cdata, int /*num_task*/) {
  if (flambda == nullptr) {
    ffi_core::RaiseError(ffi_core::ErrorKind::kValueError,
                         {"TVMBackendParallelLaunch: NULL task function"});
    return -1;
  }
  TVMParallelGroupEnv env{nullptr, 1};
  return flambda(0, &env, cdata);
}

int TVMBackendParallelBarrier(int /*task_id*/, TVMParallelGroupEnv* /*penv*/) { return 0; }

}  // extern "C"
