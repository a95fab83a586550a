// Internal: the calling context, the one owner of what ffi-core keeps per
// thread, RTOS task or interrupt: the pending error (the error slot) and the
// env API's stream table and tensor allocator. It lives in the storage the
// port places (port::CurrentContext); all-zero is an empty context, so it
// needs no constructor. Only calling_context.cc writes its state.
#ifndef FFI_CORE_SRC_CONTEXT_CALLING_CONTEXT_H_
#define FFI_CORE_SRC_CONTEXT_CALLING_CONTEXT_H_

#include <ffi_core/config.h>
#include <ffi_core/port.h>
#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <type_traits>

namespace ffi_core {

class CallingContext {
 public:
  // The context of the caller.
  static CallingContext& Current() { return From(port::CurrentContext()); }
  static CallingContext& From(port::ContextStorage* storage) {
    return *reinterpret_cast<CallingContext*>(storage);
  }

  // ---- the error slot ----
  bool has_pending() const { return pending_ != nullptr; }
  // The pending error, borrowed (NULL if none).
  const TVMFFIObject* pending() const { return pending_; }
  // Makes `error` (whose reference the slot takes over; may be NULL) the
  // pending error and releases the one it replaces.
  void SetPending(TVMFFIObject* error);
  // Hands the pending error's reference to the caller (NULL if none).
  TVMFFIObject* TakePending();
  // Keeps the caller's pending error out of the way for one scope: whatever
  // is raised meanwhile is released at its end, and the saved error returns.
  class PendingGuard {
   public:
    PendingGuard();
    ~PendingGuard();
    PendingGuard(const PendingGuard&) = delete;
    PendingGuard& operator=(const PendingGuard&) = delete;

   private:
    CallingContext& context_;
    TVMFFIObject* saved_;
  };
  // Releases the pending error and every stream entry: the context ends.
  void Release();

  // ---- the env API (tvm/ffi/extra/c_env_api.h) ----
  // Records `stream` for the device (NULL forgets it); the previous one, or
  // NULL, goes to *previous when given. Fails only when the table is full.
  Status SetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                   TVMFFIStreamHandle* previous);
  TVMFFIStreamHandle GetStream(int32_t device_type, int32_t device_id) const;
  DLPackManagedTensorAllocator dlpack_allocator() const { return dlpack_allocator_; }
  void set_dlpack_allocator(DLPackManagedTensorAllocator allocator);

 private:
  struct StreamEntry {
    TVMFFIStreamHandle stream;  // NULL: the entry is free
    int32_t device_type;
    int32_t device_id;
  };

  TVMFFIObject* pending_;                          // one strong reference, or NULL
  DLPackManagedTensorAllocator dlpack_allocator_;  // NULL: the process-wide one
  StreamEntry streams_[FFI_CORE_STREAM_TABLE_CAPACITY];
};

static_assert(std::is_trivially_default_constructible_v<CallingContext> &&
                  std::is_trivially_destructible_v<CallingContext>,
              "a context is all-zero storage the port places");
static_assert(sizeof(CallingContext) <= sizeof(port::ContextStorage) &&
                  alignof(CallingContext) <= alignof(port::ContextStorage),
              "FFI_CORE_CONTEXT_WORDS (core/CMakeLists.txt) is too small for a context");

}  // namespace ffi_core

#endif  // FFI_CORE_SRC_CONTEXT_CALLING_CONTEXT_H_
