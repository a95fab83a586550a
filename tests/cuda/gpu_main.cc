// Runner for the GPU tests. Without a usable CUDA device it says why and
// exits 77, which ctest reports as Skipped (SKIP_RETURN_CODE 77).
#define DOCTEST_CONFIG_IMPLEMENT
#include <cuda_runtime_api.h>

#include <cstdio>

#include "test_support.h"

int main(int argc, char** argv) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device (cudaGetDeviceCount: %s)\n",
                error != cudaSuccess ? cudaGetErrorString(error) : "0 devices");
    return 77;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    std::printf("%d CUDA device(s); device 0: %s (sm_%d%d)\n", count, prop.name, prop.major,
                prop.minor);
  }
  doctest::Context context(argc, argv);
  return context.run();
}
