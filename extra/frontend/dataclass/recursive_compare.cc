// "ffi.RecursiveEq", "ffi.RecursiveLt", "ffi.RecursiveLe", "ffi.RecursiveGt"
// and "ffi.RecursiveGe": upstream's field-by-field comparison of values.
// Strings and bytes compare by content (small and heap forms alike),
// sequences lexicographically then by length, maps by key then value (they
// have no order: ordering two that differ is a TypeError), reflected objects
// field by field without their CompareOff fields, through the type's
// "__ffi_eq__" / "__ffi_compare__" hooks when it has them. Equality treats a
// pair met again inside itself as equal; ordering refuses it.
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/string.h>

#include <cmath>
#include <cstring>

#include "dataclass/object_fields.h"
#include "dataclass_globals.h"
#include "global_table.h"

namespace ffi_core {
namespace frontend {
namespace {

bool IsString(int32_t ti) { return ti == kTVMFFISmallStr || ti == kTVMFFIStr; }
bool IsBytes(int32_t ti) { return ti == kTVMFFISmallBytes || ti == kTVMFFIBytes; }

int32_t Sign(int64_t v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

template <typename T>
int32_t Order(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int32_t CompareText(TVMFFIByteArray a, TVMFFIByteArray b) {
  const size_t n = a.size < b.size ? a.size : b.size;
  const int c = n == 0 ? 0 : std::memcmp(a.data, b.data, n);
  return c != 0 ? Sign(c) : Order(a.size, b.size);
}

// Integers as two's complement 64-bit words, least significant first; an
// Int is one word.
struct IntWords {
  const char* data;
  size_t count;
  int64_t Word(size_t i) const {
    if (i >= count) return Word(count - 1) < 0 ? -1 : 0;  // sign extension
    int64_t w;
    std::memcpy(&w, data + i * 8, 8);
    return w;
  }
};

IntWords WordsOf(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFIInt) return {reinterpret_cast<const char*>(&v.v_int64), 1};
  const TVMFFIByteArray b = TVMFFIBigIntGetContentByteArray(&v);
  return {b.data, b.size / 8};
}

int32_t CompareIntegers(const TVMFFIAny& a, const TVMFFIAny& b) {
  const IntWords x = WordsOf(a);
  const IntWords y = WordsOf(b);
  size_t n = x.count > y.count ? x.count : y.count;
  // The top word is signed; those below it compare unsigned.
  if (const int32_t top = Order(x.Word(n - 1), y.Word(n - 1))) return top;
  while (--n > 0) {
    const auto xw = static_cast<uint64_t>(x.Word(n - 1));
    const auto yw = static_cast<uint64_t>(y.Word(n - 1));
    if (xw != yw) return Order(xw, yw);
  }
  return 0;
}

const char* TypeKeyOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info != nullptr ? info->type_key.data : "?";
}

class Comparer {
 public:
  explicit Comparer(bool eq_only) : eq_only_(eq_only) {}

  // -1, 0 or 1 into *out; errors for what has no order.
  Status Compare(const AnyView& a, const AnyView& b, int32_t* out);

 private:
  Status ComparePod(const TVMFFIAny& a, const TVMFFIAny& b, int32_t* out);
  Status CompareObjects(TVMFFIObject* a, TVMFFIObject* b, const AnyView& va, const AnyView& vb,
                        int32_t* out);
  Status CompareSequences(TVMFFIObject* a, TVMFFIObject* b, int32_t* out);
  template <typename M>
  Status CompareMaps(const AnyView& va, const AnyView& vb, int32_t* out);
  Status CompareFields(TVMFFIObject* a, TVMFFIObject* b, int32_t* out);
  Status CallHook(TVMFFIObject* hook, TVMFFIObject* a, TVMFFIObject* b, bool returns_bool,
                  int32_t* out);
  Status Differs(int32_t* out) {
    *out = 1;
    return Status::Ok();
  }
  Status Unordered(const char* what) {
    return RaiseError(ErrorKind::kTypeError, {"Cannot order ", what});
  }

  struct Pair {
    const TVMFFIObject* a;
    const TVMFFIObject* b;
  };
  // The pairs being compared, outermost first: meeting one again is a cycle.
  Pair path_[kMaxNestingDepth];
  int32_t depth_ = 0;
  bool eq_only_;
};

Status Comparer::Compare(const AnyView& va, const AnyView& vb, int32_t* out) {
  const TVMFFIAny& a = va.raw();
  const TVMFFIAny& b = vb.raw();
  const int32_t ta = a.type_index;
  const int32_t tb = b.type_index;
  if (ta == kTVMFFINone || tb == kTVMFFINone) {
    *out = Order(ta != kTVMFFINone, tb != kTVMFFINone);
    return Status::Ok();
  }
  if ((IsString(ta) && IsString(tb)) || (IsBytes(ta) && IsBytes(tb))) {
    *out = CompareText(detail::ByteSequenceView(a), detail::ByteSequenceView(b));
    return Status::Ok();
  }
  const bool a_int = ta == kTVMFFIInt || ta == kTVMFFIBigInt;
  const bool b_int = tb == kTVMFFIInt || tb == kTVMFFIBigInt;
  if (ta != tb) {
    if (eq_only_) return Differs(out);
    if (a_int && b_int) {
      *out = CompareIntegers(a, b);
      return Status::Ok();
    }
    return RaiseError(
        ErrorKind::kTypeError,
        {"Cannot compare values of different types: ", TypeKeyOf(ta), " vs ", TypeKeyOf(tb)});
  }
  if (ta < kTVMFFIStaticObjectBegin) return ComparePod(a, b, out);
  if (ta == kTVMFFIBigInt) {
    *out = CompareIntegers(a, b);
    if (eq_only_ && *out != 0) *out = 1;
    return Status::Ok();
  }
  TVMFFIObject* oa = a.v_obj;
  TVMFFIObject* ob = b.v_obj;
  if (oa == ob) {
    *out = 0;
    return Status::Ok();
  }
  if (oa == nullptr || ob == nullptr) {
    *out = oa == nullptr ? -1 : 1;
    return Status::Ok();
  }
  for (int32_t i = 0; i < depth_; ++i) {
    if (path_[i].a == oa && path_[i].b == ob) {
      if (eq_only_) {
        *out = 0;
        return Status::Ok();
      }
      return RaiseError(ErrorKind::kValueError,
                        {"RecursiveCompare: cyclic reference detected in ordering"});
    }
  }
  if (depth_ >= kMaxNestingDepth) {
    return RaiseError(ErrorKind::kValueError,
                      {"RecursiveCompare: values nested deeper than ", kMaxNestingDepth});
  }
  path_[depth_++] = Pair{oa, ob};
  Status s = CompareObjects(oa, ob, va, vb, out);
  --depth_;
  return s;
}

Status Comparer::ComparePod(const TVMFFIAny& a, const TVMFFIAny& b, int32_t* out) {
  switch (a.type_index) {
    case kTVMFFIBool:
      *out = Order(a.v_int64 != 0, b.v_int64 != 0);
      return Status::Ok();
    case kTVMFFIInt:
      *out = Order(a.v_int64, b.v_int64);
      return Status::Ok();
    case kTVMFFIFloat: {
      const double x = a.v_float64;
      const double y = b.v_float64;
      if (std::isnan(x) || std::isnan(y)) {
        if (!eq_only_) return Unordered("NaN values");
        *out = std::isnan(x) && std::isnan(y) ? 0 : 1;
        return Status::Ok();
      }
      *out = Order(x, y);
      return Status::Ok();
    }
    case kTVMFFIDataType: {
      const DLDataType x = a.v_dtype;
      const DLDataType y = b.v_dtype;
      *out = x.code != y.code
                 ? Order(x.code, y.code)
                 : (x.bits != y.bits ? Order(x.bits, y.bits) : Order(x.lanes, y.lanes));
      return Status::Ok();
    }
    case kTVMFFIDevice: {
      const int32_t xt = static_cast<int32_t>(a.v_device.device_type);
      const int32_t yt = static_cast<int32_t>(b.v_device.device_type);
      *out = xt != yt ? Order(xt, yt) : Order(a.v_device.device_id, b.v_device.device_id);
      return Status::Ok();
    }
    default:
      if (a.zero_padding == b.zero_padding && a.v_int64 == b.v_int64) {
        *out = 0;
        return Status::Ok();
      }
      if (eq_only_) return Differs(out);
      return RaiseError(ErrorKind::kTypeError,
                        {"Cannot order values of type ", TypeKeyOf(a.type_index)});
  }
}

Status Comparer::CompareObjects(TVMFFIObject* a, TVMFFIObject* b, const AnyView& va,
                                const AnyView& vb, int32_t* out) {
  const int32_t ti = a->type_index;
  switch (ti) {
    case kTVMFFIShape: {
      const TVMFFIShapeCell* x = TVMFFIShapeGetCellPtr(a);
      const TVMFFIShapeCell* y = TVMFFIShapeGetCellPtr(b);
      for (size_t i = 0; i < x->size && i < y->size; ++i) {
        if (x->data[i] != y->data[i]) {
          *out = Order(x->data[i], y->data[i]);
          return Status::Ok();
        }
      }
      *out = Order(x->size, y->size);
      return Status::Ok();
    }
    case kTVMFFIArray:
    case kTVMFFIList:
      return CompareSequences(a, b, out);
    case kTVMFFIMap:
      return CompareMaps<Map>(va, vb, out);
    case kTVMFFIDict:
      return CompareMaps<Dict>(va, vb, out);
    default:
      break;
  }
  if (ti >= kTVMFFIStaticObjectEnd) {
    if (b->type_index != ti) {
      if (eq_only_) return Differs(out);
      return RaiseError(ErrorKind::kTypeError, {"Cannot compare objects of different types: ",
                                                TypeKeyOf(ti), " vs ", TypeKeyOf(b->type_index)});
    }
    TVMFFIObject* compare = TypeAttrFunction("__ffi_compare__", ti);
    if (eq_only_) {
      if (TVMFFIObject* eq = TypeAttrFunction("__ffi_eq__", ti))
        return CallHook(eq, a, b, true, out);
    }
    if (compare != nullptr) return CallHook(compare, a, b, false, out);
  }
  return CompareFields(a, b, out);
}

Status Comparer::CompareSequences(TVMFFIObject* a, TVMFFIObject* b, int32_t* out) {
  const auto* x = reinterpret_cast<const TVMFFISeqCell*>(a + 1);
  const auto* y = reinterpret_cast<const TVMFFISeqCell*>(b + 1);
  const auto* xi = static_cast<const Any*>(x->data);
  const auto* yi = static_cast<const Any*>(y->data);
  for (int64_t i = 0; i < x->size && i < y->size; ++i) {
    FFI_CORE_RETURN_IF_ERROR(Compare(xi[i], yi[i], out));
    if (*out != 0) return Status::Ok();
  }
  *out = Order(x->size, y->size);
  if (eq_only_ && *out != 0) *out = 1;
  return Status::Ok();
}

// Equal when both hold the same keys with equal values; any difference has
// no order.
template <typename M>
Status Comparer::CompareMaps(const AnyView& va, const AnyView& vb, int32_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(M x, va.As<M>());
  FFI_CORE_ASSIGN_OR_RETURN(M y, vb.As<M>());
  if (x.size() != y.size()) return eq_only_ ? Differs(out) : Unordered("Map/Dict values");
  for (const MapPair& p : x) {
    const MapPair* q = y.Find(p.key);
    if (q == nullptr) return eq_only_ ? Differs(out) : Unordered("Map/Dict values");
    FFI_CORE_RETURN_IF_ERROR(Compare(p.value, q->value, out));
    if (*out != 0) return eq_only_ ? Differs(out) : Unordered("Map/Dict values");
  }
  *out = 0;
  return Status::Ok();
}

Status Comparer::CompareFields(TVMFFIObject* a, TVMFFIObject* b, int32_t* out) {
  if (b->type_index != a->type_index) {
    if (eq_only_) return Differs(out);
    return RaiseError(ErrorKind::kTypeError,
                      {"Cannot compare objects of different types: ", TypeKeyOf(a->type_index),
                       " vs ", TypeKeyOf(b->type_index)});
  }
  *out = 0;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(a->type_index);
  if (info == nullptr) return Status::Ok();
  Status status = Status::Ok();
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (!status.ok() || *out != 0 || (f.flags & kTVMFFIFieldFlagBitMaskCompareOff)) return;
    Expected<Any> x = ReadField(a, f);
    if (!x.ok()) {
      status = x.status();
      return;
    }
    Expected<Any> y = ReadField(b, f);
    if (!y.ok()) {
      status = y.status();
      return;
    }
    status = Compare(*x, *y, out);
  });
  return status;
}

// hook(a, b, compare_fn): compare_fn compares nested values with this
// comparer, so cycles through the hook are still caught.
Status Comparer::CallHook(TVMFFIObject* hook, TVMFFIObject* a, TVMFFIObject* b, bool returns_bool,
                          int32_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(Function nested,
                            Function::FromPacked([this, returns_bool](PackedArgs args, Any* rv) {
                              if (args.size() != 2)
                                return detail::RaiseArityError("compare", 2, args.size());
                              int32_t r = 0;
                              FFI_CORE_RETURN_IF_ERROR(Compare(args[0], args[1], &r));
                              *rv = returns_bool ? Any(r == 0) : Any(static_cast<int64_t>(r));
                              return Status::Ok();
                            }));
  TVMFFIAny call_args[3] = {NoneAny(), NoneAny(), NoneAny()};
  call_args[0].type_index = a->type_index;
  call_args[0].v_obj = a;
  call_args[1].type_index = b->type_index;
  call_args[1].v_obj = b;
  const Any nested_any(nested);
  call_args[2] = nested_any.raw();
  TVMFFIAny result = NoneAny();
  if (TVMFFIFunctionCall(hook, call_args, 3, &result) != 0) return StatusFromPendingError();
  const Any owned = Any::AdoptRaw(result);
  if (returns_bool) {
    FFI_CORE_ASSIGN_OR_RETURN(bool equal, owned.As<bool>());
    *out = equal ? 0 : 1;
  } else {
    FFI_CORE_ASSIGN_OR_RETURN(int64_t r, owned.As<int64_t>());
    *out = Sign(r);
  }
  return Status::Ok();
}

// One global per relation: (eq_only, accept(sign)).
template <bool kEqOnly, bool (*kAccept)(int32_t)>
Status Relation(PackedArgs args, Any* rv) {
  if (args.size() != 2) return detail::RaiseArityError("ffi.Recursive*", 2, args.size());
  Comparer comparer(kEqOnly);
  int32_t r = 0;
  FFI_CORE_RETURN_IF_ERROR(comparer.Compare(args[0], args[1], &r));
  *rv = Any(kAccept(r));
  return Status::Ok();
}

bool IsZero(int32_t r) { return r == 0; }
bool IsNegative(int32_t r) { return r < 0; }
bool IsNotPositive(int32_t r) { return r <= 0; }
bool IsPositive(int32_t r) { return r > 0; }
bool IsNotNegative(int32_t r) { return r >= 0; }

}  // namespace

Status RegisterRecursiveCompare() {
  static constexpr GlobalEntry kGlobals[] = {{"ffi.RecursiveEq", &Relation<true, &IsZero>},
                                             {"ffi.RecursiveLt", &Relation<false, &IsNegative>},
                                             {"ffi.RecursiveLe", &Relation<false, &IsNotPositive>},
                                             {"ffi.RecursiveGt", &Relation<false, &IsPositive>},
                                             {"ffi.RecursiveGe", &Relation<false, &IsNotNegative>}};
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core
