#include <ffi_core/object.h>
#include <ffi_core/port.h>
#include <ffi_core/string.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "string/small_bytes.h"

namespace ffi_core {
namespace detail {

namespace {

[[gnu::cold, gnu::noinline]] int RaiseNullData(size_t size) {
  static_cast<void>(RaiseError(ErrorKind::kValueError, {"NULL data with size ", size}));
  return -1;
}

// One unaligned word access: a single load or store where the target has
// them, bytes where it has not; the compiler knows which.
struct [[gnu::packed, gnu::may_alias]] UnalignedWord {
  uintptr_t value;
};
using AlignedWord [[gnu::may_alias]] = uintptr_t;
constexpr size_t kWord = sizeof(uintptr_t);
// Where a word access needs an aligned address, the payload is placed at
// its source's offset within a word (up to kSkew bytes later), so that
// both sides then move whole aligned words.
constexpr size_t kSkew = kWord < 8 && !port::kUnalignedAccess ? kWord - 1 : 0;

// The skewed copy: whole aligned words covering [from, from + size). The
// bytes around the source in its first and last words are read too (an
// aligned load cannot fault while one of its bytes is the source's) and
// land in the kSkew bytes reserved before the payload and after its end.
// `dst` is the word the payload starts in. Out of line, with registers to
// itself (ARMv6-M has eight); a template, so targets that never skew never
// compile it.
template <typename Word>
[[gnu::noinline]] void CopySkewed(Word* dst, const char* from, size_t size) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(from);
  const Word* src = reinterpret_cast<const Word*>(at & ~uintptr_t{sizeof(Word) - 1});
  const Word* const stop =
      reinterpret_cast<const Word*>((at + size + sizeof(Word) - 1) & ~uintptr_t{sizeof(Word) - 1});
  do {
    *dst++ = *src++;
    // Keeps the two pointers apart: folded into one index with an offset,
    // the loop takes more instructions a word on ARMv6-M.
    __asm__("" : "+r"(dst), "+r"(src));
  } while (src != stop);
}

// Copies size >= kWord bytes to the word-aligned `to`. Object payloads are short:
// inline, whole words beat the call to memcpy and its dispatch
// (newlib-nano's is a byte loop on ARMv6-M). Where words are 8 bytes
// (hosts) the C library's memcpy is vectorised and wins instead.
void CopyPayload(char* to, const char* from, size_t size) {
  if constexpr (kWord >= 8) {
    std::memcpy(to, from, size);
  } else {
    // Aligned words, then one overlapping word.
    const char* const last = from + (size - kWord);
    char* const to_last = to + (size - kWord);
    for (; from < last; from += kWord, to += kWord) {
      *reinterpret_cast<uintptr_t*>(to) = reinterpret_cast<const UnalignedWord*>(from)->value;
    }
    reinterpret_cast<UnalignedWord*>(to_last)->value =
        reinterpret_cast<const UnalignedWord*>(last)->value;
  }
}

}  // namespace

// Out of line: one copy for the C entry points and MakeByteSequence.
[[gnu::noinline]] int WriteBytesObject(const TVMFFIByteArray* bytes, TVMFFIAny* out,
                                       int32_t object_index) {
  static_assert(kSmallBytesCapacity + 1 >= kWord, "object payloads must fill a word");
  static_assert(TrailingOffset(sizeof(BytesObj), 1) % kWord == 0 && alignof(BytesObj) >= kWord,
                "the payload must start word-aligned");
  const char* data = bytes->data;
  const size_t size = bytes->size;
  if (data == nullptr) return RaiseNullData(size);
  // The NUL counted with the head: the size then saturates (and the
  // allocator refuses it) with a single overflow test.
  void* mem = AllocateBodyWithTrailing(sizeof(BytesObj) + 1 + 2 * kSkew, alignof(BytesObj), size, 1,
                                       object_index);
  if (mem == nullptr) return -1;
  // Default-initialised: every field is written below, and zeroing first
  // would be a call to memset at -Os.
  BytesObj* obj = new (mem) BytesObj;
  InitObjectHeader(&obj->header, object_index, DeleterOf<BytesObj>());
  AlignedWord* const words = TrailingOf<AlignedWord>(obj);
  char* const text = reinterpret_cast<char*>(words) + (reinterpret_cast<uintptr_t>(data) & kSkew);
  // Copied before *out is written: the bytes may lie inside it.
  if constexpr (kSkew != 0) {
    CopySkewed(words, data, size);
  } else {
    CopyPayload(text, data, size);
  }
  text[size] = '\0';
  obj->bytes = TVMFFIByteArray{text, size};
  // Fields written one by one: a zero-initialized TVMFFIAny becomes a call
  // to memset at -Os. The value's high half is zeroed as a 32-bit field (one
  // zero register), then the pointer covers its low half or all of it.
  out->type_index = object_index;
  out->zero_padding = 0;
  out->v_device.device_id = 0;
  out->v_obj = &obj->header;
  return 0;
}

// Out of line as well (the C entry points' rare case).
[[gnu::noinline]] int WriteSmallByteSequence(const char* data, size_t size, TVMFFIAny* out,
                                             int32_t small_index) {
  if (data == nullptr && size != 0) return RaiseNullData(size);
  WriteSmallBytes(data, size, small_index, out);
  return 0;
}

Expected<Any> MakeByteSequence(const char* data, size_t size, int32_t small_index,
                               int32_t object_index) {
  const TVMFFIByteArray bytes{data, size};
  TVMFFIAny raw;
  const int rc = size > kSmallBytesCapacity ? WriteBytesObject(&bytes, &raw, object_index)
                                            : WriteSmallByteSequence(data, size, &raw, small_index);
  if (rc != 0) {
    // The two ways it fails (reading the raised kind back would pull the
    // kind-name table into every firmware).
    return Status(data == nullptr ? ErrorKind::kValueError : ErrorKind::kMemoryError);
  }
  return Any::AdoptRaw(raw);
}

TVMFFIByteArray ByteSequenceView(const TVMFFIAny& value) {
  if (value.type_index == kTVMFFISmallStr || value.type_index == kTVMFFISmallBytes) {
    return TVMFFIByteArray{value.v_bytes, value.small_str_len};
  }
  return *TVMFFIBytesGetByteArrayPtr(value.v_obj);
}

}  // namespace detail
}  // namespace ffi_core
