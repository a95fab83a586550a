#include "dataclass/type_convert.h"

#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/container/shape.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/string.h>
#include <ffi_core/tensor.h>
#include <ffi_core/type_table.h>

#include <cstring>

#include "scratch.h"

namespace ffi_core {
namespace frontend {
namespace {

// The one argument of a conversion.
Expected<AnyView> Argument(PackedArgs args, const char* type_key) {
  if (args.size() != 1) {
    return RaiseError(ErrorKind::kTypeError, {type_key, ".__ffi_convert__ takes 1 argument, got ",
                                              static_cast<unsigned long>(args.size())});
  }
  return args[0];
}

// Upstream's refusal, naming both types (type keys are NUL-terminated);
// replaces whatever error the attempt raised.
Status CannotCast(const AnyView& value, const char* type_key) {
  Error::MoveFromRaised();
  const TVMFFITypeInfo* from = FindTypeInfo(value.type_index());
  return RaiseError(ErrorKind::kTypeError,
                    {"Cannot cast from `", from != nullptr ? from->type_key.data : "unknown type",
                     "` to `", type_key, "`"});
}

// Views of a sequence's items, to build another sequence from.
template <typename Seq>
Expected<Scratch<AnyView>> ItemViews(const Seq& seq, const char* what) {
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<AnyView> views, Scratch<AnyView>::Make(seq.size(), what));
  size_t i = 0;
  for (const Any& item : seq) views[i++] = AnyView(item);
  return views;
}

// Views of a map's keys and values, interleaved.
template <typename M>
Expected<Scratch<AnyView>> PairViews(const M& map, const char* what) {
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<AnyView> views, Scratch<AnyView>::Make(2 * map.size(), what));
  size_t i = 0;
  for (const MapPair& pair : map) {
    views[i++] = AnyView(pair.key);
    views[i++] = AnyView(pair.value);
  }
  return views;
}

// The value itself when it is a T (TypeTraits' own conversions, such as a
// str to a String), else T's TypeError.
template <typename T>
Status Exactly(const AnyView& value, Any* rv, const char* type_key) {
  Expected<T> converted = value.As<T>();
  if (!converted.ok()) return CannotCast(value, type_key);
  *rv = Any(*converted);
  return Status::Ok();
}

// Array from a List, List from an Array (a copy), else the value itself.
template <typename To, typename From, int32_t kFromIndex>
Status SequenceFrom(PackedArgs args, Any* rv, const char* type_key) {
  FFI_CORE_ASSIGN_OR_RETURN(AnyView value, Argument(args, type_key));
  if (value.type_index() != kFromIndex) return Exactly<To>(value, rv, type_key);
  FFI_CORE_ASSIGN_OR_RETURN(From from, value.As<From>());
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<AnyView> views, ItemViews(from, type_key));
  FFI_CORE_ASSIGN_OR_RETURN(To to, To::FromViews(views.data(), views.size()));
  *rv = Any(to);
  return Status::Ok();
}

// Map from a Dict, Dict from a Map (a copy), else the value itself.
template <typename To, typename From, int32_t kFromIndex>
Status MapFrom(PackedArgs args, Any* rv, const char* type_key) {
  FFI_CORE_ASSIGN_OR_RETURN(AnyView value, Argument(args, type_key));
  if (value.type_index() != kFromIndex) return Exactly<To>(value, rv, type_key);
  FFI_CORE_ASSIGN_OR_RETURN(From from, value.As<From>());
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<AnyView> views, PairViews(from, type_key));
  FFI_CORE_ASSIGN_OR_RETURN(To to, To::FromPairs(views.data(), from.size()));
  *rv = Any(to);
  return Status::Ok();
}

template <typename Seq>
Status ShapeFromSequence(const AnyView& value, const Seq& seq, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<int64_t> dims, Scratch<int64_t>::Make(seq.size(), "ffi.Shape"));
  size_t i = 0;
  for (const Any& item : seq) {
    Expected<int64_t> dim = AnyView(item).As<int64_t>();
    if (!dim.ok()) return CannotCast(value, "ffi.Shape");
    dims[i++] = *dim;
  }
  FFI_CORE_ASSIGN_OR_RETURN(Shape shape, Shape::FromDims(dims.data(), dims.size()));
  *rv = Any(shape);
  return Status::Ok();
}

// A Shape from an Array or List of integers, else the value itself.
Status ShapeFrom(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(AnyView value, Argument(args, "ffi.Shape"));
  if (value.type_index() == kTVMFFIArray) {
    FFI_CORE_ASSIGN_OR_RETURN(Array a, value.As<Array>());
    return ShapeFromSequence(value, a, rv);
  }
  if (value.type_index() == kTVMFFIList) {
    FFI_CORE_ASSIGN_OR_RETURN(List l, value.As<List>());
    return ShapeFromSequence(value, l, rv);
  }
  return Exactly<Shape>(value, rv, "ffi.Shape");
}

// Any object as it is (None too: an object reference may be null).
Status ObjectFrom(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(AnyView value, Argument(args, "ffi.Object"));
  const int32_t index = value.type_index();
  if (index != kTVMFFINone && index < kTVMFFIStaticObjectBegin) {
    return CannotCast(value, "ffi.Object");
  }
  FFI_CORE_ASSIGN_OR_RETURN(*rv, Any::FromView(value));
  return Status::Ok();
}

template <typename T>
Status ExactlyFrom(PackedArgs args, Any* rv, const char* type_key) {
  FFI_CORE_ASSIGN_OR_RETURN(AnyView value, Argument(args, type_key));
  return Exactly<T>(value, rv, type_key);
}

// Function and Tensor references may be null, as upstream's: None stays None.
template <typename T>
Status NullableFrom(PackedArgs args, Any* rv, const char* type_key) {
  FFI_CORE_ASSIGN_OR_RETURN(AnyView value, Argument(args, type_key));
  if (value.type_index() == kTVMFFINone) {
    *rv = Any();
    return Status::Ok();
  }
  return Exactly<T>(value, rv, type_key);
}

// Each type's converter, named in refusals as upstream's names it.
struct Converter {
  int32_t type_index;
  Status (*convert)(PackedArgs, Any*);
};
constexpr Converter kConverters[] = {
    {kTVMFFIObject, &ObjectFrom},
    {kTVMFFIFunction,
     [](PackedArgs a, Any* rv) { return NullableFrom<Function>(a, rv, "ffi.Function"); }},
    {kTVMFFIError, [](PackedArgs a, Any* rv) { return ExactlyFrom<Error>(a, rv, "ffi.Error"); }},
    {kTVMFFIStr, [](PackedArgs a, Any* rv) { return ExactlyFrom<String>(a, rv, "str"); }},
    {kTVMFFIBytes, [](PackedArgs a, Any* rv) { return ExactlyFrom<Bytes>(a, rv, "bytes"); }},
    {kTVMFFITensor,
     [](PackedArgs a, Any* rv) { return NullableFrom<Tensor>(a, rv, "ffi.Tensor"); }},
    {kTVMFFIArray,
     [](PackedArgs a, Any* rv) {
       return SequenceFrom<Array, List, kTVMFFIList>(a, rv, "Array<Any>");
     }},
    {kTVMFFIList,
     [](PackedArgs a, Any* rv) {
       return SequenceFrom<List, Array, kTVMFFIArray>(a, rv, "List<Any>");
     }},
    {kTVMFFIMap,
     [](PackedArgs a, Any* rv) { return MapFrom<Map, Dict, kTVMFFIDict>(a, rv, "Map<Any, Any>"); }},
    {kTVMFFIDict,
     [](PackedArgs a, Any* rv) { return MapFrom<Dict, Map, kTVMFFIMap>(a, rv, "Dict<Any, Any>"); }},
    {kTVMFFIShape, &ShapeFrom},
};

}  // namespace

Status RegisterConvertAttrs() {
  const char kName[] = "__ffi_convert__";
  const TVMFFIByteArray name{kName, sizeof(kName) - 1};
  for (const Converter& c : kConverters) {
    FFI_CORE_ASSIGN_OR_RETURN(Function f, Function::FromPacked(c.convert));
    const Any held(f);  // the column keeps its own reference
    if (TVMFFITypeRegisterAttr(c.type_index, &name, &held.raw()) != 0) {
      return Status(ErrorKind::kRuntimeError);
    }
  }
  return Status::Ok();
}

}  // namespace frontend
}  // namespace ffi_core
