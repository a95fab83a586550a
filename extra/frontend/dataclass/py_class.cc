#include "dataclass/py_class.h"

#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/object.h>
#include <ffi_core/string.h>
#include <ffi_core/type_traits.h>

#include <cstring>
#include <initializer_list>

#include "dataclass/object_fields.h"
#include "global_table.h"
#include "text_builder.h"

namespace ffi_core {
namespace frontend {
namespace {

const TVMFFIObject* g_kwargs = nullptr;

// How a field is kept in the object: a 16-byte Any, an object pointer (NULL
// for None), or plain bytes.
enum class Storage { kAny, kObject, kPlain };

Storage StorageOf(const TVMFFIFieldInfo& f) {
  if (f.field_static_type_index == kTVMFFIAny) {
    // A C++ parent may keep an object pointer under a field declared Any.
    return f.size == static_cast<int64_t>(sizeof(void*)) ? Storage::kObject : Storage::kAny;
  }
  return f.field_static_type_index >= kTVMFFIStaticObjectBegin ? Storage::kObject : Storage::kPlain;
}

// ---- field getters: C functions that read a field into an owned value ----

template <typename T>
T Load(const void* field) {
  T v;
  std::memcpy(&v, field, sizeof(T));
  return v;
}

int GetInt(void* field, TVMFFIAny* out) {
  *out = Any(Load<int64_t>(field)).ReleaseRaw();
  return 0;
}
int GetFloat(void* field, TVMFFIAny* out) {
  *out = Any(Load<double>(field)).ReleaseRaw();
  return 0;
}
int GetBool(void* field, TVMFFIAny* out) {
  *out = Any(Load<bool>(field)).ReleaseRaw();
  return 0;
}
int GetPointer(void* field, TVMFFIAny* out) {
  *out = Any(Load<void*>(field)).ReleaseRaw();
  return 0;
}
int GetDataType(void* field, TVMFFIAny* out) {
  *out = Any(Load<DLDataType>(field)).ReleaseRaw();
  return 0;
}
int GetDevice(void* field, TVMFFIAny* out) {
  *out = Any(Load<DLDevice>(field)).ReleaseRaw();
  return 0;
}
int GetAny(void* field, TVMFFIAny* out) {
  TVMFFIAny v = Load<TVMFFIAny>(field);
  if (v.type_index >= kTVMFFIStaticObjectBegin) ObjectIncRef(v.v_obj);
  *out = v;
  return 0;
}

// NULL for a type index no field is stored as.
TVMFFIFieldGetter GetterFor(int32_t type_index) {
  switch (type_index) {
    case kTVMFFIInt:
      return &GetInt;
    case kTVMFFIFloat:
      return &GetFloat;
    case kTVMFFIBool:
      return &GetBool;
    case kTVMFFIOpaquePtr:
      return &GetPointer;
    case kTVMFFIDataType:
      return &GetDataType;
    case kTVMFFIDevice:
      return &GetDevice;
    case kTVMFFIAny:
    case kTVMFFINone:
      return &GetAny;
    default:
      return type_index >= kTVMFFIStaticObjectBegin ? &GetObjectField : nullptr;
  }
}

Status MakeFieldGetter(PackedArgs args, Any* rv) {
  if (args.size() != 1) {
    return RaiseError(ErrorKind::kTypeError, {"ffi.MakeFieldGetter(type_index): 1 argument"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(int64_t type_index, args[0].As<int64_t>());
  const TVMFFIFieldGetter getter = GetterFor(static_cast<int32_t>(type_index));
  if (getter == nullptr) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.MakeFieldGetter: no field getter for type index ", type_index});
  }
  // The package carries function pointers as integers.
  *rv = Any(static_cast<int64_t>(reinterpret_cast<intptr_t>(getter)));
  return Status::Ok();
}

// ---- field setters: Functions (field address, value) ----

// Stores `value` (owned; consumed) into a field of the given type.
Status Store(void* field, int32_t type_index, int64_t size, Any value) {
  const AnyView view(value);
  switch (type_index) {
    case kTVMFFIInt: {
      FFI_CORE_ASSIGN_OR_RETURN(int64_t v, view.As<int64_t>());
      std::memcpy(field, &v, sizeof(v));
      return Status::Ok();
    }
    case kTVMFFIFloat: {
      FFI_CORE_ASSIGN_OR_RETURN(double v, view.As<double>());
      std::memcpy(field, &v, sizeof(v));
      return Status::Ok();
    }
    case kTVMFFIBool: {
      FFI_CORE_ASSIGN_OR_RETURN(bool v, view.As<bool>());
      std::memcpy(field, &v, sizeof(v));
      return Status::Ok();
    }
    case kTVMFFIOpaquePtr: {
      FFI_CORE_ASSIGN_OR_RETURN(void* v, view.As<void*>());
      std::memcpy(field, &v, sizeof(v));
      return Status::Ok();
    }
    case kTVMFFIDataType: {
      FFI_CORE_ASSIGN_OR_RETURN(DLDataType v, view.As<DLDataType>());
      std::memcpy(field, &v, sizeof(v));
      return Status::Ok();
    }
    case kTVMFFIDevice: {
      FFI_CORE_ASSIGN_OR_RETURN(DLDevice v, view.As<DLDevice>());
      std::memcpy(field, &v, sizeof(v));
      return Status::Ok();
    }
    default:
      break;
  }
  const bool any_storage = (type_index == kTVMFFIAny || type_index == kTVMFFINone) &&
                           size != static_cast<int64_t>(sizeof(void*));
  if (any_storage) {
    TVMFFIAny old = Load<TVMFFIAny>(field);
    const TVMFFIAny next = value.ReleaseRaw();
    std::memcpy(field, &next, sizeof(next));
    static_cast<void>(Any::AdoptRaw(old));  // released
    return Status::Ok();
  }
  if (type_index >= kTVMFFIStaticObjectBegin || type_index == kTVMFFIAny) {
    TVMFFIObject* next = nullptr;
    if (value.type_index() != kTVMFFINone) {
      if (value.type_index() < kTVMFFIStaticObjectBegin) {
        return RaiseError(
            ErrorKind::kTypeError,
            {"field setter: expected an object or None, got type index ", value.type_index()});
      }
      next = value.ReleaseRaw().v_obj;
    }
    TVMFFIObject* old = Load<TVMFFIObject*>(field);
    std::memcpy(field, &next, sizeof(next));
    if (old != nullptr) ObjectDecRef(old);
    return Status::Ok();
  }
  return RaiseError(ErrorKind::kValueError,
                    {"field setter: no storage for type index ", type_index});
}

// A setter's state: the field type and the package's converter.
using ConvertFn = int (*)(void* converter, const TVMFFIAny* value, TVMFFIAny* out);
struct Setter {
  int32_t type_index;
  int64_t size;
  void* converter;
  ConvertFn convert;
  Status operator()(PackedArgs args, Any* rv) const {
    if (args.size() != 2) {
      return RaiseError(ErrorKind::kTypeError, {"field setter(address, value): 2 arguments"});
    }
    FFI_CORE_ASSIGN_OR_RETURN(void* field, args[0].As<void*>());
    if (field == nullptr) return RaiseError(ErrorKind::kValueError, {"field setter: NULL field"});
    TVMFFIAny converted = NoneAny();
    if (convert(converter, &args[1].raw(), &converted) != 0) return StatusFromPendingError();
    FFI_CORE_RETURN_IF_ERROR(Store(field, type_index, size, Any::AdoptRaw(converted)));
    *rv = Any();
    return Status::Ok();
  }
};

Status MakeFieldSetter(PackedArgs args, Any* rv) {
  if (args.size() != 3) {
    return RaiseError(ErrorKind::kTypeError,
                      {"ffi.MakeFieldSetter(type_index, converter, convert): 3 arguments"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(int64_t type_index, args[0].As<int64_t>());
  FFI_CORE_ASSIGN_OR_RETURN(int64_t converter, args[1].As<int64_t>());
  FFI_CORE_ASSIGN_OR_RETURN(int64_t convert, args[2].As<int64_t>());
  if (convert == 0)
    return RaiseError(ErrorKind::kValueError, {"ffi.MakeFieldSetter: NULL convert"});
  // Any fields are 16 bytes; the size tells them from object fields kept
  // under kTVMFFIAny by C++ parents, which Python-defined fields never are.
  const Setter setter{static_cast<int32_t>(type_index), static_cast<int64_t>(sizeof(TVMFFIAny)),
                      reinterpret_cast<void*>(static_cast<intptr_t>(converter)),
                      reinterpret_cast<ConvertFn>(static_cast<intptr_t>(convert))};
  FFI_CORE_ASSIGN_OR_RETURN(Function f, Function::FromPacked(setter));
  *rv = Any(f);
  return Status::Ok();
}

// ---- objects of a Python-defined type ----

void PyClassDeleter(void* self, int flags) {
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    if (const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index)) {
      ForEachField(info, [obj](const TVMFFIFieldInfo& f) {
        char* field = FieldAt(obj, f);
        switch (StorageOf(f)) {
          case Storage::kAny:
            static_cast<void>(Any::AdoptRaw(Load<TVMFFIAny>(field)));
            break;
          case Storage::kObject:
            if (TVMFFIObject* held = Load<TVMFFIObject*>(field)) ObjectDecRef(held);
            break;
          case Storage::kPlain:
            break;
        }
      });
    }
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectStorage(self);
}

// A zeroed object of the type: every Any field None, every object field NULL.
Expected<ObjectPtr<TVMFFIObject>> NewEmpty(int32_t type_index, int64_t total_size) {
  void* body = detail::AllocateObjectBodyAtHeaderAlign(static_cast<size_t>(total_size), type_index);
  if (body == nullptr) return StatusFromPendingError();
  std::memset(body, 0, static_cast<size_t>(total_size));
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(body);
  InitObjectHeader(obj, type_index, &PyClassDeleter);
  return ObjectPtr<TVMFFIObject>::Adopt(obj);
}

Any AsAny(ObjectPtr<TVMFFIObject> obj) {
  TVMFFIAny raw = NoneAny();
  raw.type_index = obj->type_index;
  raw.v_obj = obj.release();
  return Any::AdoptRaw(raw);
}

// Re-raises the pending error under a heading, as upstream nests a field's
// conversion error: "heading:" then the message, each line indented.
Status RaiseNested(ErrorKind kind, std::initializer_list<const char*> heading) {
  Error e = Error::MoveFromRaised();
  const TVMFFIByteArray m = e ? e.message() : TVMFFIByteArray{"", 0};
  TextBuilder text;
  Status s = Status::Ok();
  for (const char* part : heading) {
    if (s.ok()) s = text.Append(part);
  }
  if (s.ok()) s = text.Append(":\n  ");
  for (size_t i = 0, start = 0; s.ok() && i <= m.size; ++i) {
    if (i == m.size || m.data[i] == '\n') {
      s = text.Append(m.data + start, i - start);
      if (s.ok() && i < m.size) s = text.Append("\n  ");
      start = i + 1;
    }
  }
  if (s.ok()) s = text.Append("", 1);  // NUL
  if (!s.ok()) return s;
  return RaiseError(kind, {text.data()});
}

// "__ffi_init__": binds positional arguments, then (after the kwargs
// sentinel) name/value pairs, to the fields in upstream's order: positional
// fields with no default first. Unbound fields take their defaults. A
// Python-defined type's object is `total_size` zeroed bytes; a C++ type's
// (total_size < 0, ffi._RegisterFFIInit) comes from its creator.
struct Init {
  int32_t type_index;
  int64_t total_size;
  Status operator()(PackedArgs args, Any* rv) const;
};

constexpr int32_t kMaxInitFields = 256;

Status Init::operator()(PackedArgs args, Any* rv) const {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) return RaiseError(ErrorKind::kKeyError, {"__ffi_init__: type is gone"});
  const TVMFFIFieldInfo* fields[kMaxInitFields];
  int32_t n = 0;
  bool too_many = false;
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (n < kMaxInitFields) {
      fields[n++] = &f;
    } else {
      too_many = true;
    }
  });
  if (too_many) {
    return RaiseError(ErrorKind::kValueError,
                      {KeyOf(info), ".__ffi_init__: more than ", kMaxInitFields, " fields"});
  }
  auto init = [](const TVMFFIFieldInfo* f) { return !(f->flags & kTVMFFIFieldFlagBitMaskInitOff); };
  auto kw_only = [](const TVMFFIFieldInfo* f) {
    return (f->flags & kTVMFFIFieldFlagBitMaskKwOnly) != 0;
  };
  auto has_default = [](const TVMFFIFieldInfo* f) {
    return (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0;
  };
  // Positional order: init, not keyword-only; required before defaulted.
  int32_t positional[kMaxInitFields];
  int32_t num_positional = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int32_t i = 0; i < n; ++i) {
      if (init(fields[i]) && !kw_only(fields[i]) && has_default(fields[i]) == (pass == 1)) {
        positional[num_positional++] = i;
      }
    }
  }
  int32_t kwargs_at = -1;
  for (int32_t i = 0; i < args.size(); ++i) {
    if (args[i].type_index() >= kTVMFFIStaticObjectBegin && args[i].raw().v_obj == g_kwargs) {
      kwargs_at = i;
      break;
    }
  }
  const int32_t num_pos_args = kwargs_at >= 0 ? kwargs_at : args.size();
  if (num_pos_args > num_positional) {
    return RaiseError(ErrorKind::kTypeError,
                      {KeyOf(info), ".__ffi_init__() takes at most ", num_positional,
                       " positional argument(s), but ", num_pos_args, " were given"});
  }
  ObjectPtr<TVMFFIObject> obj;
  if (total_size >= 0) {
    FFI_CORE_ASSIGN_OR_RETURN(obj, NewEmpty(type_index, total_size));
  } else {
    FFI_CORE_ASSIGN_OR_RETURN(Any made, NewEmptyObject(info));
    obj = ObjectPtr<TVMFFIObject>::Retain(made.raw().v_obj);
  }
  bool set[kMaxInitFields] = {};
  auto bind = [&](int32_t i, const TVMFFIAny& value, const char* what) -> Status {
    Status s = WriteField(obj.get(), *fields[i], value);
    if (!s.ok()) {
      return RaiseNested(s.kind(),
                         {KeyOf(info), ".__ffi_init__() ", what, " '", fields[i]->name.data, "'"});
    }
    set[i] = true;
    return Status::Ok();
  };
  for (int32_t a = 0; a < num_pos_args; ++a) {
    FFI_CORE_RETURN_IF_ERROR(bind(positional[a], args[a].raw(), "field"));
  }
  if (kwargs_at >= 0) {
    if ((args.size() - kwargs_at - 1) % 2 != 0) {
      return RaiseError(
          ErrorKind::kTypeError,
          {KeyOf(info), ".__ffi_init__() KWARGS requires an even number of key-value arguments"});
    }
    for (int32_t a = kwargs_at + 1; a < args.size(); a += 2) {
      FFI_CORE_ASSIGN_OR_RETURN(String key, args[a].As<String>());
      int32_t found = -1;
      for (int32_t i = 0; i < n; ++i) {
        if (init(fields[i]) && key.Equals(fields[i]->name.data, fields[i]->name.size)) found = i;
      }
      if (found < 0) {
        return RaiseError(ErrorKind::kTypeError, {KeyOf(info),
                                                  ".__ffi_init__() got an unexpected keyword "
                                                  "argument '",
                                                  key.data(), "'"});
      }
      if (set[found]) {
        return RaiseError(
            ErrorKind::kTypeError,
            {KeyOf(info), ".__ffi_init__() got multiple values for argument '", key.data(), "'"});
      }
      FFI_CORE_RETURN_IF_ERROR(bind(found, args[a + 1].raw(), "field"));
    }
  }
  for (int32_t i = 0; i < n; ++i) {
    if (set[i]) continue;
    if (has_default(fields[i])) {
      Status s = WriteFieldDefault(obj.get(), *fields[i]);
      if (!s.ok()) {
        return RaiseNested(s.kind(), {KeyOf(info), ".__ffi_init__() default for field '",
                                      fields[i]->name.data, "'"});
      }
    } else if (init(fields[i])) {
      return RaiseError(ErrorKind::kTypeError,
                        {KeyOf(info), ".__ffi_init__() missing required ",
                         kw_only(fields[i]) ? "keyword-only argument: '" : "argument: '",
                         fields[i]->name.data, "'"});
    }
  }
  *rv = AsAny(std::move(obj));
  return Status::Ok();
}

struct New {
  int32_t type_index;
  int64_t total_size;
  Status operator()(PackedArgs args, Any* rv) const {
    if (args.size() != 0) return RaiseError(ErrorKind::kTypeError, {"__ffi_new__(): no arguments"});
    FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<TVMFFIObject> obj, NewEmpty(type_index, total_size));
    *rv = AsAny(std::move(obj));
    return Status::Ok();
  }
};

struct ShallowCopy {
  int32_t type_index;
  int64_t total_size;
  Status operator()(PackedArgs args, Any* rv) const {
    if (args.size() != 1 || args[0].type_index() != type_index) {
      return RaiseError(ErrorKind::kTypeError,
                        {"__ffi_shallow_copy__(self): one object of type index ", type_index});
    }
    TVMFFIObject* src = args[0].raw().v_obj;
    FFI_CORE_ASSIGN_OR_RETURN(ObjectPtr<TVMFFIObject> obj, NewEmpty(type_index, total_size));
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    ForEachField(info, [&](const TVMFFIFieldInfo& f) {
      char* to = FieldAt(obj.get(), f);
      const char* from = FieldAt(src, f);
      std::memcpy(to, from, static_cast<size_t>(f.size));
      if (StorageOf(f) == Storage::kAny) {
        const TVMFFIAny v = Load<TVMFFIAny>(to);
        if (v.type_index >= kTVMFFIStaticObjectBegin) ObjectIncRef(v.v_obj);
      } else if (StorageOf(f) == Storage::kObject) {
        if (TVMFFIObject* held = Load<TVMFFIObject*>(to)) ObjectIncRef(held);
      }
    });
    *rv = AsAny(std::move(obj));
    return Status::Ok();
  }
};

template <typename Callable>
Status RegisterAttr(int32_t type_index, const char* name, Callable callable) {
  FFI_CORE_ASSIGN_OR_RETURN(Function f, Function::FromPacked(callable));
  const TVMFFIByteArray attr{name, std::strlen(name)};
  const Any value(f);
  if (TVMFFITypeRegisterAttr(type_index, &attr, &value.raw()) != 0) return StatusFromPendingError();
  return Status::Ok();
}

Status RegisterTypeAttrColumns(PackedArgs args, Any* rv) {
  if (args.size() != 2) {
    return RaiseError(ErrorKind::kTypeError,
                      {"ffi._PyClassRegisterTypeAttrColumns(type_index, total_size): 2 arguments"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(int64_t type_index, args[0].As<int64_t>());
  FFI_CORE_ASSIGN_OR_RETURN(int64_t total_size, args[1].As<int64_t>());
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(static_cast<int32_t>(type_index));
  if (info == nullptr || type_index < kTVMFFIDynObjectBegin) {
    return RaiseError(ErrorKind::kValueError, {"ffi._PyClassRegisterTypeAttrColumns: type index ",
                                               type_index, " is not a registered dynamic type"});
  }
  // Every field must lie inside the object, after its header.
  const int64_t kMaxObjectSize = int64_t{1} << 30;
  bool fits =
      total_size >= static_cast<int64_t>(sizeof(TVMFFIObject)) && total_size <= kMaxObjectSize;
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    fits = fits && f.offset >= static_cast<int64_t>(sizeof(TVMFFIObject)) && f.size >= 0 &&
           f.offset + f.size <= total_size;
  });
  if (!fits) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi._PyClassRegisterTypeAttrColumns: ", KeyOf(info), " with size ",
                       total_size, " does not hold its header and fields"});
  }
  const int32_t index = static_cast<int32_t>(type_index);
  FFI_CORE_RETURN_IF_ERROR(RegisterAttr(index, "__ffi_init__", Init{index, total_size}));
  FFI_CORE_RETURN_IF_ERROR(RegisterAttr(index, "__ffi_new__", New{index, total_size}));
  FFI_CORE_RETURN_IF_ERROR(
      RegisterAttr(index, "__ffi_shallow_copy__", ShallowCopy{index, total_size}));
  *rv = Any();
  return Status::Ok();
}

// "ffi._RegisterFFIInit"(type_index): the "__ffi_init__" upstream's C++
// reflection asks the runtime to generate for a class with no explicit one.
Status RegisterFFIInit(PackedArgs args, Any*) {
  if (args.size() != 1) return detail::RaiseArityError("ffi._RegisterFFIInit", 1, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(int64_t index, args[0].As<int64_t>());
  if (TVMFFIGetTypeInfo(static_cast<int32_t>(index)) == nullptr) {
    return RaiseError(ErrorKind::kValueError, {"ffi._RegisterFFIInit: no type with index ", index});
  }
  return RegisterAttr(static_cast<int32_t>(index), "__ffi_init__",
                      Init{static_cast<int32_t>(index), -1});
}

// "ffi.MakeObjectFromPackedArgs"(type key or index, name, value, ...): an
// object with the named fields set and every other one at its default.
Status MakeObjectFromPackedArgs(PackedArgs args, Any* rv) {
  if (args.size() < 1 || args.size() % 2 != 1) {
    return RaiseError(ErrorKind::kTypeError,
                      {"ffi.MakeObjectFromPackedArgs(type, name, value, ...): a type, then "
                       "name/value pairs"});
  }
  int32_t type_index = -1;
  if (args[0].type_index() == kTVMFFIInt) {
    FFI_CORE_ASSIGN_OR_RETURN(int64_t index, args[0].As<int64_t>());
    type_index = static_cast<int32_t>(index);
  } else {
    FFI_CORE_ASSIGN_OR_RETURN(String key, args[0].As<String>());
    const TVMFFIByteArray k{key.data(), key.size()};
    if (TVMFFITypeKeyToIndex(&k, &type_index) != 0) return StatusFromPendingError();
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.MakeObjectFromPackedArgs: no type with index ", type_index});
  }
  const int32_t num_pairs = (args.size() - 1) / 2;
  constexpr int32_t kMaxPairs = 256;
  if (num_pairs > kMaxPairs) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.MakeObjectFromPackedArgs: more than ", kMaxPairs, " fields"});
  }
  String names[kMaxPairs];
  bool used[kMaxPairs] = {};
  for (int32_t p = 0; p < num_pairs; ++p) {
    FFI_CORE_ASSIGN_OR_RETURN(names[p], args[1 + 2 * p].As<String>());
  }
  FFI_CORE_ASSIGN_OR_RETURN(Any made, NewEmptyObject(info));
  TVMFFIObject* obj = made.raw().v_obj;
  Status status = Status::Ok();
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (!status.ok() || (f.flags & kTVMFFIFieldFlagBitMaskIsStaticMethod)) return;
    int32_t found = -1;
    for (int32_t p = 0; p < num_pairs && found < 0; ++p) {
      if (!used[p] && names[p].Equals(f.name.data, f.name.size)) found = p;
    }
    if (found >= 0) used[found] = true;
    status = InitField(obj, info, f, found >= 0 ? &args[2 + 2 * found].raw() : nullptr);
  });
  FFI_CORE_RETURN_IF_ERROR(status);
  for (int32_t p = 0; p < num_pairs; ++p) {
    if (!used[p]) {
      return RaiseError(ErrorKind::kTypeError,
                        {"Type `", KeyOf(info), "` does not have field `", names[p].data(), "`"});
    }
  }
  *rv = std::move(made);
  return Status::Ok();
}

constexpr GlobalEntry kGlobals[] = {
    {"ffi.MakeFieldGetter", &MakeFieldGetter},
    {"ffi.MakeFieldSetter", &MakeFieldSetter},
    {"ffi._PyClassRegisterTypeAttrColumns", &RegisterTypeAttrColumns},
    {"ffi.MakeObjectFromPackedArgs", &MakeObjectFromPackedArgs},
    {"ffi._RegisterFFIInit", &RegisterFFIInit},
};

}  // namespace

Status RegisterPyClassGlobals(const TVMFFIObject* kwargs) {
  g_kwargs = kwargs;
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core
