// The calling context's state (calling_context.h): every write to a pending
// error, a stream entry or the context's tensor allocator happens here.
#include "context/calling_context.h"

#include <ffi_core/error.h>
#include <ffi_core/object.h>

#include "support/fixed_table.h"

namespace ffi_core {

void CallingContext::SetPending(TVMFFIObject* error) {
  TVMFFIObject* old = pending_;
  pending_ = error;
  if (old != nullptr) ObjectDecRef(old);
}

CallingContext::PendingGuard::PendingGuard()
    : context_(Current()), saved_(context_.TakePending()) {}

CallingContext::PendingGuard::~PendingGuard() { context_.SetPending(saved_); }

TVMFFIObject* CallingContext::TakePending() {
  TVMFFIObject* error = pending_;
  pending_ = nullptr;
  return error;
}

void CallingContext::Release() {
  SetPending(nullptr);
  dlpack_allocator_ = nullptr;
  for (StreamEntry& e : streams_) e = StreamEntry{};
}

namespace {

// The device's entry, else a free one (whose stream is NULL), else NULL.
template <typename Table>
auto* FindStreamOrFree(Table& streams, int32_t device_type, int32_t device_id) {
  return detail::FindOrFreeSlot(
      streams,
      [&](const auto& s) { return s.device_type == device_type && s.device_id == device_id; },
      [](const auto& s) { return s.stream == nullptr; });
}

}  // namespace

Status CallingContext::SetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                                 TVMFFIStreamHandle* previous) {
  StreamEntry* e = FindStreamOrFree(streams_, device_type, device_id);
  const bool found = e != nullptr && e->stream != nullptr;
  if (previous != nullptr) *previous = found ? e->stream : nullptr;
  if (!found && stream == nullptr) return Status::Ok();  // nothing to forget
  if (e == nullptr) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"TVMFFIEnvSetStream: stream table full (FFI_CORE_STREAM_TABLE_CAPACITY=",
                       FFI_CORE_STREAM_TABLE_CAPACITY, ")"});
  }
  *e = StreamEntry{stream, device_type, device_id};  // a NULL stream frees the entry
  return Status::Ok();
}

TVMFFIStreamHandle CallingContext::GetStream(int32_t device_type, int32_t device_id) const {
  const StreamEntry* e = FindStreamOrFree(streams_, device_type, device_id);
  return e != nullptr ? e->stream : nullptr;
}

void CallingContext::set_dlpack_allocator(DLPackManagedTensorAllocator allocator) {
  dlpack_allocator_ = allocator;
}

namespace port {
void ReleaseContext(ContextStorage* context) { CallingContext::From(context).Release(); }
}  // namespace port

}  // namespace ffi_core
