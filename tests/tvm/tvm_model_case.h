/* What gen_models.py writes into tvm_models_data.h: the arguments of each
 * example model (inputs first, the output last) and its expected outputs. */
#ifndef FFI_CORE_TESTS_TVM_MODEL_CASE_H_
#define FFI_CORE_TESTS_TVM_MODEL_CASE_H_

#include <stdint.h>

typedef struct {
  const void* data; /* the output (last argument) is writable */
  int32_t ndim;
  int64_t shape[4];
  uint8_t code; /* DLDataTypeCode */
  uint8_t bits;
} ModelArg;

typedef struct {
  const char* name;
  int32_t num_args;
  ModelArg args[6];
  const void* numpy; /* numpy's result */
  const void* tvm;   /* TVM's own runtime on the generating host */
  int64_t numel;
  double tolerance; /* absolute and relative; 0: exact */
} ModelCase;

enum { FFI_CORE_TVM_BAD_DTYPE, FFI_CORE_TVM_BAD_ARG_COUNT };

/* A bad call and what TVM's runtime raised for it. */
typedef struct {
  const char* model;
  int what;
  const char* kind;
  const char* message;
} ModelError;

#endif /* FFI_CORE_TESTS_TVM_MODEL_CASE_H_ */
