/* What gen_relax_models.py writes into relax_<model>_data.h. */
#ifndef FFI_CORE_TESTS_TVM_RELAX_MODEL_CASE_H_
#define FFI_CORE_TESTS_TVM_RELAX_MODEL_CASE_H_

#include <stdint.h>

typedef struct {
  const void* data;
  int32_t ndim;
  int64_t shape[4];
  uint8_t code; /* DLDataTypeCode */
  uint8_t bits;
} RelaxTensor;

/* Bad inputs: the first tensor's dtype or last dimension changed; for a
 * tuple input, a tuple of one tensor, or a tensor in the tuple's place. */
enum { RELAX_BAD_DTYPE, RELAX_BAD_SHAPE, RELAX_BAD_ARITY, RELAX_BAD_NOT_TUPLE };

/* A bad input and what TVM's VirtualMachine raised for it. */
typedef struct {
  int what;
  const char* kind;
  const char* message;
} RelaxBadCall;

#endif /* FFI_CORE_TESTS_TVM_RELAX_MODEL_CASE_H_ */
