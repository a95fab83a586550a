// The vm.builtin.* functions compiled Relax code looks up by name
// (TVMFFIEnvModLookupFromImports), with the arguments and error kinds and
// messages of TVM's runtime (src/runtime/vm/builtin.cc). Storage and tensors
// take memory from ffi-core's installed allocator and give it back when
// released.
#include <ffi_core/container/array.h>
#include <ffi_core/container/shape.h>
#include <ffi_core/dtype.h>
#include <ffi_core/error.h>
#include <ffi_core/string.h>
#include <ffi_core/tensor.h>

#include <cstring>

#include "function/builtin_globals.h"
#include "vm_objects.h"

namespace ffi_core {
namespace tvm_vm {
namespace {

// The alignment TVM's allocators give storage (kAllocAlignment).
constexpr size_t kStorageAlignment = 64;
// MatchShapeCode and MakeShapeCode (tvm/runtime/vm/builtin.h).
constexpr int64_t kAssertEqualToImm = 0;
constexpr int64_t kStoreToHeap = 1;
constexpr int64_t kNoOp = 2;
constexpr int64_t kAssertEqualToLoad = 3;
constexpr int64_t kUseImm = 0;
constexpr int64_t kLoadShape = 1;

[[gnu::cold, gnu::noinline]] Status TooFewArguments(PackedArgs args, int32_t n, const char* name) {
  return RaiseError(ErrorKind::kTypeError,
                    {"vm.builtin.", name, ": expected ", n, " arguments, got ", args.size()});
}

Status Need(PackedArgs args, int32_t n, const char* name) {
  if (args.size() >= n) return Status::Ok();
  return TooFewArguments(args, n, name);
}

// The optional error context TVM's checks prefix their messages with: the
// argument, read as text only when a check fails (a string made on every
// successful call was most of the entry's checks).
struct ErrorContext {
  AnyView value;
};
struct ContextText {
  String text;
  const char* c_str() const { return text.size() != 0 ? text.data() : ""; }
};
// The context's text, alive to the end of the message's full expression.
ContextText TextOf(const ErrorContext& ctx) {
  ContextText t;
  String text;
  if (!ctx.value.is_none() && ctx.value.TryAs(&text) == Conversion::kOk) t.text = std::move(text);
  return t;
}
ErrorContext ContextOf(const AnyView& v) { return ErrorContext{v}; }

// What TVM calls a type key, for the types these checks meet.
const char* TypeName(const AnyView& v) {
  switch (v.type_index()) {
    case kTVMFFINone:
      return "None";
    case kTVMFFIInt:
      return "int";
    case kTVMFFIFloat:
      return "float";
    case kTVMFFIStr:
    case kTVMFFISmallStr:
      return "ffi.String";
    case kTVMFFIShape:
      return "ffi.Shape";
    case kTVMFFIArray:
      return "ffi.Array";
    case kTVMFFITensor:
    case kTVMFFIDLTensorPtr:
      return "ffi.Tensor";
    default:
      return "an unsupported type";
  }
}

// TVM's TypeError for a check whose value is not a `what`.
Status WrongType(const ErrorContext& ctx, const char* what, const AnyView& got) {
  return RaiseError(ErrorKind::kTypeError,
                    {TextOf(ctx).c_str(), " expect a ", what, " but get ", TypeName(got)});
}

// The cell of a value already known to hold an Array, borrowed.
TVMFFISeqCell* ArrayCellOf(const AnyView& v) {
  return &reinterpret_cast<ArrayObj*>(v.raw().v_obj)->cell;
}
// The cell of an Array argument, borrowed.
Expected<TVMFFISeqCell*> ArrayArg(const AnyView& v, const char* who) {
  if (v.type_index() != kTVMFFIArray) {
    return RaiseError(ErrorKind::kTypeError, {"vm.builtin.", who, ": expects an Array"});
  }
  return ArrayCellOf(v);
}

// A DLTensor* or Tensor argument, borrowed.
Expected<DLTensor*> TensorArg(const AnyView& v, const char* who) {
  DLTensor* t = nullptr;
  if (v.TryAs(&t) == Conversion::kOk) return t;
  return RaiseError(ErrorKind::kTypeError,
                    {"vm.builtin.", who, " expects a Tensor or DLTensor*, but get ", TypeName(v)});
}

// The int64 heap match_shape and make_shape read and write, or NULL.
int64_t* HeapOf(const AnyView& v) {
  DLTensor* heap = nullptr;
  return v.TryAs(&heap) == Conversion::kOk ? static_cast<int64_t*>(heap->data) : nullptr;
}

size_t DataSize(int64_t numel, DLDataType dtype) {
  return static_cast<size_t>(numel) * static_cast<size_t>(detail::ElementBytes(dtype));
}

Status AllocShapeHeap(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 2, "alloc_shape_heap"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t size, args[1].As<int64_t>());
  FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<StorageObj> storage,
                            NewStorage(static_cast<size_t>(size) * 8, kStorageAlignment));
  struct Heap {
    ObjectPtr<StorageObj> storage;
    Status AllocData(DLTensor* t) {
      t->data = storage->data;
      return Status::Ok();
    }
    void FreeData(DLTensor*) {}
  };
  FFI_CORE_ASSIGN_OR_RETURN(Tensor heap,
                            Tensor::FromNDAlloc(Heap{std::move(storage)}, IntSpan{&size, 1},
                                                DLDataType{kDLInt, 64, 1}, DLDevice{kDLCPU, 0}));
  *rv = Any(heap);
  return Status::Ok();
}

Status CheckShapeCodes(const int64_t* dims, int64_t ndim, PackedArgs args, int32_t begin,
                       int64_t* heap, const ErrorContext& ctx) {
  for (int64_t i = 0; i < ndim; ++i) {
    FFI_CORE_ASSIGN_OR_RETURN(int64_t code, args[begin + 2 * i].As<int64_t>());
    FFI_CORE_ASSIGN_OR_RETURN(int64_t reg, args[begin + 2 * i + 1].As<int64_t>());
    if (code == kAssertEqualToImm) {
      if (dims[i] != reg) {
        return RaiseError(ErrorKind::kRuntimeError,
                          {TextOf(ctx).c_str(), " match_cast error,  shape[", i,
                           "] mismatch to specified constant."});
      }
    } else if (code == kStoreToHeap && heap != nullptr) {
      heap[reg] = dims[i];
    } else if (code == kAssertEqualToLoad && heap != nullptr) {
      if (dims[i] != heap[reg]) {
        return RaiseError(ErrorKind::kRuntimeError,
                          {TextOf(ctx).c_str(), " match_cast error,  shape[", i,
                           "] mismatch to a previous populated value."});
      }
    } else if (code != kNoOp) {
      return RaiseError(ErrorKind::kInternalError, {"Unknown match shape code: ", code});
    }
  }
  return Status::Ok();
}

// match_shape(value, heap, ndim, (code, reg) * ndim, err_ctx)
Status MatchShape(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 3, "match_shape"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t ndim, args[2].As<int64_t>());
  if (ndim < 0 || args.size() < 4 + 2 * ndim) {
    return Need(args, static_cast<int32_t>(4 + 2 * (ndim < 0 ? 0 : ndim)), "match_shape");
  }
  const ErrorContext ctx = ContextOf(args[static_cast<int32_t>(3 + 2 * ndim)]);
  Shape shape;
  const int64_t* dims = nullptr;
  int64_t size = 0;
  DLTensor* t = nullptr;
  if (args[0].TryAs(&t) == Conversion::kOk) {
    dims = t->shape;
    size = t->ndim;
  } else {
    FFI_CORE_ASSIGN_OR_RETURN(shape, args[0].As<Shape>());
    dims = shape.data();
    size = static_cast<int64_t>(shape.size());
  }
  if (size != ndim) {
    return RaiseError(ErrorKind::kRuntimeError,
                      {TextOf(ctx).c_str(), " match_cast shape size mismatch."});
  }
  return CheckShapeCodes(dims, ndim, args, 3, HeapOf(args[1]), ctx);
}

int64_t LoadOrImm(int64_t code, int64_t reg, const int64_t* heap) {
  return code == kLoadShape && heap != nullptr ? heap[reg] : reg;
}

// make_shape(heap, ndim, (code, reg) * ndim)
Status MakeShape(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 2, "make_shape"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t ndim, args[1].As<int64_t>());
  if (ndim < 0 || ndim > FFI_CORE_TENSOR_MAX_NDIM) {
    return RaiseError(ErrorKind::kValueError, {"vm.builtin.make_shape: rank ", ndim});
  }
  FFI_CORE_RETURN_IF_ERROR(Need(args, static_cast<int32_t>(2 + 2 * ndim), "make_shape"));
  const int64_t* heap = HeapOf(args[0]);
  int64_t dims[FFI_CORE_TENSOR_MAX_NDIM];
  for (int64_t i = 0; i < ndim; ++i) {
    FFI_CORE_ASSIGN_OR_RETURN(int64_t code, args[static_cast<int32_t>(2 + 2 * i)].As<int64_t>());
    FFI_CORE_ASSIGN_OR_RETURN(int64_t reg, args[static_cast<int32_t>(3 + 2 * i)].As<int64_t>());
    if (code != kUseImm && code != kLoadShape) {
      return RaiseError(ErrorKind::kInternalError, {"Invalid shape code: ", code});
    }
    dims[i] = LoadOrImm(code, reg, heap);
  }
  FFI_CORE_ASSIGN_OR_RETURN(Shape s, Shape::FromDims(dims, static_cast<size_t>(ndim)));
  *rv = Any(s);
  return Status::Ok();
}

// match_prim_value(value, heap, code, reg, err_ctx)
Status MatchPrimValue(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 5, "match_prim_value"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t value, args[0].As<int64_t>());
  return CheckShapeCodes(&value, 1, args, 2, HeapOf(args[1]), ContextOf(args[4]));
}

// make_prim_value(heap, code, reg)
Status MakePrimValue(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 3, "make_prim_value"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t code, args[1].As<int64_t>());
  FFI_CORE_ASSIGN_OR_RETURN(int64_t reg, args[2].As<int64_t>());
  *rv = Any(LoadOrImm(code, reg, HeapOf(args[0])));
  return Status::Ok();
}

// The builtins' refusals below are cold and out of line: a builtin's frame,
// on the stack under every compiled call, then holds no message.
[[gnu::cold, gnu::noinline]] Status WrongNdim(const ErrorContext& ctx, const char* what,
                                              int64_t want, int64_t got) {
  return RaiseError(ErrorKind::kValueError,
                    {TextOf(ctx).c_str(), " expect ", what, " with ndim ", want, " but get ", got});
}

[[gnu::cold, gnu::noinline]] Status WrongDtype(const ErrorContext& ctx, DLDataType want,
                                               DLDataType got) {
  char want_name[kDataTypeNameCapacity];
  char got_name[kDataTypeNameCapacity];
  size_t n = 0;
  if (!DataTypeToString(want, want_name, &n).ok()) want_name[0] = '\0';
  if (!DataTypeToString(got, got_name, &n).ok()) got_name[0] = '\0';
  return RaiseError(ErrorKind::kValueError, {TextOf(ctx).c_str(), " expect Tensor with dtype ",
                                             want_name, " but get ", got_name});
}

// check_tensor_info(value, ndim[, dtype], err_ctx)
Status CheckTensorInfo(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 3, "check_tensor_info"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t ndim, args[1].As<int64_t>());
  const bool has_dtype = args.size() >= 4 && !args[2].is_none();
  const ErrorContext ctx = ContextOf(args[args.size() >= 4 ? 3 : 2]);
  DLTensor* t = nullptr;
  if (args[0].TryAs(&t) != Conversion::kOk) return WrongType(ctx, "Tensor", args[0]);
  if (ndim != -1 && t->ndim != ndim) return WrongNdim(ctx, "Tensor", ndim, t->ndim);
  if (has_dtype) {
    FFI_CORE_ASSIGN_OR_RETURN(DLDataType want, args[2].As<DLDataType>());
    if (want.code != t->dtype.code || want.bits != t->dtype.bits || want.lanes != t->dtype.lanes) {
      return WrongDtype(ctx, want, t->dtype);
    }
  }
  return Status::Ok();
}

// check_shape_info(value, ndim, err_ctx)
Status CheckShapeInfo(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 3, "check_shape_info"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t ndim, args[1].As<int64_t>());
  const ErrorContext ctx = ContextOf(args[2]);
  if (args[0].type_index() != kTVMFFIShape) return WrongType(ctx, "Shape", args[0]);
  const Shape s = args[0].As<Shape>().value();
  if (ndim != -1 && static_cast<int64_t>(s.size()) != ndim) {
    return WrongNdim(ctx, "Shape", ndim, static_cast<int64_t>(s.size()));
  }
  return Status::Ok();
}

// check_tuple_info(value, size, err_ctx)
Status CheckTupleInfo(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 3, "check_tuple_info"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t size, args[1].As<int64_t>());
  const ErrorContext ctx = ContextOf(args[2]);
  if (args[0].type_index() != kTVMFFIArray) return WrongType(ctx, "Tuple", args[0]);
  const TVMFFISeqCell* cell = ArrayCellOf(args[0]);
  if (cell->size != size) {
    return RaiseError(ErrorKind::kValueError, {TextOf(ctx).c_str(), " expect a Tuple with ", size,
                                               " elements,  but get a Tuple with ",
                                               static_cast<long long>(cell->size), " elements."});
  }
  return Status::Ok();
}

// check_prim_value_info(value, dtype, err_ctx)
Status CheckPrimValueInfo(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 3, "check_prim_value_info"));
  FFI_CORE_ASSIGN_OR_RETURN(DLDataType dtype, args[1].As<DLDataType>());
  const ErrorContext ctx = ContextOf(args[2]);
  const int32_t index = args[0].type_index();
  bool ok = index < kTVMFFIStaticObjectBegin;
  if (ok && dtype.code == kDLBool) ok = index == kTVMFFIBool || index == kTVMFFIInt;
  if (ok && (dtype.code == kDLInt || dtype.code == kDLUInt)) {
    ok = index == kTVMFFIInt || index == kTVMFFIBool;
  }
  if (ok && dtype.code == kDLFloat) {
    ok = index == kTVMFFIFloat || index == kTVMFFIInt || index == kTVMFFIBool;
  }
  if (!ok) {
    return RaiseError(
        ErrorKind::kTypeError,
        {TextOf(ctx).c_str(), ", expected a primitive value, but received ", TypeName(args[0])});
  }
  return Status::Ok();
}

// check_string_info(value, err_ctx)
Status CheckStringInfo(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 2, "check_string_info"));
  const int32_t index = args[0].type_index();
  if (index != kTVMFFIStr && index != kTVMFFISmallStr) {
    return RaiseError(ErrorKind::kTypeError,
                      {TextOf(ContextOf(args[1])).c_str(), " expect a string"});
  }
  return Status::Ok();
}

// check_func_info(value, err_ctx)
Status CheckFuncInfo(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 2, "check_func_info"));
  if (args[0].type_index() != kTVMFFIFunction) {
    return WrongType(ContextOf(args[1]), "Function", args[0]);
  }
  return Status::Ok();
}

// The storage as an owned Any.
Any StorageAny(StorageObj* storage) {
  TVMFFIAny raw = NoneAny();
  raw.type_index = storage->header.type_index;
  raw.v_obj = &storage->header;
  return Any::AdoptRaw(raw);
}

Status BadStorageSize() {
  return RaiseError(ErrorKind::kValueError, {"vm.builtin.alloc_storage: bad size"});
}

// alloc_storage(ctx, size: Shape, device_index, dtype_hint, mem_scope). Inside
// a VM call (ctx a live state) the storage is kept in the state's pool and
// handed out again on the next call.
Status AllocStorage(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 4, "alloc_storage"));
  FFI_CORE_ASSIGN_OR_RETURN(Shape shape, args[1].As<Shape>());
  FFI_CORE_ASSIGN_OR_RETURN(DLDataType hint, args[3].As<DLDataType>());
  // Each factor and each product within int32, so that nothing overflows
  // int64 and no division is needed (a 64-bit one is a library call on
  // these cores); the byte count checked against the address space.
  int64_t numel = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0 || shape[i] > INT32_MAX) return BadStorageSize();
    numel *= shape[i];
    if (numel > INT32_MAX) return BadStorageSize();
  }
  const uint64_t bytes64 = static_cast<uint64_t>(numel) * detail::ElementBytes(hint);
  constexpr uint64_t kAddressable = SIZE_MAX;
  if (bytes64 > kAddressable) return BadStorageSize();
  const size_t bytes = static_cast<size_t>(bytes64);
  VMStateObj* state = nullptr;
  if (StorageObj* kept = PoolTakeStorage(args[0].raw(), bytes, &state)) {
    *rv = StorageAny(kept);
    return Status::Ok();
  }
  FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<StorageObj> storage, NewStorage(bytes, kStorageAlignment));
  if (state != nullptr) PoolKeepStorage(state, storage.get());
  *rv = StorageAny(storage.release());
  return Status::Ok();
}

// A tensor's view of its storage: keeps the storage alive. The tensor's
// layout is checked before AllocData sees it (FromNDAlloc), so its byte
// count cannot overflow and the shape is checked once per alloc_tensor. Its
// strides are already the compact ones: the element count is the outermost
// size times its stride.
[[gnu::cold, gnu::noinline]] Status StorageTooSmall(size_t needed, int64_t offset, size_t size) {
  return RaiseError(ErrorKind::kValueError,
                    {"storage allocation failure, attempted to allocate ", needed, " at offset ",
                     offset, " in region that is ", size, "bytes"});
}

struct StorageView {
  ObjectPtr<StorageObj> storage;
  int64_t offset;
  Status AllocData(DLTensor* t) {
    const int64_t numel = t->ndim == 0 ? 1 : t->shape[0] * t->strides[0];
    const size_t needed = DataSize(numel, t->dtype);
    if (offset < 0 || static_cast<size_t>(offset) > storage->size ||
        needed > storage->size - static_cast<size_t>(offset)) {
      return StorageTooSmall(needed, offset, storage->size);
    }
    t->data = storage->data;
    t->byte_offset = static_cast<uint64_t>(offset);
    return Status::Ok();
  }
  void FreeData(DLTensor*) {}
};

}  // namespace

Expected<Tensor> StorageTensor(StorageObj* storage, int64_t offset, IntSpan shape,
                               DLDataType dtype) {
  return Tensor::FromNDAlloc(StorageView{ObjectPtr<StorageObj>::Retain(storage), offset}, shape,
                             dtype, DLDevice{kDLCPU, 0});
}

namespace {

[[gnu::cold, gnu::noinline]] Status NotStorage(const AnyView& got) {
  return RaiseError(ErrorKind::kTypeError,
                    {"vm.builtin.alloc_tensor: expects a Storage, but get ", TypeName(got)});
}

// alloc_tensor(storage, offset, shape, dtype[, scope]). A tensor of a kept
// storage is kept too (VMPool): the next call's same request takes it again.
Status AllocTensor(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 4, "alloc_tensor"));
  StorageObj* storage = AsStorage(args[0].raw());
  if (storage == nullptr) return NotStorage(args[0]);
  // What compiled code passes (an int, a dtype) is read as it is; another
  // form goes through the conversions and their errors.
  int64_t offset = args[1].raw().v_int64;
  if (args[1].type_index() != kTVMFFIInt) {
    FFI_CORE_ASSIGN_OR_RETURN(offset, args[1].As<int64_t>());
  }
  DLDataType dtype = args[3].raw().v_dtype;
  if (args[3].type_index() != kTVMFFIDataType) {
    FFI_CORE_ASSIGN_OR_RETURN(dtype, args[3].As<DLDataType>());
  }
  // The shape is read where it is (the call holds it): no reference taken.
  Shape shape;
  if (args[2].type_index() != kTVMFFIShape) {
    FFI_CORE_ASSIGN_OR_RETURN(shape, args[2].As<Shape>());
  }
  const TVMFFIShapeCell& cell = args[2].type_index() == kTVMFFIShape
                                    ? reinterpret_cast<ShapeObj*>(args[2].raw().v_obj)->cell
                                    : shape.object()->cell;
  const IntSpan dims{cell.data, static_cast<int32_t>(cell.size)};
  if (TVMFFIObject* kept = PoolTakeTensor(storage, offset, dims, dtype)) {
    TVMFFIAny raw = NoneAny();
    raw.type_index = kTVMFFITensor;
    raw.v_obj = kept;
    *rv = Any::AdoptRaw(raw);
    return Status::Ok();
  }
  FFI_CORE_ASSIGN_OR_RETURN(Tensor t, StorageTensor(storage, offset, dims, dtype));
  PoolKeepTensor(storage, &t.object().get()->header);
  *rv = Any(t);
  return Status::Ok();
}

Status NullValue(PackedArgs, Any* rv) {
  *rv = Any();
  return Status::Ok();
}

Status Copy(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 1, "copy"));
  FFI_CORE_ASSIGN_OR_RETURN(*rv, Any::FromView(args[0]));
  return Status::Ok();
}

Status ShapeOf(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 1, "shape_of"));
  FFI_CORE_ASSIGN_OR_RETURN(DLTensor * t, TensorArg(args[0], "shape_of"));
  FFI_CORE_ASSIGN_OR_RETURN(Shape s, Shape::FromDims(t->shape, static_cast<size_t>(t->ndim)));
  *rv = Any(s);
  return Status::Ok();
}

// A view sharing data with a tensor (kept alive when it is an object).
struct Borrowed {
  Any source;
  void* data;
  uint64_t byte_offset;
  Status AllocData(DLTensor* t) {
    t->data = data;
    t->byte_offset = byte_offset;
    return Status::Ok();
  }
  void FreeData(DLTensor*) {}
};

[[gnu::cold, gnu::noinline]] Status CannotReshape(const DLTensor& t, int64_t numel) {
  return RaiseError(ErrorKind::kValueError,
                    {"vm.builtin.reshape: cannot view ", detail::Numel(t), " elements as ", numel,
                     (detail::IsContiguous(t) ? "" : " (not contiguous)")});
}

// reshape(value, shape): same data, new compact shape of as many elements.
Status Reshape(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 2, "reshape"));
  FFI_CORE_ASSIGN_OR_RETURN(DLTensor * t, TensorArg(args[0], "reshape"));
  FFI_CORE_ASSIGN_OR_RETURN(Shape shape, args[1].As<Shape>());
  const IntSpan dims{shape.data(), static_cast<int32_t>(shape.size())};
  int64_t numel = 1;
  for (int32_t i = 0; i < dims.size; ++i) numel *= dims.data[i];
  if (numel != detail::Numel(*t) || !detail::IsContiguous(*t)) return CannotReshape(*t, numel);
  FFI_CORE_ASSIGN_OR_RETURN(Any source, Any::FromView(args[0]));
  FFI_CORE_ASSIGN_OR_RETURN(
      Tensor view, Tensor::FromNDAlloc(Borrowed{std::move(source), t->data, t->byte_offset}, dims,
                                       t->dtype, t->device));
  *rv = Any(view);
  return Status::Ok();
}

Status MakeTuple(PackedArgs args, Any* rv) {
  // A tuple is an Array, as upstream represents it.
  FFI_CORE_ASSIGN_OR_RETURN(Array arr,
                            Array::FromViews(args.data(), static_cast<size_t>(args.size())));
  *rv = Any(arr);
  return Status::Ok();
}

Status TupleGetItem(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 2, "tuple_getitem"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t index, args[1].As<int64_t>());
  FFI_CORE_ASSIGN_OR_RETURN(const TVMFFISeqCell* cell, ArrayArg(args[0], "tuple_getitem"));
  if (index < 0 || index >= cell->size) {
    return RaiseError(ErrorKind::kIndexError,
                      {"vm.builtin.tuple_getitem: index ", index, " out of range for ",
                       static_cast<long long>(cell->size)});
  }
  *rv = static_cast<const Any*>(cell->data)[index];
  return Status::Ok();
}

// tuple_reset_item(tuple, index): drops the item early (the planner frees it).
Status TupleResetItem(PackedArgs args, Any*) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 2, "tuple_reset_item"));
  FFI_CORE_ASSIGN_OR_RETURN(int64_t index, args[1].As<int64_t>());
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFISeqCell * cell, ArrayArg(args[0], "tuple_reset_item"));
  if (index < 0 || index >= cell->size) {
    return RaiseError(ErrorKind::kIndexError, {"vm.builtin.tuple_reset_item: index ", index});
  }
  static_cast<Any*>(cell->data)[index].reset();
  return Status::Ok();
}

// tensor_to_shape(tensor): a 1-D int16/32/64 CPU tensor's values as a Shape.
Status TensorToShape(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 1, "tensor_to_shape"));
  FFI_CORE_ASSIGN_OR_RETURN(DLTensor * t, TensorArg(args[0], "tensor_to_shape"));
  const int bits = t->dtype.bits;
  if (t->ndim != 1 || t->dtype.code != kDLInt || (bits != 16 && bits != 32 && bits != 64) ||
      t->device.device_type != kDLCPU || t->shape[0] > FFI_CORE_TENSOR_MAX_NDIM) {
    return RaiseError(ErrorKind::kValueError,
                      {"vm.builtin.tensor_to_shape: expects a short 1-D int CPU tensor"});
  }
  int64_t dims[FFI_CORE_TENSOR_MAX_NDIM];
  const char* data = static_cast<const char*>(t->data) + t->byte_offset;
  for (int64_t i = 0; i < t->shape[0]; ++i) {
    if (bits == 16) dims[i] = reinterpret_cast<const int16_t*>(data)[i];
    if (bits == 32) dims[i] = reinterpret_cast<const int32_t*>(data)[i];
    if (bits == 64) dims[i] = reinterpret_cast<const int64_t*>(data)[i];
  }
  FFI_CORE_ASSIGN_OR_RETURN(Shape s, Shape::FromDims(dims, static_cast<size_t>(t->shape[0])));
  *rv = Any(s);
  return Status::Ok();
}

// read_if_cond(cond): a bool, int or one-element tensor as a branch condition.
Status ReadIfCond(PackedArgs args, Any* rv) {
  FFI_CORE_RETURN_IF_ERROR(Need(args, 1, "read_if_cond"));
  DLTensor* t = nullptr;
  if (args[0].TryAs(&t) != Conversion::kOk) {
    FFI_CORE_ASSIGN_OR_RETURN(int64_t v, args[0].As<int64_t>());
    *rv = Any(v != 0);
    return Status::Ok();
  }
  if (t->device.device_type != kDLCPU || detail::Numel(*t) < 1) {
    return RaiseError(ErrorKind::kValueError, {"vm.builtin.read_if_cond: expects a CPU scalar"});
  }
  const uint8_t* p = static_cast<const uint8_t*>(t->data) + t->byte_offset;
  bool value = false;
  for (int i = 0; i < (t->dtype.bits + 7) / 8; ++i) value = value || p[i] != 0;
  *rv = Any(value);
  return Status::Ok();
}

// Named after "vm.builtin.".
constexpr detail::Builtin kBuiltins[] = {
    {"alloc_shape_heap", &AllocShapeHeap},
    {"match_shape", &MatchShape},
    {"make_shape", &MakeShape},
    {"match_prim_value", &MatchPrimValue},
    {"make_prim_value", &MakePrimValue},
    {"check_tensor_info", &CheckTensorInfo},
    {"check_shape_info", &CheckShapeInfo},
    {"check_tuple_info", &CheckTupleInfo},
    {"alloc_storage", &AllocStorage},
    {"alloc_tensor", &AllocTensor},
    {"null_value", &NullValue},
    {"copy", &Copy},
    {"shape_of", &ShapeOf},
    {"reshape", &Reshape},
    {"make_tuple", &MakeTuple},
    {"tuple_getitem", &TupleGetItem},
    {"read_if_cond", &ReadIfCond},
    {"check_prim_value_info", &CheckPrimValueInfo},
    {"check_string_info", &CheckStringInfo},
    {"check_func_info", &CheckFuncInfo},
    {"tuple_reset_item", &TupleResetItem},
    {"tensor_to_shape", &TensorToShape},
};
constexpr char kPrefix[] = "vm.builtin.";

}  // namespace

Expected<Function> FindBuiltin(const char* name, size_t size) {
  constexpr size_t kPrefixSize = sizeof(kPrefix) - 1;
  if (size <= kPrefixSize || std::memcmp(name, kPrefix, kPrefixSize) != 0) return Function();
  return detail::MakeBuiltin(kBuiltins, name + kPrefixSize, size - kPrefixSize);
}

}  // namespace tvm_vm
}  // namespace ffi_core
