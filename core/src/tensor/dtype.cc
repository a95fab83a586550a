#include <ffi_core/dtype.h>
#include <ffi_core/error.h>

#include <cstring>

namespace ffi_core {
namespace {

// Codes whose name carries the bit width ("float8_e4m3fn" does not).
struct CodeName {
  uint8_t code;
  const char* name;
  bool name_has_bits;
};
constexpr CodeName kCodes[] = {
    {kDLInt, "int", true},
    {kDLUInt, "uint", true},
    {kDLFloat, "float", true},
    {kDLBfloat, "bfloat", true},
    {kDLComplex, "complex", true},
    {kDLBool, "bool", true},
    {kDLFloat8_e3m4, "float8_e3m4", false},
    {kDLFloat8_e4m3, "float8_e4m3", false},
    {kDLFloat8_e4m3b11fnuz, "float8_e4m3b11fnuz", false},
    {kDLFloat8_e4m3fn, "float8_e4m3fn", false},
    {kDLFloat8_e4m3fnuz, "float8_e4m3fnuz", false},
    {kDLFloat8_e5m2, "float8_e5m2", false},
    {kDLFloat8_e5m2fnuz, "float8_e5m2fnuz", false},
    {kDLFloat8_e8m0fnu, "float8_e8m0fnu", false},
    {kDLFloat6_e2m3fn, "float6_e2m3fn", false},
    {kDLFloat6_e3m2fn, "float6_e3m2fn", false},
    {kDLFloat4_e2m1fn, "float4_e2m1fn", false},
};

// Short spellings accepted on input only.
struct Alias {
  const char* alias;
  const char* canonical;
};
constexpr Alias kAliases[] = {{"i", "int"},       {"u", "uint"},       {"f", "float"},
                              {"bf", "bfloat"},   {"fp8_", "float8_"}, {"fp6_", "float6_"},
                              {"fp4_", "float4_"}};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Parses decimal digits in [*p, end) into *out (at most `limit`).
bool ParseNumber(const char** p, const char* end, uint32_t limit, uint32_t* out) {
  const char* start = *p;
  uint64_t v = 0;
  while (*p < end && IsDigit(**p)) {
    v = v * 10 + static_cast<uint64_t>(**p - '0');
    if (v > limit) return false;
    ++*p;
  }
  *out = static_cast<uint32_t>(v);
  return *p != start;
}

bool StartsWith(const char* text, size_t size, const char* prefix) {
  const size_t n = std::strlen(prefix);
  return size >= n && std::memcmp(text, prefix, n) == 0;
}

Status Invalid(const char* text, size_t size, const char* why) {
  char shown[kDataTypeNameCapacity];
  const size_t n = size < sizeof(shown) - 1 ? size : sizeof(shown) - 1;
  if (n != 0) std::memcpy(shown, text, n);
  shown[n] = '\0';
  return RaiseError(ErrorKind::kValueError,
                    {"invalid dtype '", shown, size > n ? "...'" : "'", ": ", why});
}

}  // namespace

Status DataTypeFromString(const char* text, size_t size, DLDataType* out) {
  if (text == nullptr && size != 0)
    return RaiseError(ErrorKind::kValueError, {"dtype text is NULL"});
  if (size == 0 || (size == 4 && std::memcmp(text, "void", 4) == 0)) {
    *out = DLDataType{kDLOpaqueHandle, 0, 0};
    return Status::Ok();
  }
  if (size == 4 && std::memcmp(text, "bool", 4) == 0) {
    *out = DLDataType{kDLBool, 8, 1};
    return Status::Ok();
  }
  if (size == 6 && std::memcmp(text, "handle", 6) == 0) {
    *out = DLDataType{kDLOpaqueHandle, 64, 1};
    return Status::Ok();
  }
  // Rewrite a short prefix into the canonical one, in a local buffer.
  char normalized[2 * kDataTypeNameCapacity];
  for (const Alias& a : kAliases) {
    const size_t n = std::strlen(a.alias);
    const bool digit_follows = size > n && IsDigit(text[n]);
    const bool is_prefix_alias = a.alias[n - 1] == '_';
    if (StartsWith(text, size, a.alias) && (digit_follows || is_prefix_alias) &&
        !StartsWith(text, size, a.canonical)) {
      const size_t c = std::strlen(a.canonical);
      if (c + size - n >= sizeof(normalized)) return Invalid(text, size, "too long");
      std::memcpy(normalized, a.canonical, c);
      std::memcpy(normalized + c, text + n, size - n);
      text = normalized;
      size = c + size - n;
      break;
    }
  }
  // Longest matching code name wins ("float8_e4m3fn" over "float").
  const CodeName* best = nullptr;
  for (const CodeName& c : kCodes) {
    if (StartsWith(text, size, c.name) &&
        (best == nullptr || std::strlen(c.name) > std::strlen(best->name))) {
      best = &c;
    }
  }
  if (best == nullptr) return Invalid(text, size, "unknown type code");
  const char* p = text + std::strlen(best->name);
  const char* end = text + size;
  uint32_t bits = 0;
  if (best->code == kDLBool && (p == end || !IsDigit(*p))) {
    bits = 8;  // "boolx4": bool's width is 8 unless written
  } else if (best->name_has_bits) {
    if (!ParseNumber(&p, end, 255, &bits) || bits == 0) {
      return Invalid(text, size, "missing or bad bit width");
    }
  } else {
    bits = best->name[5] == '8' ? 8 : best->name[5] == '6' ? 6 : 4;
  }
  // float4_e2m1fn alone may put '_' before its lanes ("float4_e2m1fn_x2"),
  // as upstream accepts.
  if (best->code == kDLFloat4_e2m1fn && end - p >= 2 && p[0] == '_' && p[1] == 'x') ++p;
  uint32_t lanes = 1;
  // A scalable vector ("int32xvscalex4", the types written with their bit
  // width) keeps its lanes negated, as upstream does.
  const bool scalable =
      best->name_has_bits && StartsWith(p, static_cast<size_t>(end - p), "xvscale");
  if (scalable) p += 7;
  if (p < end) {
    if (*p != 'x') return Invalid(text, size, "unexpected characters after the bit width");
    ++p;
    // Plain lanes stop at 32767: the larger uint16_t values are scalable
    // vectors' negated lanes, and would print as one. A scalable vector of
    // one lane (-1) prints as a plain scalar, so it starts at two.
    if (!ParseNumber(&p, end, scalable ? 32768 : 32767, &lanes) || lanes < (scalable ? 2u : 1u)) {
      return Invalid(text, size,
                     scalable ? "vscale lanes must be an integer from 2 to 32768"
                              : "lanes must be a positive integer below 32768");
    }
    if (p != end) return Invalid(text, size, "unexpected characters after the lanes");
  } else if (scalable) {
    return Invalid(text, size, "missing lanes after 'xvscale'");
  }
  if (scalable) lanes = 65536 - lanes;  // -lanes as a uint16_t
  *out = DLDataType{best->code, static_cast<uint8_t>(bits), static_cast<uint16_t>(lanes)};
  return Status::Ok();
}

Status DataTypeToString(DLDataType dtype, char (&buf)[kDataTypeNameCapacity], size_t* size) {
  size_t len = 0;
  buf[0] = '\0';
  auto append = [&](const char* s) {
    const size_t n = std::strlen(s);
    std::memcpy(buf + len, s, n + 1);
    len += n;
  };
  auto append_number = [&](uint32_t v) {
    char digits[8];
    size_t n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n != 0) buf[len++] = digits[--n];
    buf[len] = '\0';
  };
  if (dtype.code == kDLBool && dtype.bits == 8 && dtype.lanes == 1) {
    append("bool");
  } else if (dtype.code == kDLOpaqueHandle) {
    // The void type (0 bits, 0 lanes) prints as the empty string.
    if (dtype.bits != 0 || dtype.lanes != 0) append("handle");
  } else {
    const CodeName* found = nullptr;
    for (const CodeName& c : kCodes) {
      if (c.code == dtype.code) found = &c;
    }
    if (found == nullptr) {
      return RaiseError(ErrorKind::kValueError,
                        {"DLDataType has unknown type code ", static_cast<int>(dtype.code)});
    }
    append(found->name);
    // bool's default width is left out ("boolx4"), as upstream prints it.
    if (found->name_has_bits && !(dtype.code == kDLBool && dtype.bits == 8)) {
      append_number(dtype.bits);
    }
    // Lanes read as an int16_t: below -1, a scalable vector ("xvscalex4").
    const int16_t lanes = static_cast<int16_t>(dtype.lanes);
    if (lanes > 1) {
      append("x");
      append_number(static_cast<uint32_t>(lanes));
    } else if (lanes < -1) {
      append("xvscalex");
      append_number(static_cast<uint32_t>(-lanes));
    }
  }
  *size = len;
  return Status::Ok();
}

}  // namespace ffi_core
