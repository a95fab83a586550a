// ErrorSlot: where a raised error waits for the caller, without the heap.
//
// Each calling context (a thread on the host, the whole program or an RTOS
// task on bare metal: see port.h) owns one slot. The slot embeds a few
// complete Error objects with fixed-size kind and message buffers; raising an
// error fills a free one, and TVMFFIErrorMoveFromRaised hands it to the
// caller as an ordinary ref-counted object that returns to the slot when
// released. All-zero is a valid empty slot, so slots need no constructor.
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
  // Free while both reference counts of the header are zero (the deleter
  // clears them when the last reference goes).
  InlineErrorObj storage[FFI_CORE_ERROR_SLOT_DEPTH];
};

}  // namespace ffi_core

#endif  // FFI_CORE_ERROR_SLOT_H_
