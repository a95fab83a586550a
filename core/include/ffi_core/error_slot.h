// ErrorSlot: where a raised error waits for the caller, without the heap.
//
// Each calling context (a thread on the host, the whole program, an RTOS
// task or an interrupt on bare metal: see port_hooks.h) owns one slot, which
// is just the pending error. The error objects themselves live in one
// process-wide pool of FFI_CORE_ERROR_POOL_SIZE complete Error objects with
// fixed-size kind and message buffers, shared by every context: raising
// claims a free one atomically, and TVMFFIErrorMoveFromRaised hands it to the
// caller as an ordinary ref-counted object that goes back to the pool when
// its last reference is released, on whichever thread that happens. So an
// Error outlives the context that raised it (a thread may exit while another
// still holds its error). All-zero is a valid empty slot and pool, so neither
// needs a constructor.
#ifndef FFI_CORE_ERROR_SLOT_H_
#define FFI_CORE_ERROR_SLOT_H_

#include <ffi_core/config.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {

// The ABI layout of an Error object: header, then the cell.
struct ErrorObj {
  TVMFFIObject header;
  TVMFFIErrorCell cell;
};

// An error object with its text stored inline.
struct InlineErrorObj {
  ErrorObj error;
  char kind[FFI_CORE_ERROR_KIND_CAPACITY];
  char message[FFI_CORE_ERROR_MESSAGE_CAPACITY];
};

struct ErrorSlot {
  // The raised error not yet taken by the caller (one strong reference), or NULL.
  TVMFFIObject* pending;
};

}  // namespace ffi_core

#endif  // FFI_CORE_ERROR_SLOT_H_
