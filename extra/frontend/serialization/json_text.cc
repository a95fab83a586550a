#include "serialization/json_text.h"

#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "dataclass/object_fields.h"
#include "text_builder.h"

namespace ffi_core {
namespace frontend {
namespace {

Status AppendJsonString(TextBuilder& out, TVMFFIByteArray s) {
  FFI_CORE_RETURN_IF_ERROR(out.Append("\""));
  size_t run = 0;  // start of the bytes copied as they are
  for (size_t i = 0; i < s.size; ++i) {
    const auto c = static_cast<unsigned char>(s.data[i]);
    // Escaped as upstream's writer escapes (EscapeStringJSON): also '/' and DEL.
    if (c >= 0x20 && c != '"' && c != '\\' && c != '/' && c != 0x7f) continue;
    FFI_CORE_RETURN_IF_ERROR(out.Append(s.data + run, i - run));
    run = i + 1;
    char esc[8];
    switch (c) {
      case '"':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\\""));
        break;
      case '\\':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\\\"));
        break;
      case '/':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\/"));
        break;
      case '\b':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\b"));
        break;
      case '\f':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\f"));
        break;
      case '\n':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\n"));
        break;
      case '\r':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\r"));
        break;
      case '\t':
        FFI_CORE_RETURN_IF_ERROR(out.Append("\\t"));
        break;
      default:
        std::snprintf(esc, sizeof(esc), "\\u%04x", c);
        FFI_CORE_RETURN_IF_ERROR(out.Append(esc, 6));
    }
  }
  FFI_CORE_RETURN_IF_ERROR(out.Append(s.data + run, s.size - run));
  return out.Append("\"");
}

Status AppendJsonNumber(TextBuilder& out, double v) {
  if (std::isnan(v)) return out.Append("NaN");
  if (std::isinf(v)) return out.Append(v > 0 ? "Infinity" : "-Infinity");
  char buf[32];
  int n = std::snprintf(buf, sizeof(buf), "%.17g", v);
  // Keep it a float when read back: "1" would read as an integer.
  if (std::strpbrk(buf, ".eE") == nullptr) n += std::snprintf(buf + n, sizeof(buf) - n, ".0");
  return out.Append(buf, static_cast<size_t>(n));
}

// With an indent, each item goes on a line of its own, `spaces` in.
Status BreakLine(TextBuilder& out, int32_t indent, int32_t spaces) {
  if (indent == 0) return Status::Ok();
  FFI_CORE_RETURN_IF_ERROR(out.Append("\n"));
  for (int32_t i = 0; i < spaces; ++i) FFI_CORE_RETURN_IF_ERROR(out.Append(" "));
  return Status::Ok();
}

Status Write(TextBuilder& out, const AnyView& v, int32_t depth, int32_t indent) {
  if (depth > kMaxNestingDepth) {
    return RaiseError(ErrorKind::kValueError, {"JSON nested deeper than ", kMaxNestingDepth});
  }
  const TVMFFIAny& raw = v.raw();
  switch (raw.type_index) {
    case kTVMFFINone:
      return out.Append("null");
    case kTVMFFIBool:
      return out.Append(raw.v_int64 != 0 ? "true" : "false");
    case kTVMFFIInt:
      return out.AppendInt(raw.v_int64);
    case kTVMFFIFloat:
      return AppendJsonNumber(out, raw.v_float64);
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      return AppendJsonString(out, detail::ByteSequenceView(raw));
    case kTVMFFIArray: {
      FFI_CORE_ASSIGN_OR_RETURN(Array array, v.As<Array>());
      FFI_CORE_RETURN_IF_ERROR(out.Append("["));
      for (size_t i = 0; i < array.size(); ++i) {
        if (i > 0) FFI_CORE_RETURN_IF_ERROR(out.Append(","));
        FFI_CORE_RETURN_IF_ERROR(BreakLine(out, indent, (depth + 1) * indent));
        FFI_CORE_RETURN_IF_ERROR(Write(out, array.begin()[i], depth + 1, indent));
      }
      FFI_CORE_RETURN_IF_ERROR(BreakLine(out, indent, depth * indent));
      return out.Append("]");
    }
    case kTVMFFIMap: {
      FFI_CORE_ASSIGN_OR_RETURN(Map map, v.As<Map>());
      FFI_CORE_RETURN_IF_ERROR(out.Append("{"));
      bool first = true;
      for (const MapPair& p : map) {
        if (p.key.type_index() != kTVMFFISmallStr && p.key.type_index() != kTVMFFIStr) {
          return RaiseError(ErrorKind::kTypeError, {"JSON object keys must be strings"});
        }
        if (!first) FFI_CORE_RETURN_IF_ERROR(out.Append(","));
        first = false;
        FFI_CORE_RETURN_IF_ERROR(BreakLine(out, indent, (depth + 1) * indent));
        FFI_CORE_RETURN_IF_ERROR(AppendJsonString(out, detail::ByteSequenceView(p.key.raw())));
        FFI_CORE_RETURN_IF_ERROR(out.Append(indent != 0 ? ": " : ":"));
        FFI_CORE_RETURN_IF_ERROR(Write(out, p.value, depth + 1, indent));
      }
      FFI_CORE_RETURN_IF_ERROR(BreakLine(out, indent, depth * indent));
      return out.Append("}");
    }
    default: {
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(raw.type_index);
      return RaiseError(ErrorKind::kTypeError, {"a ", info != nullptr ? info->type_key.data : "?",
                                                " is not a JSON value"});
    }
  }
}

// Recursive descent over the text. Failures read as upstream's (Python's
// json module's wording: "Expecting value: line 1 column 6 (char 5)"), the
// position a byte offset.
class Parser {
 public:
  Parser(const char* text, size_t size) : p_(text), begin_(text), end_(text + size) {}

  Expected<Any> ParseDocument() {
    FFI_CORE_ASSIGN_OR_RETURN(Any v, ParseValue(0));
    SkipSpace();
    if (p_ != end_) return Fail("Extra data", p_);
    return v;
  }

 private:
  Status Fail(const char* what, const char* at) {
    int64_t line = 1;
    const char* line_start = begin_;
    for (const char* c = begin_; c != at; ++c) {
      if (*c == '\n') {
        ++line;
        line_start = c + 1;
      }
    }
    return RaiseError(ErrorKind::kValueError,
                      {what, ": line ", line, " column ", static_cast<int64_t>(at - line_start) + 1,
                       " (char ", static_cast<int64_t>(at - begin_), ")"});
  }
  void SkipSpace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool Consume(const char* word) {
    const size_t n = std::strlen(word);
    if (static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    return true;
  }

  Expected<Any> ParseValue(int32_t depth) {
    if (depth > kMaxNestingDepth) return Fail("Nested too deeply", p_);
    SkipSpace();
    if (p_ == end_) return Fail("Expecting value", p_);
    switch (*p_) {
      case '{':
        return ParseObject(depth);
      case '[':
        return ParseArray(depth);
      case '"': {
        FFI_CORE_ASSIGN_OR_RETURN(String s, ParseString());
        return Any(s);
      }
      default:
        break;
    }
    if (Consume("null")) return Any();
    if (Consume("true")) return Any(true);
    if (Consume("false")) return Any(false);
    if (Consume("NaN")) return Any(std::nan(""));
    if (Consume("Infinity")) return Any(HUGE_VAL);
    if (Consume("-Infinity")) return Any(-HUGE_VAL);
    return ParseNumber();
  }

  // The whole run of characters a number is made of must be one number
  // ("123.456.789" is no value), as upstream reads them.
  Expected<Any> ParseNumber() {
    const char* start = p_;
    const char* run_end = p_;
    while (run_end != end_ && *run_end != '\0' &&
           std::strchr("0123456789+-.eE", *run_end) != nullptr) {
      ++run_end;
    }
    if (p_ != end_ && *p_ == '-') ++p_;
    const char* digits = p_;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    if (p_ == digits) return Fail("Expecting value", start);
    bool is_float = false;
    if (p_ != end_ && *p_ == '.') {
      is_float = true;
      ++p_;
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      is_float = true;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      const char* exponent = p_;
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
      if (p_ == exponent) return Fail("Expecting value", start);
    }
    if (p_ != run_end) return Fail("Expecting value", start);
    char buf[64];
    const size_t n = static_cast<size_t>(p_ - start);
    if (n >= sizeof(buf)) return Fail("Number too long", start);
    std::memcpy(buf, start, n);
    buf[n] = '\0';
    if (!is_float) {
      // Exact while it fits in int64; a wider integer reads as a float.
      const bool negative = *start == '-';
      uint64_t magnitude = 0;
      bool fits = true;
      for (const char* d = digits; d != p_ && fits; ++d) {
        const auto digit = static_cast<uint64_t>(*d - '0');
        fits = magnitude <= (UINT64_MAX - digit) / 10;
        magnitude = magnitude * 10 + digit;
      }
      const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
      if (fits && magnitude <= limit) {
        return Any(negative ? static_cast<int64_t>(0 - magnitude)
                            : static_cast<int64_t>(magnitude));
      }
    }
    return Any(std::strtod(buf, nullptr));
  }

  Status AppendUtf8(TextBuilder& out, uint32_t cp) {
    char b[4];
    size_t n;
    if (cp < 0x80) {
      b[0] = static_cast<char>(cp);
      n = 1;
    } else if (cp < 0x800) {
      b[0] = static_cast<char>(0xC0 | (cp >> 6));
      b[1] = static_cast<char>(0x80 | (cp & 0x3F));
      n = 2;
    } else if (cp < 0x10000) {
      b[0] = static_cast<char>(0xE0 | (cp >> 12));
      b[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      b[2] = static_cast<char>(0x80 | (cp & 0x3F));
      n = 3;
    } else {
      b[0] = static_cast<char>(0xF0 | (cp >> 18));
      b[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      b[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      b[3] = static_cast<char>(0x80 | (cp & 0x3F));
      n = 4;
    }
    return out.Append(b, n);
  }

  // The four hex digits after a \u; a failure is reported at `at`.
  Expected<uint32_t> Hex4(const char* at) {
    if (end_ - p_ < 4) return Fail("Invalid \\uXXXX escape", at);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i, ++p_) {
      const char c = *p_;
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return Fail("Invalid \\uXXXX escape", at);
      v = v * 16 + static_cast<uint32_t>(d);
    }
    return v;
  }

  Expected<String> ParseString() {
    const char* start = p_++;  // the opening quote
    TextBuilder text;
    while (true) {
      const char* run = p_;
      while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) {
        ++p_;
      }
      FFI_CORE_RETURN_IF_ERROR(text.Append(run, static_cast<size_t>(p_ - run)));
      if (p_ == end_) return Fail("Unterminated string starting at", start);
      if (*p_ == '"') {
        ++p_;
        return text.ToString();
      }
      if (*p_ != '\\') return Fail("Invalid control character at", p_);
      if (++p_ == end_) return Fail("Unterminated string starting at", start);
      const char c = *p_++;
      const char* simple = c == '"'    ? "\""
                           : c == '\\' ? "\\"
                           : c == '/'  ? "/"
                           : c == 'b'  ? "\b"
                           : c == 'f'  ? "\f"
                           : c == 'n'  ? "\n"
                           : c == 'r'  ? "\r"
                           : c == 't'  ? "\t"
                                       : nullptr;
      if (simple != nullptr) {
        FFI_CORE_RETURN_IF_ERROR(text.Append(simple, 1));
        continue;
      }
      const char* u = p_ - 1;
      if (c != 'u') return Fail("Invalid \\escape", u);
      FFI_CORE_ASSIGN_OR_RETURN(uint32_t cp, Hex4(u));
      // A surrogate must be a high one followed by a low one.
      if (cp >= 0xD800 && cp < 0xE000) {
        constexpr const char* kPair = "Invalid surrogate pair of \\uXXXX escapes";
        if (cp >= 0xDC00 || end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return Fail(kPair, u);
        p_ += 2;
        FFI_CORE_ASSIGN_OR_RETURN(uint32_t low, Hex4(p_));
        if (low < 0xDC00 || low >= 0xE000) return Fail(kPair, u);
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      FFI_CORE_RETURN_IF_ERROR(AppendUtf8(text, cp));
    }
  }

  Expected<Any> ParseArray(int32_t depth) {
    ++p_;
    FFI_CORE_ASSIGN_OR_RETURN(List items, List::FromViews(nullptr, 0));
    SkipSpace();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
    } else {
      while (true) {
        FFI_CORE_ASSIGN_OR_RETURN(Any item, ParseValue(depth + 1));
        FFI_CORE_RETURN_IF_ERROR(items.Append(item));
        SkipSpace();
        if (p_ != end_ && *p_ == ',') {
          ++p_;
          continue;
        }
        if (p_ != end_ && *p_ == ']') {
          ++p_;
          break;
        }
        return Fail("Expecting ',' delimiter", p_);
      }
    }
    FFI_CORE_ASSIGN_OR_RETURN(
        Array array,
        Array::FromViews(reinterpret_cast<const AnyView*>(items.begin()), items.size()));
    return Any(array);
  }

  Expected<Any> ParseObject(int32_t depth) {
    ++p_;
    FFI_CORE_ASSIGN_OR_RETURN(List pairs, List::FromViews(nullptr, 0));
    SkipSpace();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
    } else {
      while (true) {
        SkipSpace();
        if (p_ == end_ || *p_ != '"') {
          return Fail("Expecting property name enclosed in double quotes", p_);
        }
        FFI_CORE_ASSIGN_OR_RETURN(String key, ParseString());
        SkipSpace();
        if (p_ == end_ || *p_ != ':') return Fail("Expecting ':' delimiter", p_);
        ++p_;
        FFI_CORE_ASSIGN_OR_RETURN(Any value, ParseValue(depth + 1));
        FFI_CORE_RETURN_IF_ERROR(pairs.Append(key));
        FFI_CORE_RETURN_IF_ERROR(pairs.Append(value));
        SkipSpace();
        if (p_ != end_ && *p_ == ',') {
          ++p_;
          continue;
        }
        if (p_ != end_ && *p_ == '}') {
          ++p_;
          break;
        }
        return Fail("Expecting ',' delimiter", p_);
      }
    }
    FFI_CORE_ASSIGN_OR_RETURN(
        Map map, Map::FromPairs(reinterpret_cast<const AnyView*>(pairs.begin()), pairs.size() / 2));
    return Any(map);
  }

  const char* p_;
  const char* begin_;
  const char* end_;
};

}  // namespace

Expected<String> JsonStringify(const AnyView& value, int32_t indent) {
  if (indent < 0)
    return RaiseError(ErrorKind::kValueError, {"JSON indent ", indent, " is negative"});
  TextBuilder out;
  FFI_CORE_RETURN_IF_ERROR(Write(out, value, 0, indent));
  return out.ToString();
}

Expected<Any> JsonParse(const char* text, size_t size) {
  return Parser(text, size).ParseDocument();
}

}  // namespace frontend
}  // namespace ffi_core
