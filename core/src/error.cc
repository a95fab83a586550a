// Raising errors into the calling context's slot and reading them back.
// Raised errors live in one pool shared by every context: FFI_CORE_ERROR_POOL_SIZE
// complete Error objects with fixed-size kind and message buffers, so raising
// needs no heap. Raising claims a free one atomically; TVMFFIErrorMoveFromRaised
// hands it to the caller as an ordinary ref-counted object that goes back to the
// pool when its last reference is released, on whichever context that happens,
// so an error outlives the context that raised it.
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/port.h>

#include <cstring>

#include "calling_context.h"

namespace ffi_core {
namespace {

const char kMarker[] = FFI_CORE_TRUNCATION_MARKER;

// Appends [text, text+n) to a NUL-terminated buffer; false when cut short.
bool AppendBytes(char* buf, size_t cap, size_t* len, const char* text, size_t n) {
  const size_t room = cap - 1 - *len;
  const size_t take = n < room ? n : room;
  if (take != 0) std::memcpy(buf + *len, text, take);
  *len += take;
  buf[*len] = '\0';
  return take == n;
}

// Appends a NUL-terminated text in one pass (no strlen, then copy: raising
// is on the error path of every call, and messages are short).
bool AppendCStr(char* buf, size_t cap, size_t* len, const char* text) {
  char* out = buf + *len;
  char* const last = buf + cap - 1;
  bool whole = true;
  for (; *text != '\0'; ++text) {
    if (out == last) {
      whole = false;
      break;
    }
    *out++ = *text;
  }
  *out = '\0';
  *len = static_cast<size_t>(out - buf);
  return whole;
}

// Ends a cut-short text with the marker so truncation is always visible.
void MarkTruncated(char* buf, size_t cap, size_t* len) {
  const size_t marker_len = sizeof(kMarker) - 1;
  if (cap - 1 < marker_len) return;
  size_t at = *len;
  if (at > cap - 1 - marker_len) at = cap - 1 - marker_len;
  std::memcpy(buf + at, kMarker, marker_len + 1);
  *len = at + marker_len;
}

// Copies a byte array and its terminator; empty arrays may have NULL data.
void CopyBytes(char* dst, const TVMFFIByteArray& src) {
  if (src.size != 0) std::memcpy(dst, src.data, src.size);
  dst[src.size] = '\0';
}

void IgnoreBacktraceUpdate(TVMFFIObjectHandle, const TVMFFIByteArray*, int32_t) {
  // ffi-core keeps no backtraces (no room on an MCU); updates are dropped.
}

// One entry of the pool shared by every calling context. The flag, not the
// reference count, says whether the entry is taken: the count reaches zero
// before the deleter has finished reading the header.
struct PooledError {
  ErrorObj error;
  char kind[FFI_CORE_ERROR_KIND_CAPACITY];
  char message[FFI_CORE_ERROR_MESSAGE_CAPACITY];
  uint32_t taken;
};
PooledError g_pool[FFI_CORE_ERROR_POOL_SIZE];

// Runs on whichever context drops the last reference; releasing the flag is
// its last access to the entry.
void PooledErrorDeleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
    port::FlagRelease(&reinterpret_cast<PooledError*>(self)->taken);
  }
}

// Last resort when every pooled error is taken: a static error that is
// never freed (it holds its own ref).
constexpr char kExhaustedKind[] = "MemoryError";
constexpr char kExhaustedMessage[] = "error pool exhausted (every pooled error is held)";
ErrorObj g_exhausted = {{kRefCountBothOne, kTVMFFIError, 0, {nullptr}},
                        {{kExhaustedKind, sizeof(kExhaustedKind) - 1},
                         {kExhaustedMessage, sizeof(kExhaustedMessage) - 1},
                         {"", 0},
                         &IgnoreBacktraceUpdate,
                         nullptr,
                         nullptr}};

PooledError* ClaimFromPool() {
  for (PooledError& e : g_pool) {
    if (port::FlagTryClaim(&e.taken)) return &e;
  }
  return nullptr;
}

// The kind of a pooled error raised with a known kind: its kind points at
// the kind's static name, so the pointer alone says which (no text
// comparison). kOk for errors raised by name, and for other errors.
ErrorKind KnownKindOf(const TVMFFIObject* error) {
  if (error->deleter != &PooledErrorDeleter) return ErrorKind::kOk;
  const char* name = reinterpret_cast<const PooledError*>(error)->error.cell.kind.data;
  for (uint8_t i = 1; i <= static_cast<uint8_t>(ErrorKind::kInternalError); ++i) {
    if (ErrorKindName(static_cast<ErrorKind>(i)) == name) return static_cast<ErrorKind>(i);
  }
  return ErrorKind::kOk;
}

// Writes a message into buf (capacity cap, length *len); false when cut short.
using MessageWriter = bool (*)(const void* context, char* buf, size_t cap, size_t* len);

// Fills a pooled error; the writer builds the message straight into place.
// With no `kind` text the error is of kind `code`, named by its static name;
// with one, the text is copied.
// Not a template, so firmware links one copy of the slot logic.
void RaiseInto(ErrorKind code, const char* kind, MessageWriter write_message, const void* context) {
  CallingContext& ctx = CallingContext::Current();
  PooledError* e = ClaimFromPool();
  if (e == nullptr && ctx.has_pending()) {
    // Pool empty: free our pending error first (it is being replaced anyway).
    ctx.SetPending(nullptr);
    e = ClaimFromPool();
  }
  if (e == nullptr) {
    ObjectIncRef(&g_exhausted.header);
    ctx.SetPending(&g_exhausted.header);
    return;
  }
  InitObjectHeader(&e->error.header, kTVMFFIError, &PooledErrorDeleter);
  if (kind == nullptr) {
    // A known kind: its static name, no copy.
    kind = ErrorKindName(code);
    e->error.cell.kind = TVMFFIByteArray{kind, std::strlen(kind)};
  } else {
    size_t kind_len = 0;
    e->kind[0] = '\0';
    if (!AppendCStr(e->kind, sizeof(e->kind), &kind_len, kind)) {
      MarkTruncated(e->kind, sizeof(e->kind), &kind_len);
    }
    e->error.cell.kind = TVMFFIByteArray{e->kind, kind_len};
  }
  size_t msg_len = 0;
  e->message[0] = '\0';
  if (!write_message(context, e->message, sizeof(e->message), &msg_len)) {
    MarkTruncated(e->message, sizeof(e->message), &msg_len);
  }
  e->error.cell.message = TVMFFIByteArray{e->message, msg_len};
  e->error.cell.backtrace = TVMFFIByteArray{"", 0};
  e->error.cell.update_backtrace = &IgnoreBacktraceUpdate;
  e->error.cell.cause_chain = nullptr;
  e->error.cell.extra_context = nullptr;
  ctx.SetPending(&e->error.header);
}

// The C API's message: an array of C strings, NULL ones skipped.
struct CStrParts {
  const char* const* parts;
  size_t count;
};

bool WriteMessageParts(const void* context, char* buf, size_t cap, size_t* len) {
  for (const MessagePart& part : *static_cast<const std::initializer_list<MessagePart>*>(context)) {
    if (!part.AppendTo(buf, cap, len)) return false;
  }
  return true;
}

bool WriteCStrParts(const void* context, char* buf, size_t cap, size_t* len) {
  const CStrParts* p = static_cast<const CStrParts*>(context);
  for (size_t i = 0; i < p->count; ++i) {
    if (p->parts[i] != nullptr && !AppendCStr(buf, cap, len, p->parts[i])) return false;
  }
  return true;
}

// *v / 10, returning *v % 10, by shift and subtract: a 64-bit division
// would pull libgcc's __udivmoddi4 (about 750 bytes) into every 32-bit
// firmware. Slower, but only error messages print numbers.
unsigned DivMod10(unsigned long long* v) {
  unsigned long long rest = *v;
  unsigned long long quotient = 0;
  unsigned remainder = 0;
  // Constant shifts only: variable 64-bit shifts are library calls on ARMv6-M.
  for (int i = 0; i < 64; ++i) {
    remainder = (remainder << 1) | static_cast<unsigned>(rest >> 63);
    rest <<= 1;
    quotient <<= 1;
    if (remainder >= 10) {
      remainder -= 10;
      quotient |= 1u;
    }
  }
  *v = quotient;
  return remainder;
}

}  // namespace

bool MessagePart::AppendTo(char* buf, size_t cap, size_t* len) const {
  if (form_ == Form::kText) {
    return AppendCStr(buf, cap, len, text_ != nullptr ? text_ : "(null)");
  }
  char digits[24];
  size_t n = 0;
  // Two's complement: 0 - bits is the magnitude, also of the most negative value.
  const bool negative = form_ == Form::kSigned && static_cast<long long>(bits_) < 0;
  unsigned long long mag = negative ? 0ull - bits_ : bits_;
  do {
    digits[sizeof(digits) - 1 - n++] = static_cast<char>('0' + DivMod10(&mag));
  } while (mag != 0);
  if (negative) digits[sizeof(digits) - 1 - n++] = '-';
  return AppendBytes(buf, cap, len, digits + sizeof(digits) - n, n);
}

Status RaiseError(ErrorKind kind, std::initializer_list<MessagePart> message) {
  RaiseInto(kind, nullptr, &WriteMessageParts, &message);
  return Status(kind);
}

void RaiseErrorNamed(const char* kind, const char* const* parts, size_t num_parts) {
  const CStrParts context{parts, num_parts};
  // No name: a RuntimeError, by its static name; else the name's own text.
  RaiseInto(ErrorKind::kRuntimeError, kind, &WriteCStrParts, &context);
}

Status detail::FailureOrInternalError(Status status) {
  if (!status.ok()) return status;
  return RaiseError(ErrorKind::kInternalError,
                    {"an Expected was built from an OK Status without a value"});
}

bool HasPendingError() { return CallingContext::Current().has_pending(); }

Status StatusFromPendingError() {
  const TVMFFIObject* pending = CallingContext::Current().pending();
  if (pending == nullptr) {
    return RaiseError(ErrorKind::kRuntimeError, {"call failed without raising an error"});
  }
  if (pending->type_index != kTVMFFIError) return Status(ErrorKind::kRuntimeError);
  const ErrorKind known = KnownKindOf(pending);
  if (known != ErrorKind::kOk) return Status(known);
  // Raised by name, or another runtime's error: by its name.
  const TVMFFIByteArray kind = TVMFFIErrorGetCellPtr(const_cast<TVMFFIObject*>(pending))->kind;
  return Status(ErrorKindFromName(kind.data, kind.size));
}

Error Error::MoveFromRaised() {
  TVMFFIObject* pending = CallingContext::Current().TakePending();
  return Error(ObjectPtr<ErrorObj>::Adopt(reinterpret_cast<ErrorObj*>(pending)));
}

Expected<Error> Error::Create(const TVMFFIByteArray& kind, const TVMFFIByteArray& message) {
  // One block: the object, then kind and message, each NUL-terminated.
  const size_t extra = kind.size + 1 + message.size + 1;
  FFI_CORE_ASSIGN_OR_RETURN(ErrorObj * obj, NewObject<ErrorObj>(kTVMFFIError, extra));
  char* text = TrailingOf<char>(obj);
  CopyBytes(text, kind);
  char* msg = text + kind.size + 1;
  CopyBytes(msg, message);
  obj->cell.kind = TVMFFIByteArray{text, kind.size};
  obj->cell.message = TVMFFIByteArray{msg, message.size};
  obj->cell.backtrace = TVMFFIByteArray{"", 0};
  obj->cell.update_backtrace = &IgnoreBacktraceUpdate;
  obj->cell.cause_chain = nullptr;
  obj->cell.extra_context = nullptr;
  return Error(ObjectPtr<ErrorObj>::Adopt(obj));
}

ErrorKind Error::kind_code() const {
  const TVMFFIByteArray k = kind();
  return ErrorKindFromName(k.data, k.size);
}

}  // namespace ffi_core
