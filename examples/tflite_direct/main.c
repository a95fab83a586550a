/* Runs a model through its direct entry, ffi_core_<model>_run: the input,
 * one workspace and the output are this firmware's static buffers (16-byte
 * aligned, the sizes model.json gives); the constants stay in flash. Then a
 * NULL workspace, whose error comes back through the C ABI's error slot. */
#include <stdint.h>
#include <stdio.h>
#include <tvm/ffi/c_api.h>

int32_t MODEL_ENTRY(void* const* buffers);

static int8_t input[MODEL_INPUT_BYTES] __attribute__((aligned(16)));
static uint8_t workspace[MODEL_WORKSPACE_BYTES] __attribute__((aligned(16)));
static int8_t output[MODEL_OUTPUT_BYTES] __attribute__((aligned(16)));

/* The pending error's kind and message, printed and released. */
static void print_error(void) {
  TVMFFIObjectHandle error = NULL;
  TVMFFIErrorMoveFromRaised(&error);
  if (error == NULL) {
    printf("no error raised\n");
    return;
  }
  /* The error's cell follows its object header (c_api.h). */
  const TVMFFIErrorCell* cell =
      (const TVMFFIErrorCell*)(const void*)((const char*)error + sizeof(TVMFFIObject));
  printf("%.*s: %.*s\n", (int)cell->kind.size, cell->kind.data, (int)cell->message.size,
         cell->message.data);
  TVMFFIObjectDecRef(error);
}

int main(void) {
  for (int i = 0; i < MODEL_INPUT_BYTES; ++i) input[i] = (int8_t)(i * 37 % 256 - 128);
  void* buffers[3] = {input, workspace, output};
  if (MODEL_ENTRY(buffers) != 0) {
    printf("%s: FAILED: ", MODEL_NAME);
    print_error();
    return 1;
  }
  int best = 0;
  printf("%s output:", MODEL_NAME);
  for (int i = 0; i < MODEL_OUTPUT_BYTES; ++i) {
    printf(" %d", output[i]);
    best = output[i] > output[best] ? i : best;
  }
  printf("\nargmax %d\n", best);
  buffers[1] = NULL;
  if (MODEL_ENTRY(buffers) == 0) {
    printf("%s: FAILED: a NULL workspace was taken\n", MODEL_NAME);
    return 1;
  }
  printf("NULL workspace -> ");
  print_error();
  printf("%s: OK\n", MODEL_NAME);
  return 0;
}
