// "ffi.ToJSONGraph", "ffi.FromJSONGraph" and their "...String" forms:
// upstream's JSON graph of a value, {"root_index": i, "nodes": [...],
// "metadata": ...}. Each node is {"type": type key, "data": ...}; equal
// values (objects: the same object) share one node; containers list their
// items' node indices; a reflected object's data maps field names to the
// value itself for int, bool, float and dtype fields, to a node index
// otherwise; bytes are base64; enum members are their index. Reading
// checks every index and shape and refuses malformed graphs with a
// ValueError or TypeError.
#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/container/shape.h>
#include <ffi_core/dtype.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/string.h>

#include <cstring>

#include "dataclass/enum_state.h"
#include "dataclass/object_fields.h"
#include "dataclass_globals.h"
#include "global_table.h"
#include "scratch.h"
#include "serialization/big_int_text.h"
#include "serialization/json_text.h"
#include "text_builder.h"

namespace ffi_core {
namespace frontend {
namespace {

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

Expected<String> Base64Encode(TVMFFIByteArray b) {
  TextBuilder out;
  const auto* p = reinterpret_cast<const unsigned char*>(b.data);
  for (size_t i = 0; i < b.size; i += 3) {
    const uint32_t n = (uint32_t{p[i]} << 16) | (i + 1 < b.size ? uint32_t{p[i + 1]} << 8 : 0) |
                       (i + 2 < b.size ? uint32_t{p[i + 2]} : 0);
    const char quad[4] = {kBase64[(n >> 18) & 63], kBase64[(n >> 12) & 63],
                          i + 1 < b.size ? kBase64[(n >> 6) & 63] : '=',
                          i + 2 < b.size ? kBase64[n & 63] : '='};
    FFI_CORE_RETURN_IF_ERROR(out.Append(quad, 4));
  }
  return out.ToString();
}

Expected<Bytes> Base64Decode(TVMFFIByteArray s) {
  if (s.size % 4 != 0) return RaiseError(ErrorKind::kValueError, {"invalid base64 length"});
  TextBuilder out;
  for (size_t i = 0; i < s.size; i += 4) {
    uint32_t n = 0;
    int pad = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = s.data[i + k];
      const char* at = c != '\0' ? std::strchr(kBase64, c) : nullptr;
      if (c == '=' && i + 4 == s.size && k >= 2) {
        ++pad;
        n <<= 6;
        continue;
      }
      if (at == nullptr || pad > 0) {
        return RaiseError(ErrorKind::kValueError, {"invalid base64 text"});
      }
      n = (n << 6) | static_cast<uint32_t>(at - kBase64);
    }
    const char bytes[3] = {static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                           static_cast<char>(n)};
    FFI_CORE_RETURN_IF_ERROR(out.Append(bytes, static_cast<size_t>(3 - pad)));
  }
  return Bytes::FromBytes(out.data(), out.size());
}

const char* TypeKeyOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info != nullptr ? info->type_key.data : "?";
}

// {"type": type_key, "data": data}; a None node has no data, as upstream's.
Expected<Any> MakeNode(const char* type_key, const AnyView& data, bool has_data) {
  FFI_CORE_ASSIGN_OR_RETURN(String type_name, String::FromCStr("type"));
  FFI_CORE_ASSIGN_OR_RETURN(String data_name, String::FromCStr("data"));
  FFI_CORE_ASSIGN_OR_RETURN(String key, String::FromCStr(type_key));
  const AnyView pairs[4] = {type_name, key, data_name, data};
  FFI_CORE_ASSIGN_OR_RETURN(Map node, Map::FromPairs(pairs, has_data ? 2 : 1));
  return Any(node);
}

class GraphWriter {
 public:
  Expected<Any> Write(const AnyView& root, const AnyView& metadata);

 private:
  Expected<int64_t> NodeOf(const AnyView& v);
  Expected<Any> DataOf(const AnyView& v, TVMFFIObject* obj);
  Expected<Any> ObjectData(const AnyView& v, TVMFFIObject* obj);
  template <typename Items>
  Expected<Any> IndicesOf(const Items& items);

  Dict index_;  // value -> node index, values compared as map keys are
  List nodes_;
  const TVMFFIObject* path_[kMaxNestingDepth];
  int32_t depth_ = 0;
};

Expected<Any> GraphWriter::Write(const AnyView& root, const AnyView& metadata) {
  FFI_CORE_ASSIGN_OR_RETURN(index_, Dict::FromPairs(nullptr, 0));
  FFI_CORE_ASSIGN_OR_RETURN(nodes_, List::FromViews(nullptr, 0));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t root_index, NodeOf(root));
  FFI_CORE_ASSIGN_OR_RETURN(
      Array nodes,
      Array::FromViews(reinterpret_cast<const AnyView*>(nodes_.begin()), nodes_.size()));
  FFI_CORE_ASSIGN_OR_RETURN(String root_name, String::FromCStr("root_index"));
  FFI_CORE_ASSIGN_OR_RETURN(String nodes_name, String::FromCStr("nodes"));
  FFI_CORE_ASSIGN_OR_RETURN(String metadata_name, String::FromCStr("metadata"));
  const AnyView pairs[6] = {root_name, root_index, nodes_name, nodes, metadata_name, metadata};
  FFI_CORE_ASSIGN_OR_RETURN(Map graph, Map::FromPairs(pairs, metadata.is_none() ? 2 : 3));
  return Any(graph);
}

Expected<int64_t> GraphWriter::NodeOf(const AnyView& v) {
  if (const MapPair* p = index_.Find(v)) return p->value.raw().v_int64;
  TVMFFIObject* obj = ObjectOf(v);
  if (obj != nullptr) {
    for (int32_t i = 0; i < depth_; ++i) {
      if (path_[i] == obj) {
        return RaiseError(ErrorKind::kValueError, {"Cycle detected during serialization: a ",
                                                   TypeKeyOf(obj->type_index), " contains itself"});
      }
    }
    if (depth_ >= kMaxNestingDepth) {
      return RaiseError(ErrorKind::kValueError,
                        {"ffi.ToJSONGraph: values nested deeper than ", kMaxNestingDepth});
    }
    path_[depth_++] = obj;
  }
  Expected<Any> data = DataOf(v, obj);
  if (obj != nullptr) --depth_;
  if (!data.ok()) return data.status();
  const int32_t ti = v.type_index();
  const char* type_key = ti == kTVMFFISmallStr     ? "ffi.String"
                         : ti == kTVMFFISmallBytes ? "ffi.Bytes"
                                                   : TypeKeyOf(ti);
  FFI_CORE_ASSIGN_OR_RETURN(Any node, MakeNode(type_key, *data, ti != kTVMFFINone));
  const auto index = static_cast<int64_t>(nodes_.size());
  FFI_CORE_RETURN_IF_ERROR(nodes_.Append(node));
  FFI_CORE_RETURN_IF_ERROR(index_.Set(v, index));
  return index;
}

template <typename Items>
Expected<Any> GraphWriter::IndicesOf(const Items& items) {
  FFI_CORE_ASSIGN_OR_RETURN(List indices, List::FromViews(nullptr, 0));
  for (const Any& item : items) {
    FFI_CORE_ASSIGN_OR_RETURN(int64_t i, NodeOf(item));
    FFI_CORE_RETURN_IF_ERROR(indices.Append(i));
  }
  FFI_CORE_ASSIGN_OR_RETURN(
      Array array,
      Array::FromViews(reinterpret_cast<const AnyView*>(indices.begin()), indices.size()));
  return Any(array);
}

Expected<Any> GraphWriter::DataOf(const AnyView& v, TVMFFIObject* obj) {
  const TVMFFIAny& raw = v.raw();
  switch (raw.type_index) {
    case kTVMFFINone:
      return Any();
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
      return Any::FromView(v);
    case kTVMFFIDataType: {
      char name[kDataTypeNameCapacity];
      size_t size = 0;
      FFI_CORE_RETURN_IF_ERROR(DataTypeToString(raw.v_dtype, name, &size));
      FFI_CORE_ASSIGN_OR_RETURN(String s, String::FromBytes(name, size));
      return Any(s);
    }
    case kTVMFFIDevice: {
      const AnyView pair[2] = {static_cast<int64_t>(raw.v_device.device_type),
                               static_cast<int64_t>(raw.v_device.device_id)};
      FFI_CORE_ASSIGN_OR_RETURN(Array a, Array::FromViews(pair, 2));
      return Any(a);
    }
    case kTVMFFISmallStr:
    case kTVMFFIStr: {
      const TVMFFIByteArray s = detail::ByteSequenceView(raw);
      FFI_CORE_ASSIGN_OR_RETURN(String copy, String::FromBytes(s.data, s.size));
      return Any(copy);
    }
    case kTVMFFISmallBytes:
    case kTVMFFIBytes: {
      FFI_CORE_ASSIGN_OR_RETURN(String text, Base64Encode(detail::ByteSequenceView(raw)));
      return Any(text);
    }
    default:
      break;
  }
  if (obj == nullptr) {
    return RaiseError(ErrorKind::kRuntimeError,
                      {"Cannot serialize type `", TypeKeyOf(raw.type_index), "`"});
  }
  switch (obj->type_index) {
    case kTVMFFIArray: {
      FFI_CORE_ASSIGN_OR_RETURN(Array a, v.As<Array>());
      return IndicesOf(a);
    }
    case kTVMFFIList: {
      FFI_CORE_ASSIGN_OR_RETURN(List l, v.As<List>());
      return IndicesOf(l);
    }
    case kTVMFFIMap:
    case kTVMFFIDict: {
      FFI_CORE_ASSIGN_OR_RETURN(List flat, List::FromViews(nullptr, 0));
      auto add = [&](const auto& map) -> Status {
        for (const MapPair& p : map) {
          FFI_CORE_RETURN_IF_ERROR(flat.Append(p.key));
          FFI_CORE_RETURN_IF_ERROR(flat.Append(p.value));
        }
        return Status::Ok();
      };
      if (obj->type_index == kTVMFFIMap) {
        FFI_CORE_ASSIGN_OR_RETURN(Map m, v.As<Map>());
        FFI_CORE_RETURN_IF_ERROR(add(m));
      } else {
        FFI_CORE_ASSIGN_OR_RETURN(Dict d, v.As<Dict>());
        FFI_CORE_RETURN_IF_ERROR(add(d));
      }
      return IndicesOf(flat);
    }
    case kTVMFFIBigInt: {
      TextBuilder text;
      FFI_CORE_RETURN_IF_ERROR(
          AppendBigIntDecimal(text, TVMFFIBigIntGetContentByteArray(&v.raw())));
      FFI_CORE_ASSIGN_OR_RETURN(String s, text.ToString());
      return Any(s);
    }
    case kTVMFFIShape: {
      const TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(obj);
      FFI_CORE_ASSIGN_OR_RETURN(List dims, List::FromViews(nullptr, 0));
      for (size_t i = 0; i < cell->size; ++i) FFI_CORE_RETURN_IF_ERROR(dims.Append(cell->data[i]));
      FFI_CORE_ASSIGN_OR_RETURN(
          Array a, Array::FromViews(reinterpret_cast<const AnyView*>(dims.begin()), dims.size()));
      return Any(a);
    }
    default:
      return ObjectData(v, obj);
  }
}

Expected<Any> GraphWriter::ObjectData(const AnyView& v, TVMFFIObject* obj) {
  if (IsIntEnumMember(obj)) return Any(EnumMemberIntIndex(obj));
  if (IsEnumMember(obj)) return Any::FromView(EnumMemberName(obj));
  const int32_t ti = obj->type_index;
  if (TVMFFIObject* hook = TypeAttrFunction("__data_to_json__", ti)) {
    TVMFFIAny arg = v.raw();
    TVMFFIAny out = NoneAny();
    if (TVMFFIFunctionCall(hook, &arg, 1, &out) != 0) return StatusFromPendingError();
    return Any::AdoptRaw(out);
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(ti);
  const bool has_creator =
      info != nullptr && ((info->metadata != nullptr && info->metadata->creator != nullptr) ||
                          TypeAttrFunction("__ffi_new__", ti) != nullptr);
  if (!has_creator) {
    return RaiseError(ErrorKind::kTypeError,
                      {"Type `", TypeKeyOf(ti),
                       "` does not support ToJSONGraph (no native creator or __ffi_new__ type "
                       "attr)"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(List flat, List::FromViews(nullptr, 0));
  Status status = Status::Ok();
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (!status.ok()) return;
    Expected<Any> value = ReadField(obj, f);
    Expected<String> name = String::FromBytes(f.name.data, f.name.size);
    if (!value.ok() || !name.ok()) {
      status = !value.ok() ? value.status() : name.status();
      return;
    }
    Any data;
    switch (f.field_static_type_index) {
      case kTVMFFINone:
        break;
      case kTVMFFIBool:
      case kTVMFFIInt:
      case kTVMFFIFloat:
      case kTVMFFIDataType: {
        Expected<Any> inline_data = DataOf(*value, nullptr);
        if (!inline_data.ok()) {
          status = inline_data.status();
          return;
        }
        data = *inline_data;
        break;
      }
      default: {
        Expected<int64_t> index = NodeOf(*value);
        if (!index.ok()) {
          status = index.status();
          return;
        }
        data = Any(*index);
      }
    }
    status = flat.Append(*name);
    if (status.ok()) status = flat.Append(data);
  });
  FFI_CORE_RETURN_IF_ERROR(status);
  FFI_CORE_ASSIGN_OR_RETURN(
      Map fields, Map::FromPairs(reinterpret_cast<const AnyView*>(flat.begin()), flat.size() / 2));
  return Any(fields);
}

// A Shape from a List of ints.
Expected<Any> ShapeOf(const List& dims) {
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<int64_t> buf, Scratch<int64_t>::Make(dims.size(), "a Shape"));
  for (size_t i = 0; i < dims.size(); ++i) buf[i] = dims.begin()[i].raw().v_int64;
  FFI_CORE_ASSIGN_OR_RETURN(Shape shape, Shape::FromDims(buf.data(), dims.size()));
  return Any(shape);
}

class GraphReader {
 public:
  Expected<Any> Read(const AnyView& graph);

 private:
  Expected<Any> NodeAt(const AnyView& index);
  Expected<Any> Decode(const Map& node);
  Expected<Any> DecodeObject(int32_t type_index, const AnyView& data);
  Expected<Any> DecodeField(const TVMFFIFieldInfo& f, const AnyView& data);
  Status Malformed(const char* what) {
    return RaiseError(ErrorKind::kValueError, {"Invalid JSON Object Graph: ", what});
  }

  Array nodes_;
  List decoded_;  // None until decoded; decoding_[i] marks the ones under way
  List decoding_;
  int32_t depth_ = 0;
};

Expected<Any> GraphReader::Read(const AnyView& graph) {
  if (graph.type_index() != kTVMFFIMap) return Malformed("expected an object");
  FFI_CORE_ASSIGN_OR_RETURN(Map g, graph.As<Map>());
  FFI_CORE_ASSIGN_OR_RETURN(String root_name, String::FromCStr("root_index"));
  FFI_CORE_ASSIGN_OR_RETURN(String nodes_name, String::FromCStr("nodes"));
  const MapPair* root = g.Find(root_name);
  const MapPair* nodes = g.Find(nodes_name);
  if (root == nullptr || root->value.type_index() != kTVMFFIInt) {
    return Malformed("expected `root_index` integer field");
  }
  if (nodes == nullptr || nodes->value.type_index() != kTVMFFIArray) {
    return Malformed("expected `nodes` array field");
  }
  FFI_CORE_ASSIGN_OR_RETURN(nodes_, AnyView(nodes->value).As<Array>());
  FFI_CORE_ASSIGN_OR_RETURN(decoded_, List::FromViews(nullptr, 0));
  FFI_CORE_ASSIGN_OR_RETURN(decoding_, List::FromViews(nullptr, 0));
  for (size_t i = 0; i < nodes_.size(); ++i) {
    FFI_CORE_RETURN_IF_ERROR(decoded_.Append(AnyView()));
    FFI_CORE_RETURN_IF_ERROR(decoding_.Append(false));
  }
  return NodeAt(root->value);
}

Expected<Any> GraphReader::NodeAt(const AnyView& index) {
  if (index.type_index() != kTVMFFIInt) return Malformed("a node index is not an integer");
  const int64_t i = index.raw().v_int64;
  if (i < 0 || i >= static_cast<int64_t>(nodes_.size())) {
    return RaiseError(ErrorKind::kValueError,
                      {"Invalid JSON Object Graph: invalid node index ", i});
  }
  const AnyView done = decoded_.begin()[i];
  if (!done.is_none()) return Any::FromView(done);
  if (decoding_.begin()[i].raw().v_int64 != 0) return Malformed("a node refers to itself");
  if (nodes_.begin()[i].type_index() != kTVMFFIMap) return Malformed("a node is not an object");
  if (depth_ >= kMaxNestingDepth) return Malformed("nodes nested too deeply");
  FFI_CORE_ASSIGN_OR_RETURN(Map node, AnyView(nodes_.begin()[i]).As<Map>());
  FFI_CORE_RETURN_IF_ERROR(decoding_.Set(i, true));
  ++depth_;
  Expected<Any> value = Decode(node);
  --depth_;
  FFI_CORE_RETURN_IF_ERROR(decoding_.Set(i, false));
  if (!value.ok()) return value.status();
  // None decodes to None, so a None node is simply decoded again.
  FFI_CORE_RETURN_IF_ERROR(decoded_.Set(i, *value));
  return value;
}

Expected<Any> GraphReader::Decode(const Map& node) {
  FFI_CORE_ASSIGN_OR_RETURN(String type_name, String::FromCStr("type"));
  FFI_CORE_ASSIGN_OR_RETURN(String data_name, String::FromCStr("data"));
  const MapPair* type = node.Find(type_name);
  const MapPair* data_pair = node.Find(data_name);
  if (type == nullptr) return Malformed("a node has no `type`");
  FFI_CORE_ASSIGN_OR_RETURN(String type_key, AnyView(type->value).As<String>());
  const AnyView data = data_pair != nullptr ? AnyView(data_pair->value) : AnyView();
  const TVMFFIByteArray key{type_key.data(), type_key.size()};
  int32_t ti = -1;
  if (TVMFFITypeKeyToIndex(&key, &ti) != 0) return StatusFromPendingError();
  switch (ti) {
    case kTVMFFINone:
      return Any();
    case kTVMFFIBool: {
      FFI_CORE_ASSIGN_OR_RETURN(bool b, data.As<bool>());
      return Any(b);
    }
    case kTVMFFIInt: {
      FFI_CORE_ASSIGN_OR_RETURN(int64_t v, data.As<int64_t>());
      return Any(v);
    }
    case kTVMFFIFloat: {
      FFI_CORE_ASSIGN_OR_RETURN(double v, data.As<double>());
      return Any(v);
    }
    case kTVMFFIDataType: {
      FFI_CORE_ASSIGN_OR_RETURN(String s, data.As<String>());
      DLDataType dtype;
      FFI_CORE_RETURN_IF_ERROR(DataTypeFromString(s.data(), s.size(), &dtype));
      return Any(dtype);
    }
    case kTVMFFIDevice: {
      FFI_CORE_ASSIGN_OR_RETURN(Array pair, data.As<Array>());
      if (pair.size() != 2 || pair.begin()[0].type_index() != kTVMFFIInt ||
          pair.begin()[1].type_index() != kTVMFFIInt) {
        return Malformed("Device data must be an array of [device_type, device_id]");
      }
      DLDevice device{};
      device.device_type = static_cast<DLDeviceType>(pair.begin()[0].raw().v_int64);
      device.device_id = static_cast<int32_t>(pair.begin()[1].raw().v_int64);
      return Any(device);
    }
    case kTVMFFIStr: {
      FFI_CORE_ASSIGN_OR_RETURN(String s, data.As<String>());
      return Any(s);
    }
    case kTVMFFIBytes: {
      FFI_CORE_ASSIGN_OR_RETURN(String s, data.As<String>());
      FFI_CORE_ASSIGN_OR_RETURN(Bytes b, Base64Decode(TVMFFIByteArray{s.data(), s.size()}));
      return Any(b);
    }
    case kTVMFFIBigInt: {
      FFI_CORE_ASSIGN_OR_RETURN(String s, data.As<String>());
      return IntegerFromDecimal(s.data(), s.size());
    }
    case kTVMFFIArray:
    case kTVMFFIList:
    case kTVMFFIMap:
    case kTVMFFIDict:
    case kTVMFFIShape: {
      FFI_CORE_ASSIGN_OR_RETURN(Array indices, data.As<Array>());
      const bool is_map = ti == kTVMFFIMap || ti == kTVMFFIDict;
      if (is_map && indices.size() % 2 != 0) {
        return RaiseError(ErrorKind::kValueError,
                          {"Invalid JSON Object Graph: Map/Dict data must contain an even number "
                           "of [key, value] entries, got ",
                           indices.size()});
      }
      FFI_CORE_ASSIGN_OR_RETURN(List items, List::FromViews(nullptr, 0));
      for (const Any& index : indices) {
        if (ti == kTVMFFIShape) {
          if (index.type_index() != kTVMFFIInt) return Malformed("a Shape dimension is not an int");
          FFI_CORE_RETURN_IF_ERROR(items.Append(index));
          continue;
        }
        FFI_CORE_ASSIGN_OR_RETURN(Any item, NodeAt(index));
        FFI_CORE_RETURN_IF_ERROR(items.Append(item));
      }
      const auto* views = reinterpret_cast<const AnyView*>(items.begin());
      if (ti == kTVMFFIList) return Any(items);
      if (ti == kTVMFFIArray) {
        FFI_CORE_ASSIGN_OR_RETURN(Array a, Array::FromViews(views, items.size()));
        return Any(a);
      }
      if (ti == kTVMFFIMap) {
        FFI_CORE_ASSIGN_OR_RETURN(Map m, Map::FromPairs(views, items.size() / 2));
        return Any(m);
      }
      if (ti == kTVMFFIDict) {
        FFI_CORE_ASSIGN_OR_RETURN(Dict d, Dict::FromPairs(views, items.size() / 2));
        return Any(d);
      }
      return ShapeOf(items);
    }
    default:
      if (ti < kTVMFFIStaticObjectBegin) {
        return RaiseError(ErrorKind::kTypeError,
                          {"Cannot deserialize type `", type_key.data(), "`"});
      }
      return DecodeObject(ti, data);
  }
}

Expected<Any> GraphReader::DecodeField(const TVMFFIFieldInfo& f, const AnyView& data) {
  switch (f.field_static_type_index) {
    case kTVMFFINone:
      return Any();
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
      return Any::FromView(data);
    case kTVMFFIDataType: {
      FFI_CORE_ASSIGN_OR_RETURN(String s, data.As<String>());
      DLDataType dtype;
      FFI_CORE_RETURN_IF_ERROR(DataTypeFromString(s.data(), s.size(), &dtype));
      return Any(dtype);
    }
    default:
      return NodeAt(data);
  }
}

Expected<Any> GraphReader::DecodeObject(int32_t ti, const AnyView& data) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(ti);
  if (info == nullptr) return Malformed("unknown type");
  // An enum member is found by its index in the enum's registry.
  if (IsEnumType(ti)) return EnumMemberByIndex(ti, data);
  if (TVMFFIObject* hook = TypeAttrFunction("__data_from_json__", ti)) {
    TVMFFIAny arg = data.raw();
    TVMFFIAny out = NoneAny();
    if (TVMFFIFunctionCall(hook, &arg, 1, &out) != 0) return StatusFromPendingError();
    return Any::AdoptRaw(out);
  }
  if (data.type_index() != kTVMFFIMap) return Malformed("object data is not an object");
  FFI_CORE_ASSIGN_OR_RETURN(Map fields, data.As<Map>());
  FFI_CORE_ASSIGN_OR_RETURN(Any made, NewEmptyObject(info));
  TVMFFIObject* obj = ObjectOf(made);
  Status status = Status::Ok();
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (!status.ok()) return;
    Expected<String> name = String::FromBytes(f.name.data, f.name.size);
    if (!name.ok()) {
      status = name.status();
      return;
    }
    const MapPair* p = fields.Find(*name);
    if (p == nullptr) {
      status = InitField(obj, info, f, nullptr);
      return;
    }
    Expected<Any> value = DecodeField(f, p->value);
    status = value.ok() ? InitField(obj, info, f, &value->raw()) : value.status();
  });
  FFI_CORE_RETURN_IF_ERROR(status);
  return made;
}

Status ToJSONGraph(PackedArgs args, Any* rv) {
  if (args.size() != 2) return detail::RaiseArityError("ffi.ToJSONGraph", 2, args.size());
  GraphWriter writer;
  FFI_CORE_ASSIGN_OR_RETURN(*rv, writer.Write(args[0], args[1]));
  return Status::Ok();
}

Status ToJSONGraphString(PackedArgs args, Any* rv) {
  if (args.size() != 2) return detail::RaiseArityError("ffi.ToJSONGraphString", 2, args.size());
  GraphWriter writer;
  FFI_CORE_ASSIGN_OR_RETURN(Any graph, writer.Write(args[0], args[1]));
  FFI_CORE_ASSIGN_OR_RETURN(String text, JsonStringify(graph));
  *rv = Any(text);
  return Status::Ok();
}

Status FromJSONGraph(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.FromJSONGraph", 1, args.size());
  GraphReader reader;
  FFI_CORE_ASSIGN_OR_RETURN(*rv, reader.Read(args[0]));
  return Status::Ok();
}

Status FromJSONGraphString(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.FromJSONGraphString", 1, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(String text, args[0].As<String>());
  FFI_CORE_ASSIGN_OR_RETURN(Any graph, JsonParse(text.data(), text.size()));
  GraphReader reader;
  FFI_CORE_ASSIGN_OR_RETURN(*rv, reader.Read(graph));
  return Status::Ok();
}

// Upstream's JSON text globals, which its C++ json::Parse and
// json::Stringify (extra/cxx_api) forward to.
Status JsonParseGlobal(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.json.Parse", 1, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(String text, args[0].As<String>());
  FFI_CORE_ASSIGN_OR_RETURN(*rv, JsonParse(text.data(), text.size()));
  return Status::Ok();
}

Status JsonStringifyGlobal(PackedArgs args, Any* rv) {
  if (args.size() != 1 && args.size() != 2) {
    return detail::RaiseArityError("ffi.json.Stringify", 2, args.size());
  }
  int32_t indent = 0;
  if (args.size() == 2 && args[1].type_index() != kTVMFFINone) {
    FFI_CORE_ASSIGN_OR_RETURN(indent, args[1].As<int32_t>());
  }
  FFI_CORE_ASSIGN_OR_RETURN(String text, JsonStringify(args[0], indent));
  *rv = Any(text);
  return Status::Ok();
}

}  // namespace

Status RegisterJsonGraph() {
  static constexpr GlobalEntry kGlobals[] = {
      {"ffi.json.Parse", &JsonParseGlobal},  {"ffi.json.Stringify", &JsonStringifyGlobal},
      {"ffi.ToJSONGraph", &ToJSONGraph},     {"ffi.ToJSONGraphString", &ToJSONGraphString},
      {"ffi.FromJSONGraph", &FromJSONGraph}, {"ffi.FromJSONGraphString", &FromJSONGraphString}};
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core
