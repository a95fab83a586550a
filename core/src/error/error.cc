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

#include "context/calling_context.h"
#include "error/error_kind_names.h"

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

// Copies a NUL-terminated text and its terminator to `out`, writing
// nothing at or past `end`. Returns where the terminator went, or NULL when
// the text was cut short (end[-1] then holds the terminator). One pass, no
// strlen then copy: raising is on the error path of every call, and
// messages are short. Each byte is stored before it is tested, so the loop
// is a load, a store and two tests.
char* CopyCStr(char* out, char* const end, const char* text) {
  const char* const from = text;
  char* const to = out;
  char c;
  if constexpr (sizeof(void*) >= 8) {
    // Hosts (8-byte words): unrolled, four bytes share the pointer updates
    // and the jump. On the MCUs unrolling only costs flash and makes the
    // loop slower, so the same loop stays rolled there.
#pragma GCC unroll 4
    do {
      c = *text++;
      *out++ = c;
    } while (c != '\0' && out != end);
  } else {
    do {
      c = *text++;
      *out++ = c;
    } while (c != '\0' && out != end);
  }
  // Found from the text's end, so the loop keeps only its two pointers.
  if (c == '\0') return to + (text - from) - 1;
  end[-1] = '\0';
  return nullptr;
}

// Appends a NUL-terminated text to a NUL-terminated buffer; false when cut short.
bool AppendCStr(char* buf, size_t cap, size_t* len, const char* text) {
  const char* const at = CopyCStr(buf + *len, buf + cap, text);
  *len = at != nullptr ? static_cast<size_t>(at - buf) : cap - 1;
  return at != nullptr;
}

// The length of a text that CopyCStr ended at `at` in a buffer of capacity
// cap; a cut-short one (at NULL) fills the buffer and ends with the marker,
// so truncation is always visible.
size_t EndText(char* buf, size_t cap, const char* at) {
  if (at != nullptr) return static_cast<size_t>(at - buf);
  const size_t marker_len = sizeof(kMarker) - 1;
  if (cap - 1 >= marker_len) std::memcpy(buf + cap - 1 - marker_len, kMarker, marker_len + 1);
  return cap - 1;
}

// 32-bit little-endian targets copy texts a word at a time (hosts keep the
// byte loop: their reads past a text's end would trip ASan).
constexpr bool kCopyWords = sizeof(void*) == 4 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// Masks setting the bytes before a text in its first word (a load, where
// shifting takes four instructions).
constexpr uint32_t kBytesBefore[4] = {0, 0xFFu, 0xFFFFu, 0xFFFFFFu};

// Copies a NUL-terminated text into a buffer of capacity cap and points
// *out at it, cut with the marker when it does not fit.
void CopyTextBytes(TVMFFIByteArray* out, char* buf, size_t cap, const char* text) {
  *out = TVMFFIByteArray{buf, EndText(buf, cap, CopyCStr(buf, buf + cap, text))};
}

// CopyTextBytes, in whole aligned words where they fit: the text goes to
// the word-aligned `buf` at the offset its own address has in a word, so
// every load and store is one aligned word (no unaligned stores on ARMv6-M,
// no shifting). Reading the rest of the word past the terminator is safe:
// an aligned load cannot fault while one of its bytes is the text's. When a
// word would reach past the last whole word of buf, the bytewise copy
// starts again from buf, so capacities are exactly as for it. Inline: the
// call would cost a raise more than the copy of a short text saves.
[[gnu::always_inline]] inline void CopyText(TVMFFIByteArray* out, char* buf, size_t cap,
                                            const char* text) {
  if constexpr (kCopyWords) {
    // One aligned word (memcpy: the text's bytes may be of any type).
    const auto load_word = [](const uint32_t* p) {
      uint32_t w;
      std::memcpy(&w, __builtin_assume_aligned(p, 4), sizeof(w));
      return w;
    };
    const size_t words = cap & ~size_t{3};
    const uintptr_t lag = reinterpret_cast<uintptr_t>(text) & 3u;
    const uint32_t* from =
        reinterpret_cast<const uint32_t*>(reinterpret_cast<uintptr_t>(text) - lag);
    char* to = buf;
    // The bytes before the text read as non-zero: they do not end it.
    uint32_t word = load_word(from) | kBytesBefore[lag];
    do {
      std::memcpy(__builtin_assume_aligned(to, 4), &word, sizeof(word));
      // Non-zero when a byte is zero. Then the first zero byte (the lowest:
      // little-endian) is found by tests, not from this mask: keeping the
      // mask for after the loop would cost ARMv6-M a register it lacks.
      if (((word - 0x01010101u) & ~word & 0x80808080u) != 0) {
        if ((word & 0xFFu) != 0) {
          if ((word & 0xFF00u) == 0) {
            to += 1;
          } else {
            to += (word & 0xFF0000u) == 0 ? 2 : 3;
          }
        }
        *out = TVMFFIByteArray{buf + lag, static_cast<size_t>(to - (buf + lag))};
        return;
      }
      to += sizeof(word);
      // No zero byte: the text goes on into the next word.
      word = load_word(++from);
    } while (to != buf + words);
    // The text, found again from where the loop stopped: keeping it would
    // cost ARMv6-M a register in the loop.
    text = reinterpret_cast<const char*>(from) - words + lag;
  }
  CopyTextBytes(out, buf, cap, text);
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
// before the deleter has finished reading the header. The texts are
// word-aligned for CopyText.
struct PooledError {
  ErrorObj error;
  alignas(4) char kind[FFI_CORE_ERROR_KIND_CAPACITY];
  alignas(4) char message[FFI_CORE_ERROR_MESSAGE_CAPACITY];
  uint32_t taken;
};
static_assert(FFI_CORE_ERROR_KIND_CAPACITY >= 4 && FFI_CORE_ERROR_MESSAGE_CAPACITY >= 4,
              "an error's kind and message buffers hold at least one word");
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
  PooledError* e = g_pool;
  do {
    if (port::FlagTryClaim(&e->taken)) return e;
  } while (++e != g_pool + FFI_CORE_ERROR_POOL_SIZE);
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

// Claims a pooled error and gives it its header and every cell field but
// the kind and the message. NULL when every pooled error is held: the
// static exhausted error is then pending. Raising then writes the kind and
// the message and makes the error pending.
PooledError* ClaimError(CallingContext& ctx) {
  PooledError* e;
  while ((e = ClaimFromPool()) == nullptr) {
    if (!ctx.has_pending()) {
      ObjectIncRef(&g_exhausted.header);
      ctx.SetPending(&g_exhausted.header);
      return nullptr;
    }
    // Pool empty: free our pending error first (it is being replaced anyway).
    ctx.SetPending(nullptr);
  }
  if (e->error.header.deleter != nullptr) {
    // Claimed before: only the counts changed (ffi-core writes the other
    // header and cell fields of a pooled error nowhere else).
    e->error.header.combined_ref_count = kRefCountBothOne;
    return e;
  }
  InitObjectHeader(&e->error.header, kTVMFFIError, &PooledErrorDeleter);
  e->error.cell.backtrace = TVMFFIByteArray{"", 0};
  e->error.cell.update_backtrace = &IgnoreBacktraceUpdate;
  e->error.cell.cause_chain = nullptr;
  e->error.cell.extra_context = nullptr;
  return e;
}

// The text a named raise copies for its kind: with no name, RuntimeError's.
const char* NamedKind(const char* kind) {
  return kind != nullptr ? kind : ErrorKindName(ErrorKind::kRuntimeError);
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
  CallingContext& ctx = CallingContext::Current();
  PooledError* e = ClaimError(ctx);
  if (e == nullptr) return Status(kind);
  // A known kind: its static name, no copy.
  e->error.cell.kind = ErrorKindNameBytes(kind);
  size_t len = 0;
  e->message[0] = '\0';
  bool whole = true;
  for (const MessagePart& part : message) {
    whole = part.AppendTo(e->message, sizeof(e->message), &len);
    if (!whole) break;
  }
  e->error.cell.message = TVMFFIByteArray{
      e->message, EndText(e->message, sizeof(e->message), whole ? e->message + len : nullptr)};
  ctx.SetPending(&e->error.header);
  return Status(kind);
}

void RaiseErrorNamed(const char* kind, const char* message) {
  CallingContext& ctx = CallingContext::Current();
  PooledError* e = ClaimError(ctx);
  if (e == nullptr) return;
  CopyText(&e->error.cell.kind, e->kind, sizeof(e->kind), NamedKind(kind));
  CopyText(&e->error.cell.message, e->message, sizeof(e->message),
           message != nullptr ? message : "");
  ctx.SetPending(&e->error.header);
}

void RaiseErrorNamed(const char* kind, const char* const* parts, size_t num_parts) {
  CallingContext& ctx = CallingContext::Current();
  PooledError* e = ClaimError(ctx);
  if (e == nullptr) return;
  CopyText(&e->error.cell.kind, e->kind, sizeof(e->kind), NamedKind(kind));
  char* at = e->message;
  char* const end = e->message + sizeof(e->message);
  *at = '\0';
  // NULL parts are skipped.
  for (size_t i = 0; i < num_parts && at != nullptr; ++i) {
    if (parts[i] != nullptr) at = CopyCStr(at, end, parts[i]);
  }
  e->error.cell.message = TVMFFIByteArray{e->message, EndText(e->message, sizeof(e->message), at)};
  ctx.SetPending(&e->error.header);
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
