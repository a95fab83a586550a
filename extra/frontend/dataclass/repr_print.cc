// "ffi.ReprPrint": the text upstream's Python package shows for a value.
// Arrays print as tuples, Lists as lists, Maps and Dicts as dicts, strings
// as Python literals that ast.literal_eval reads back, reflected objects as
// `type_key(field=value, ...)` without their ReprOff fields, enum members as
// `type_key.name`. A shared object prints in full wherever it appears; one
// met again inside itself prints as "...". TVM_FFI_REPR_WITH_ADDR=1 adds
// "@0x..." addresses to objects and containers, as upstream does.
#include <ffi_core/allocator.h>
#include <ffi_core/container/map.h>
#include <ffi_core/dtype.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/string.h>

#include <cstdlib>
#include <cstring>

#include "dataclass/enum_state.h"
#include "dataclass/object_fields.h"
#include "dataclass_globals.h"
#include "global_table.h"
#include "serialization/big_int_text.h"
#include "text_builder.h"

namespace ffi_core {
namespace frontend {
namespace {

const TVMFFIObject* g_kwargs = nullptr;

const char* DeviceTypeName(int32_t type) {
  switch (type) {
    case kDLCPU:
      return "cpu";
    case kDLCUDA:
      return "cuda";
    case kDLCUDAHost:
      return "cuda_host";
    case kDLOpenCL:
      return "opencl";
    case kDLVulkan:
      return "vulkan";
    case kDLMetal:
      return "metal";
    case kDLVPI:
      return "vpi";
    case kDLROCM:
      return "rocm";
    case kDLROCMHost:
      return "rocm_host";
    case kDLExtDev:
      return "ext_dev";
    case kDLCUDAManaged:
      return "cuda_managed";
    case kDLOneAPI:
      return "oneapi";
    case kDLWebGPU:
      return "webgpu";
    case kDLHexagon:
      return "hexagon";
    case kDLMAIA:
      return "maia";
    case kDLTrn:
      return "trn";
    default:
      return "unknown";
  }
}

Status AppendDevice(TextBuilder& out, DLDevice d) {
  FFI_CORE_RETURN_IF_ERROR(out.Append(DeviceTypeName(static_cast<int32_t>(d.device_type))));
  FFI_CORE_RETURN_IF_ERROR(out.Append(":"));
  return out.AppendInt(d.device_id);
}

Status AppendDataType(TextBuilder& out, DLDataType t) {
  char name[kDataTypeNameCapacity];
  size_t size = 0;
  FFI_CORE_RETURN_IF_ERROR(DataTypeToString(t, name, &size));
  return out.Append(name, size);
}

Status AppendHexByte(TextBuilder& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  char buf[12];
  size_t n = std::strlen(prefix);
  std::memcpy(buf, prefix, n);
  for (int i = digits - 1; i >= 0; --i) buf[n++] = kHex[(value >> (4 * i)) & 0xF];
  return out.Append(buf, n);
}

// A Python string literal: escapes for quotes, backslashes and control
// characters, \u / \U for well-formed UTF-8 sequences, \x for stray bytes.
Status AppendStringLiteral(TextBuilder& out, TVMFFIByteArray s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data);
  FFI_CORE_RETURN_IF_ERROR(out.Append("\""));
  size_t i = 0;
  auto continuation = [&](size_t k) { return i + k < s.size && (p[i + k] & 0xC0) == 0x80; };
  while (i < s.size) {
    const unsigned c = p[i];
    if (c == '\n' || c == '\t' || c == '\r' || c == '\\' || c == '"') {
      const char esc[2] = {'\\', c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : char(c)};
      FFI_CORE_RETURN_IF_ERROR(out.Append(esc, 2));
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      FFI_CORE_RETURN_IF_ERROR(AppendHexByte(out, "\\x", c, 2));
      ++i;
    } else if (c < 0x80) {
      FFI_CORE_RETURN_IF_ERROR(out.Append(s.data + i, 1));
      ++i;
    } else if ((c & 0xE0) == 0xC0 && continuation(1)) {
      FFI_CORE_RETURN_IF_ERROR(AppendHexByte(out, "\\u", ((c & 0x1F) << 6) | (p[i + 1] & 0x3F), 4));
      i += 2;
    } else if ((c & 0xF0) == 0xE0 && continuation(1) && continuation(2)) {
      const unsigned cp = ((c & 0x0F) << 12) | ((p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3F);
      FFI_CORE_RETURN_IF_ERROR(AppendHexByte(out, "\\u", cp, 4));
      i += 3;
    } else if ((c & 0xF8) == 0xF0 && continuation(1) && continuation(2) && continuation(3)) {
      const unsigned cp = ((c & 0x07) << 18) | ((p[i + 1] & 0x3F) << 12) |
                          ((p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
      FFI_CORE_RETURN_IF_ERROR(AppendHexByte(out, "\\U", cp, 8));
      i += 4;
    } else {
      FFI_CORE_RETURN_IF_ERROR(AppendHexByte(out, "\\x", c, 2));
      ++i;
    }
  }
  return out.Append("\"");
}

// b"...": printable ASCII as is, everything else as \xNN.
Status AppendBytesLiteral(TextBuilder& out, TVMFFIByteArray b) {
  FFI_CORE_RETURN_IF_ERROR(out.Append("b\""));
  for (size_t i = 0; i < b.size; ++i) {
    const unsigned c = static_cast<unsigned char>(b.data[i]);
    if (c >= 32 && c < 127 && c != '"' && c != '\\') {
      FFI_CORE_RETURN_IF_ERROR(out.Append(b.data + i, 1));
    } else {
      FFI_CORE_RETURN_IF_ERROR(AppendHexByte(out, "\\x", c, 2));
    }
  }
  return out.Append("\"");
}

class ReprPrinter {
 public:
  ReprPrinter() {
    const char* env = std::getenv("TVM_FFI_REPR_WITH_ADDR");
    show_addr_ = env != nullptr && std::strcmp(env, "1") == 0;
  }

  Status Print(const AnyView& v, TextBuilder& out);

 private:
  Status PrintObject(const AnyView& v, TVMFFIObject* obj, TextBuilder& out);
  template <typename M>
  Status PrintPairs(const M& map, TextBuilder& out) {
    FFI_CORE_RETURN_IF_ERROR(out.Append("{"));
    bool first = true;
    for (const MapPair& p : map) {
      if (!first) FFI_CORE_RETURN_IF_ERROR(out.Append(", "));
      first = false;
      FFI_CORE_RETURN_IF_ERROR(Print(p.key, out));
      FFI_CORE_RETURN_IF_ERROR(out.Append(": "));
      FFI_CORE_RETURN_IF_ERROR(Print(p.value, out));
    }
    return out.Append("}");
  }
  Status PrintFields(TVMFFIObject* obj, const TVMFFITypeInfo* info, TextBuilder& out);
  Status PrintHook(TVMFFIObject* hook, TVMFFIObject* obj, TextBuilder& out);
  Status Address(const TVMFFIObject* obj, TextBuilder& out) {
    if (!show_addr_) return Status::Ok();
    FFI_CORE_RETURN_IF_ERROR(out.Append("@"));
    return out.AppendAddress(obj);
  }
  bool OnPath(const TVMFFIObject* obj) const {
    for (int32_t i = 0; i < depth_; ++i) {
      if (path_[i] == obj) return true;
    }
    return false;
  }

  // The objects being printed, outermost first: meeting one again is a cycle.
  const TVMFFIObject* path_[kMaxNestingDepth];
  int32_t depth_ = 0;
  bool show_addr_ = false;
};

Status ReprPrinter::Print(const AnyView& v, TextBuilder& out) {
  const TVMFFIAny& raw = v.raw();
  switch (raw.type_index) {
    case kTVMFFINone:
      return out.Append("None");
    case kTVMFFIBool:
      return out.Append(raw.v_int64 != 0 ? "True" : "False");
    case kTVMFFIInt:
      return out.AppendInt(raw.v_int64);
    case kTVMFFIFloat:
      return out.AppendFloat(raw.v_float64);
    case kTVMFFIDataType:
      return AppendDataType(out, raw.v_dtype);
    case kTVMFFIDevice:
      return AppendDevice(out, raw.v_device);
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      return AppendStringLiteral(out, detail::ByteSequenceView(raw));
    case kTVMFFISmallBytes:
    case kTVMFFIBytes:
      return AppendBytesLiteral(out, detail::ByteSequenceView(raw));
    default:
      break;
  }
  TVMFFIObject* obj = ObjectOf(v);
  if (obj == nullptr) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(raw.type_index);
    return info != nullptr ? out.Append(info->type_key) : out.Append("None");
  }
  if (OnPath(obj)) {
    FFI_CORE_RETURN_IF_ERROR(out.Append("..."));
    return Address(obj, out);
  }
  if (depth_ >= kMaxNestingDepth) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.ReprPrint: values nested deeper than ", kMaxNestingDepth});
  }
  path_[depth_++] = obj;
  Status s = PrintObject(v, obj, out);
  --depth_;
  return s;
}

Status ReprPrinter::PrintObject(const AnyView& v, TVMFFIObject* obj, TextBuilder& out) {
  const int32_t ti = obj->type_index;
  if (obj == MissingObject().raw().v_obj) return out.Append("<MISSING>");
  if (obj == g_kwargs) return out.Append("<KWARGS>");
  switch (ti) {
    case kTVMFFIBigInt:
      return AppendBigIntDecimal(out, TVMFFIBigIntGetContentByteArray(&v.raw()));
    case kTVMFFITensor: {
      const DLTensor* t = TVMFFITensorGetDLTensorPtr(obj);
      FFI_CORE_RETURN_IF_ERROR(AppendDataType(out, t->dtype));
      FFI_CORE_RETURN_IF_ERROR(out.Append("["));
      for (int32_t i = 0; i < t->ndim; ++i) {
        if (i > 0) FFI_CORE_RETURN_IF_ERROR(out.Append(", "));
        FFI_CORE_RETURN_IF_ERROR(out.AppendInt(t->shape[i]));
      }
      FFI_CORE_RETURN_IF_ERROR(out.Append("]@"));
      FFI_CORE_RETURN_IF_ERROR(AppendDevice(out, t->device));
      return Address(obj, out);
    }
    case kTVMFFIShape: {
      const TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(obj);
      FFI_CORE_RETURN_IF_ERROR(out.Append("Shape("));
      for (size_t i = 0; i < cell->size; ++i) {
        if (i > 0) FFI_CORE_RETURN_IF_ERROR(out.Append(", "));
        FFI_CORE_RETURN_IF_ERROR(out.AppendInt(cell->data[i]));
      }
      return out.Append(")");
    }
    default:
      break;
  }
  if (TVMFFIObject* hook = TypeAttrFunction("__ffi_repr__", ti)) {
    FFI_CORE_RETURN_IF_ERROR(PrintHook(hook, obj, out));
  } else if (ti == kTVMFFIArray || ti == kTVMFFIList) {
    const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(obj + 1);
    const auto* items = static_cast<const Any*>(cell->data);
    FFI_CORE_RETURN_IF_ERROR(out.Append(ti == kTVMFFIArray ? "(" : "["));
    for (int64_t i = 0; i < cell->size; ++i) {
      if (i > 0) FFI_CORE_RETURN_IF_ERROR(out.Append(", "));
      FFI_CORE_RETURN_IF_ERROR(Print(items[i], out));
    }
    if (ti == kTVMFFIArray && cell->size == 1) FFI_CORE_RETURN_IF_ERROR(out.Append(","));
    FFI_CORE_RETURN_IF_ERROR(out.Append(ti == kTVMFFIArray ? ")" : "]"));
  } else if (ti == kTVMFFIMap) {
    FFI_CORE_ASSIGN_OR_RETURN(Map map, v.As<Map>());
    FFI_CORE_RETURN_IF_ERROR(PrintPairs(map, out));
  } else if (ti == kTVMFFIDict) {
    FFI_CORE_ASSIGN_OR_RETURN(Dict dict, v.As<Dict>());
    FFI_CORE_RETURN_IF_ERROR(PrintPairs(dict, out));
  } else if (IsEnumMember(obj)) {
    FFI_CORE_RETURN_IF_ERROR(out.Append(TVMFFIGetTypeInfo(ti)->type_key));
    FFI_CORE_RETURN_IF_ERROR(out.Append("."));
    const AnyView name = EnumMemberName(obj);
    if (name.type_index() == kTVMFFISmallStr || name.type_index() == kTVMFFIStr) {
      FFI_CORE_RETURN_IF_ERROR(out.Append(detail::ByteSequenceView(name.raw())));
    }
    return Address(obj, out);
  } else {
    return PrintFields(obj, TVMFFIGetTypeInfo(ti), out);
  }
  const bool container =
      ti == kTVMFFIArray || ti == kTVMFFIList || ti == kTVMFFIMap || ti == kTVMFFIDict;
  return container ? Address(obj, out) : Status::Ok();
}

// type_key(name=value, ...), each name once (an ancestor's field wins), or
// the bare type key when no field is shown.
Status ReprPrinter::PrintFields(TVMFFIObject* obj, const TVMFFITypeInfo* info, TextBuilder& out) {
  if (info == nullptr) return out.Append("ffi.Object");
  FFI_CORE_RETURN_IF_ERROR(out.Append(info->type_key));
  FFI_CORE_RETURN_IF_ERROR(Address(obj, out));
  // The shown fields, each name once: an ancestor's field hides a
  // descendant's of the same name.
  constexpr int32_t kMaxFields = 256;
  const TVMFFIFieldInfo* shown[kMaxFields];
  int32_t n = 0;
  bool too_many = false;
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (f.flags & kTVMFFIFieldFlagBitMaskReprOff) return;
    for (int32_t i = 0; i < n; ++i) {
      if (shown[i]->name.size == f.name.size &&
          std::memcmp(shown[i]->name.data, f.name.data, f.name.size) == 0) {
        return;
      }
    }
    if (n == kMaxFields) {
      too_many = true;
      return;
    }
    shown[n++] = &f;
  });
  if (too_many) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.ReprPrint: ", KeyOf(info), " has more than ", kMaxFields, " fields"});
  }
  for (int32_t i = 0; i < n; ++i) {
    FFI_CORE_RETURN_IF_ERROR(out.Append(i == 0 ? "(" : ", "));
    FFI_CORE_RETURN_IF_ERROR(out.Append(shown[i]->name));
    FFI_CORE_RETURN_IF_ERROR(out.Append("="));
    FFI_CORE_ASSIGN_OR_RETURN(Any value, ReadField(obj, *shown[i]));
    FFI_CORE_RETURN_IF_ERROR(Print(value, out));
  }
  return n > 0 ? out.Append(")") : Status::Ok();
}

// A type's "__ffi_repr__"(self, repr_fn) hook; repr_fn prints nested values
// with this printer, so cycles through the hook are still caught.
Status ReprPrinter::PrintHook(TVMFFIObject* hook, TVMFFIObject* obj, TextBuilder& out) {
  FFI_CORE_ASSIGN_OR_RETURN(Function nested, Function::FromPacked([this](PackedArgs args, Any* rv) {
                              if (args.size() != 1) {
                                return detail::RaiseArityError("repr", 1, args.size());
                              }
                              TextBuilder text;
                              FFI_CORE_RETURN_IF_ERROR(Print(args[0], text));
                              FFI_CORE_ASSIGN_OR_RETURN(String s, text.ToString());
                              *rv = Any(s);
                              return Status::Ok();
                            }));
  TVMFFIAny self = NoneAny();
  self.type_index = obj->type_index;
  self.v_obj = obj;
  const Any nested_any(nested);
  TVMFFIAny call_args[2] = {self, nested_any.raw()};
  TVMFFIAny result = NoneAny();
  if (TVMFFIFunctionCall(hook, call_args, 2, &result) != 0) return StatusFromPendingError();
  const Any owned = Any::AdoptRaw(result);
  if (owned.type_index() != kTVMFFISmallStr && owned.type_index() != kTVMFFIStr) {
    return RaiseError(ErrorKind::kTypeError,
                      {"__ffi_repr__ of ", TVMFFIGetTypeInfo(obj->type_index)->type_key.data,
                       " returned a non-string"});
  }
  return out.Append(detail::ByteSequenceView(owned.raw()));
}

Status ReprPrint(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.ReprPrint", 1, args.size());
  ReprPrinter printer;
  TextBuilder text;
  FFI_CORE_RETURN_IF_ERROR(printer.Print(args[0], text));
  FFI_CORE_ASSIGN_OR_RETURN(String s, text.ToString());
  *rv = Any(s);
  return Status::Ok();
}

}  // namespace

Status RegisterReprPrint(const TVMFFIObject* kwargs) {
  g_kwargs = kwargs;
  static constexpr GlobalEntry kGlobals[] = {{"ffi.ReprPrint", &ReprPrint}};
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core
