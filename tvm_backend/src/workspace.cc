// TVMBackendAllocWorkspace / TVMBackendFreeWorkspace: a stack of blocks in
// the workspace buffer, or blocks from AllocateBuffer (whatever allocator is
// installed) when no buffer is set. Every failure is a raised error and a
// NULL or non-zero return, which the generated kernel passes on.
#include <ffi_core/align.h>
#include <ffi_core/allocator.h>
#include <ffi_core/error.h>
#include <ffi_core/tvm_workspace.h>
#include <tvm/runtime/c_backend_api.h>

#include <cstdint>

#include "support/global_lock_guard.h"

#ifndef FFI_CORE_TVM_WORKSPACE_BYTES
#define FFI_CORE_TVM_WORKSPACE_BYTES 0
#endif

namespace {

using ffi_core::ErrorKind;
using ffi_core::RaiseError;

constexpr size_t kAlign = FFI_CORE_TVM_WORKSPACE_ALIGNMENT;
constexpr size_t kNone = SIZE_MAX;

// In front of every block's payload.
struct BlockHeader {
  size_t magic;
  size_t begin;  // buffer: offset where the block starts; allocator: bytes allocated
  size_t prev;   // buffer: header offset of the block below, or kNone
};
constexpr size_t kHeaderSize = ffi_core::AlignUp(sizeof(BlockHeader), kAlign);
constexpr size_t kLive = 0x57534c56u;       // a live buffer block
constexpr size_t kFreed = 0x57534644u;      // freed, still below the top
constexpr size_t kAllocated = 0x5753414cu;  // a live allocator block

alignas(kAlign) unsigned char g_static_buffer[FFI_CORE_TVM_WORKSPACE_BYTES > 0
                                                  ? FFI_CORE_TVM_WORKSPACE_BYTES
                                                  : 1];

struct Workspace {
  unsigned char* base = FFI_CORE_TVM_WORKSPACE_BYTES > 0 ? g_static_buffer : nullptr;
  size_t capacity = FFI_CORE_TVM_WORKSPACE_BYTES;
  size_t top = 0;       // first free byte of the buffer
  size_t last = kNone;  // header offset of the topmost block
  FFICoreTVMWorkspaceStats stats{FFI_CORE_TVM_WORKSPACE_BYTES, 0, 0, 0, 0};
};
Workspace g_ws;

BlockHeader* HeaderAt(size_t offset) { return reinterpret_cast<BlockHeader*>(g_ws.base + offset); }

void NoteAllocated(size_t bytes) {
  g_ws.stats.in_use += bytes;
  ++g_ws.stats.live_blocks;
  if (g_ws.stats.in_use > g_ws.stats.peak) g_ws.stats.peak = g_ws.stats.in_use;
}

// The refusals: cold, out of line, so that the allocation path's frame (under
// every kernel that asks for a workspace) holds no message.
[[gnu::cold, gnu::noinline]] void* Refuse(size_t nbytes, const char* why) {
  ++g_ws.stats.failed;
  static_cast<void>(
      RaiseError(ErrorKind::kMemoryError,
                 {"TVMBackendAllocWorkspace: cannot allocate ", nbytes, " bytes: ", why}));
  return nullptr;
}

[[gnu::cold, gnu::noinline]] void* RefuseExhausted(size_t nbytes) {
  char why[72];
  size_t len = 0;
  why[0] = '\0';
  for (const ffi_core::MessagePart& part :
       {ffi_core::MessagePart("workspace exhausted ("), ffi_core::MessagePart(g_ws.top),
        ffi_core::MessagePart(" of "), ffi_core::MessagePart(g_ws.capacity),
        ffi_core::MessagePart(" bytes in use)")}) {
    part.AppendTo(why, sizeof(why), &len);
  }
  return Refuse(nbytes, why);
}

void* AllocateFromBuffer(size_t nbytes) {
  const uintptr_t base = reinterpret_cast<uintptr_t>(g_ws.base);
  const uintptr_t payload = ffi_core::AlignUp(base + g_ws.top + kHeaderSize, kAlign);
  const size_t payload_offset = static_cast<size_t>(payload - base);
  if (payload_offset > g_ws.capacity || nbytes > g_ws.capacity - payload_offset) {
    return RefuseExhausted(nbytes);
  }
  const size_t header_offset = payload_offset - kHeaderSize;
  *HeaderAt(header_offset) = BlockHeader{kLive, g_ws.top, g_ws.last};
  const size_t end = payload_offset + nbytes;
  NoteAllocated(end - g_ws.top);
  g_ws.last = header_offset;
  g_ws.top = end;
  return reinterpret_cast<void*>(payload);
}

void* AllocateFromAllocator(size_t nbytes) {
  if (nbytes > SIZE_MAX - kHeaderSize) return Refuse(nbytes, "size out of range");
  const size_t total = kHeaderSize + nbytes;
  void* block = ffi_core::AllocateBuffer(total, kAlign);
  if (block == nullptr) {
    return Refuse(nbytes,
                  "no workspace buffer (FFICoreTVMSetWorkspace) and the allocator gave none");
  }
  *static_cast<BlockHeader*>(block) = BlockHeader{kAllocated, total, kNone};
  NoteAllocated(total);
  return static_cast<unsigned char*>(block) + kHeaderSize;
}

int FreeToBuffer(unsigned char* p) {
  const size_t payload_offset = static_cast<size_t>(p - g_ws.base);
  BlockHeader* h = payload_offset >= kHeaderSize ? HeaderAt(payload_offset - kHeaderSize) : nullptr;
  if (h == nullptr || h->magic != kLive || (payload_offset & (kAlign - 1)) != 0) {
    static_cast<void>(
        RaiseError(ErrorKind::kValueError,
                   {"TVMBackendFreeWorkspace: not a live workspace block (freed twice?)"}));
    return -1;
  }
  h->magic = kFreed;
  --g_ws.stats.live_blocks;
  // Pop every freed block off the top; one freed out of order waits there.
  while (g_ws.last != kNone && HeaderAt(g_ws.last)->magic == kFreed) {
    BlockHeader* top = HeaderAt(g_ws.last);
    g_ws.stats.in_use -= g_ws.top - top->begin;
    g_ws.top = top->begin;
    g_ws.last = top->prev;
  }
  return 0;
}

}  // namespace

extern "C" {

void* TVMBackendAllocWorkspace(int /*device_type*/, int /*device_id*/, uint64_t nbytes,
                               int /*dtype_code_hint*/, int /*dtype_bits_hint*/) {
  ffi_core::detail::GlobalLockGuard lock;
  if (nbytes > SIZE_MAX) return Refuse(SIZE_MAX, "size out of range");
  const size_t size = static_cast<size_t>(nbytes);
  return g_ws.base != nullptr ? AllocateFromBuffer(size) : AllocateFromAllocator(size);
}

int TVMBackendFreeWorkspace(int /*device_type*/, int /*device_id*/, void* ptr) {
  if (ptr == nullptr) {
    static_cast<void>(
        RaiseError(ErrorKind::kValueError, {"TVMBackendFreeWorkspace: NULL pointer"}));
    return -1;
  }
  ffi_core::detail::GlobalLockGuard lock;
  unsigned char* p = static_cast<unsigned char*>(ptr);
  if (g_ws.base != nullptr && p >= g_ws.base && p < g_ws.base + g_ws.capacity) {
    return FreeToBuffer(p);
  }
  BlockHeader* h = reinterpret_cast<BlockHeader*>(p - kHeaderSize);
  if (g_ws.stats.live_blocks == 0 || h->magic != kAllocated) {
    static_cast<void>(
        RaiseError(ErrorKind::kValueError,
                   {"TVMBackendFreeWorkspace: not a live workspace block (freed twice?)"}));
    return -1;
  }
  const BlockHeader block = *h;
  h->magic = 0;
  g_ws.stats.in_use -= block.begin;
  --g_ws.stats.live_blocks;
  ffi_core::FreeBuffer(h);
  return 0;
}

int FFICoreTVMSetWorkspace(void* buffer, size_t size) {
  ffi_core::detail::GlobalLockGuard lock;
  if (g_ws.stats.live_blocks != 0) {
    static_cast<void>(RaiseError(
        ErrorKind::kValueError,
        {"FFICoreTVMSetWorkspace: ", g_ws.stats.live_blocks, " workspace blocks still live"}));
    return -1;
  }
  g_ws.base = static_cast<unsigned char*>(buffer);
  g_ws.capacity = buffer != nullptr ? size : 0;
  if (buffer == nullptr && FFI_CORE_TVM_WORKSPACE_BYTES > 0) {
    g_ws.base = g_static_buffer;
    g_ws.capacity = FFI_CORE_TVM_WORKSPACE_BYTES;
  }
  g_ws.top = 0;
  g_ws.last = kNone;
  g_ws.stats.capacity = g_ws.capacity;
  return 0;
}

void FFICoreTVMGetWorkspaceStats(FFICoreTVMWorkspaceStats* out) {
  if (out == nullptr) return;
  ffi_core::detail::GlobalLockGuard lock;
  *out = g_ws.stats;
}

void FFICoreTVMResetWorkspaceStats(void) {
  ffi_core::detail::GlobalLockGuard lock;
  g_ws.stats.peak = g_ws.stats.in_use;
  g_ws.stats.failed = 0;
}

}  // extern "C"
