#include "dataclass/access_path.h"

#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/array.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/object.h>
#include <ffi_core/string.h>
#include <ffi_core/type_table.h>

#include <cstddef>
#include <cstring>
#include <utility>

#include "dataclass/native_type.h"
#include "dataclass/object_fields.h"
#include "scratch.h"
#include "text_builder.h"

namespace ffi_core {
namespace frontend {
namespace {

// Laid out as upstream's AccessStepObj and AccessPathObj.
struct AccessStepObj {
  TVMFFIObject header;
  int32_t kind;
  Any key;
};
struct AccessPathObj {
  TVMFFIObject header;
  TVMFFIObject* parent;  // an AccessPath; NULL at the root
  TVMFFIObject* step;    // an AccessStep; NULL at the root
  int32_t depth;
  ~AccessPathObj() {
    for (TVMFFIObject* o : {parent, step}) {
      if (o != nullptr) ObjectDecRef(o);
    }
  }
};

int32_t g_step_index = -1;
int32_t g_path_index = -1;

const AccessStepObj* StepOf(const AccessPathObj* path) {
  return reinterpret_cast<const AccessStepObj*>(path->step);
}
const AccessPathObj* ParentOf(const AccessPathObj* path) {
  return reinterpret_cast<const AccessPathObj*>(path->parent);
}

Any Adopt(TVMFFIObject* obj) {
  TVMFFIAny raw = NoneAny();
  raw.type_index = obj->type_index;
  raw.v_obj = obj;
  return Any::AdoptRaw(raw);
}

// A new path one step below `parent` (NULL: the root); `step` is adopted.
Expected<Any> NewPath(const AccessPathObj* parent, TVMFFIObject* step) {
  Expected<AccessPathObj*> path = NewObject<AccessPathObj>(g_path_index, 0);
  if (!path.ok()) {
    if (step != nullptr) ObjectDecRef(step);
    return path.status();
  }
  (*path)->step = step;
  (*path)->depth = parent != nullptr ? parent->depth + 1 : 0;
  if (parent != nullptr) {
    (*path)->parent = const_cast<TVMFFIObject*>(&parent->header);
    ObjectIncRef((*path)->parent);
  }
  return Adopt(&(*path)->header);
}

// The object argument i when it is of `type_index`, else a TypeError.
template <typename Obj>
Expected<const Obj*> ObjectArg(PackedArgs args, size_t i, int32_t type_index, const char* method,
                               const char* what) {
  const AnyView arg = args[i];
  if (arg.type_index() != type_index) {
    return RaiseError(ErrorKind::kTypeError, {"ffi.reflection.AccessPath.", method, ": argument #",
                                              static_cast<unsigned long>(i), " is not an ", what,
                                              " (type index ", arg.type_index(), ")"});
  }
  return reinterpret_cast<const Obj*>(arg.raw().v_obj);
}

// self (an AccessPath) and `n` more arguments.
Expected<const AccessPathObj*> Self(PackedArgs args, int32_t n, const char* method) {
  if (args.size() != n + 1) {
    return RaiseError(ErrorKind::kTypeError, {"ffi.reflection.AccessPath.", method, " takes ",
                                              static_cast<unsigned long>(n + 1), " arguments, got ",
                                              static_cast<unsigned long>(args.size())});
  }
  return ObjectArg<AccessPathObj>(args, 0, g_path_index, method, "AccessPath");
}

bool StepEqual(const AccessStepObj* a, const AccessStepObj* b) {
  return a->kind == b->kind && AnyEqual(AnyView(a->key), AnyView(b->key));
}

// As upstream: equal depths, then the steps pairwise up to a shared parent.
bool PathEqual(const AccessPathObj* lhs, const AccessPathObj* rhs) {
  if (lhs->depth != rhs->depth) return false;
  while (lhs != rhs && lhs->parent != nullptr) {
    if (!StepEqual(StepOf(lhs), StepOf(rhs))) return false;
    lhs = ParentOf(lhs);
    rhs = ParentOf(rhs);
  }
  return true;
}

// self._extend(step) and the steps built from a key: _attr(str),
// _array_item(int), _map_item(any) and their "missing" forms.
template <AccessKind kKind, typename Key>
Status Extend(PackedArgs args, Any* rv, const char* method) {
  FFI_CORE_ASSIGN_OR_RETURN(const AccessPathObj* self, Self(args, 1, method));
  Any key;
  if constexpr (std::is_same_v<Key, Any>) {
    FFI_CORE_ASSIGN_OR_RETURN(key, Any::FromView(args[1]));
  } else {
    FFI_CORE_ASSIGN_OR_RETURN(Key typed, args[1].As<Key>());
    key = Any(typed);
  }
  FFI_CORE_ASSIGN_OR_RETURN(AccessStepObj * step, NewObject<AccessStepObj>(g_step_index, 0));
  step->kind = kKind;
  step->key = std::move(key);
  FFI_CORE_ASSIGN_OR_RETURN(*rv, NewPath(self, &step->header));
  return Status::Ok();
}

Status ExtendByStep(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(const AccessPathObj* self, Self(args, 1, "_extend"));
  FFI_CORE_ASSIGN_OR_RETURN(
      const AccessStepObj* step,
      ObjectArg<AccessStepObj>(args, 1, g_step_index, "_extend", "AccessStep"));
  TVMFFIObject* held = const_cast<TVMFFIObject*>(&step->header);
  ObjectIncRef(held);
  FFI_CORE_ASSIGN_OR_RETURN(*rv, NewPath(self, held));
  return Status::Ok();
}

Status Root(PackedArgs args, Any* rv) {
  if (args.size() != 0) {
    return RaiseError(ErrorKind::kTypeError,
                      {"ffi.reflection.AccessPath._root takes no arguments"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(*rv, NewPath(nullptr, nullptr));
  return Status::Ok();
}

Status IsPrefixOf(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(const AccessPathObj* self, Self(args, 1, "_is_prefix_of"));
  FFI_CORE_ASSIGN_OR_RETURN(
      const AccessPathObj* other,
      ObjectArg<AccessPathObj>(args, 1, g_path_index, "_is_prefix_of", "AccessPath"));
  while (other->depth > self->depth) other = ParentOf(other);
  *rv = Any(other->depth == self->depth && PathEqual(self, other));
  return Status::Ok();
}

Status PathEqualMethod(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(const AccessPathObj* self, Self(args, 1, "_path_equal"));
  FFI_CORE_ASSIGN_OR_RETURN(
      const AccessPathObj* other,
      ObjectArg<AccessPathObj>(args, 1, g_path_index, "_path_equal", "AccessPath"));
  *rv = Any(PathEqual(self, other));
  return Status::Ok();
}

// The steps from the root down, as an Array.
Status ToSteps(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(const AccessPathObj* self, Self(args, 0, "_to_steps"));
  const size_t depth = static_cast<size_t>(self->depth);
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<AnyView> steps,
                            Scratch<AnyView>::Make(depth, "ffi.reflection.AccessPath._to_steps"));
  size_t i = depth;
  for (const AccessPathObj* p = self; p->parent != nullptr; p = ParentOf(p)) {
    TVMFFIAny raw = NoneAny();
    raw.type_index = g_step_index;
    raw.v_obj = p->step;
    steps[--i] = AnyView::FromRaw(raw);
  }
  FFI_CORE_ASSIGN_OR_RETURN(Array array, Array::FromViews(steps.data(), depth));
  *rv = Any(array);
  return Status::Ok();
}

// "__ffi_repr__"(self, repr_fn): the path as upstream prints it,
// <root>.config.layers[0]["name"], a missing step as [<missing:key>]; keys
// go through the printer's repr_fn, which prints nested values.
Status PathRepr(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(const AccessPathObj* self, Self(args, 1, "__ffi_repr__"));
  FFI_CORE_ASSIGN_OR_RETURN(Function repr, args[1].As<Function>());
  const size_t depth = static_cast<size_t>(self->depth);
  FFI_CORE_ASSIGN_OR_RETURN(
      Scratch<const AccessStepObj*> steps,
      Scratch<const AccessStepObj*>::Make(depth, "ffi.reflection.AccessPath.__ffi_repr__"));
  size_t i = depth;
  for (const AccessPathObj* p = self; p->parent != nullptr; p = ParentOf(p)) steps[--i] = StepOf(p);
  TextBuilder text;
  FFI_CORE_RETURN_IF_ERROR(text.Append("<root>"));
  for (i = 0; i < depth; ++i) {
    const AccessStepObj* step = steps[i];
    if (step->kind == kAttr &&
        (step->key.type_index() == kTVMFFISmallStr || step->key.type_index() == kTVMFFIStr)) {
      FFI_CORE_RETURN_IF_ERROR(text.Append("."));
      FFI_CORE_RETURN_IF_ERROR(text.Append(detail::ByteSequenceView(step->key.raw())));
      continue;
    }
    FFI_CORE_ASSIGN_OR_RETURN(Any key, repr(AnyView(step->key)));
    FFI_CORE_ASSIGN_OR_RETURN(String key_text, key.As<String>());
    const bool missing = step->kind == kAttrMissing || step->kind == kArrayItemMissing ||
                         step->kind == kMapItemMissing;
    FFI_CORE_RETURN_IF_ERROR(text.Append(missing ? "[<missing:" : "["));
    FFI_CORE_RETURN_IF_ERROR(text.Append(key_text.data(), key_text.size()));
    FFI_CORE_RETURN_IF_ERROR(text.Append(missing ? ">]" : "]"));
  }
  FFI_CORE_ASSIGN_OR_RETURN(String out, text.ToString());
  *rv = Any(out);
  return Status::Ok();
}

TVMFFIByteArray Text(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

// Each method's metadata carries its type schema, as upstream registers
// them (its stub generator reads one from every method). The types are
// escaped JSON, to sit inside the metadata's "type_schema" string.
#define FFI_CORE_PATH_T R"({\"type\":\"ffi.reflection.AccessPath\"})"
#define FFI_CORE_METHOD_SCHEMA(RETURN, PARAMS)                                        \
  R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[)" RETURN \
  R"(],\"params\":[)" PARAMS R"(]}}"})"
#define FFI_CORE_EXTEND_SCHEMA(KEY)                       \
  FFI_CORE_METHOD_SCHEMA(FFI_CORE_PATH_T, FFI_CORE_PATH_T \
                         ","                              \
                         R"({\"type\":\")" KEY R"(\"})")

struct Method {
  const char* name;
  Status (*fn)(PackedArgs, Any*);
  bool is_static;
  const char* metadata;
};
constexpr Method kMethods[] = {
    {"_root", &Root, true, FFI_CORE_METHOD_SCHEMA(FFI_CORE_PATH_T, "")},
    {"_extend", &ExtendByStep, false, FFI_CORE_EXTEND_SCHEMA("ffi.reflection.AccessStep")},
    {"_attr", [](PackedArgs a, Any* rv) { return Extend<kAttr, String>(a, rv, "_attr"); }, false,
     FFI_CORE_EXTEND_SCHEMA("ffi.String")},
    {"_array_item",
     [](PackedArgs a, Any* rv) { return Extend<kArrayItem, int64_t>(a, rv, "_array_item"); }, false,
     FFI_CORE_EXTEND_SCHEMA("int")},
    {"_map_item", [](PackedArgs a, Any* rv) { return Extend<kMapItem, Any>(a, rv, "_map_item"); },
     false, FFI_CORE_EXTEND_SCHEMA("Any")},
    {"_attr_missing",
     [](PackedArgs a, Any* rv) { return Extend<kAttrMissing, String>(a, rv, "_attr_missing"); },
     false, FFI_CORE_EXTEND_SCHEMA("ffi.String")},
    {"_array_item_missing",
     [](PackedArgs a, Any* rv) {
       return Extend<kArrayItemMissing, int64_t>(a, rv, "_array_item_missing");
     },
     false, FFI_CORE_EXTEND_SCHEMA("int")},
    {"_map_item_missing",
     [](PackedArgs a, Any* rv) { return Extend<kMapItemMissing, Any>(a, rv, "_map_item_missing"); },
     false, FFI_CORE_EXTEND_SCHEMA("Any")},
    {"_is_prefix_of", &IsPrefixOf, false,
     FFI_CORE_METHOD_SCHEMA(R"({\"type\":\"bool\"})", FFI_CORE_PATH_T "," FFI_CORE_PATH_T)},
    {"_to_steps", &ToSteps, false,
     FFI_CORE_METHOD_SCHEMA(
         R"({\"type\":\"ffi.Array\",\"args\":[{\"type\":\"ffi.reflection.AccessStep\"}]})",
         FFI_CORE_PATH_T)},
    {"_path_equal", &PathEqualMethod, false,
     FFI_CORE_METHOD_SCHEMA(R"({\"type\":\"bool\"})", FFI_CORE_PATH_T "," FFI_CORE_PATH_T)},
};
#undef FFI_CORE_EXTEND_SCHEMA
#undef FFI_CORE_METHOD_SCHEMA
#undef FFI_CORE_PATH_T

}  // namespace

Expected<Any> MakeAccessPath(const AccessStep* steps, size_t n) {
  FFI_CORE_ASSIGN_OR_RETURN(Any path, NewPath(nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) {
    FFI_CORE_ASSIGN_OR_RETURN(Any key, Any::FromView(AnyView(steps[i].key)));
    FFI_CORE_ASSIGN_OR_RETURN(AccessStepObj * step, NewObject<AccessStepObj>(g_step_index, 0));
    step->kind = steps[i].kind;
    step->key = std::move(key);
    const auto* parent = reinterpret_cast<const AccessPathObj*>(path.raw().v_obj);
    FFI_CORE_ASSIGN_OR_RETURN(path, NewPath(parent, &step->header));
  }
  return path;
}

Status RegisterAccessPath() {
  const NativeField step_fields[] = {
      {"kind", offsetof(AccessStepObj, kind), 4, &GetInt32Field, kIntFieldSchema},
      {"key", offsetof(AccessStepObj, key), 16, &GetAnyField,
       R"({"type_schema":"{\"type\":\"Any\"}"})"},
  };
  FFI_CORE_RETURN_IF_ERROR(RegisterNativeType("ffi.reflection.AccessStep", &g_step_index,
                                              step_fields, 2, kTVMFFISEqHashKindConstTreeNode,
                                              sizeof(AccessStepObj)));
  const NativeField path_fields[] = {
      {"parent", offsetof(AccessPathObj, parent), 8, &GetObjectField,
       R"({"type_schema":"{\"type\":\"Optional\",\"args\":[{\"type\":\"ffi.Object\"}]}"})"},
      {"step", offsetof(AccessPathObj, step), 8, &GetObjectField,
       R"({"type_schema":"{\"type\":\"Optional\",\"args\":)"
       R"([{\"type\":\"ffi.reflection.AccessStep\"}]}"})"},
      {"depth", offsetof(AccessPathObj, depth), 4, &GetInt32Field, kIntFieldSchema},
  };
  FFI_CORE_RETURN_IF_ERROR(RegisterNativeType("ffi.reflection.AccessPath", &g_path_index,
                                              path_fields, 3, kTVMFFISEqHashKindConstTreeNode,
                                              sizeof(AccessPathObj)));
  for (const Method& m : kMethods) {
    FFI_CORE_ASSIGN_OR_RETURN(Function f, Function::FromPacked(m.fn));
    TVMFFIMethodInfo info{};
    info.name = Text(m.name);
    info.flags = m.is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
    info.metadata = Text(m.metadata);
    const Any held(f);  // the registry keeps its own reference
    info.method = held.raw();
    if (TVMFFITypeRegisterMethod(g_path_index, &info) != 0) return Status(ErrorKind::kRuntimeError);
  }
  FFI_CORE_ASSIGN_OR_RETURN(Function repr, Function::FromPacked(&PathRepr));
  const Any held(repr);  // the column keeps its own reference
  const TVMFFIByteArray repr_attr = Text("__ffi_repr__");
  if (TVMFFITypeRegisterAttr(g_path_index, &repr_attr, &held.raw()) != 0) {
    return Status(ErrorKind::kRuntimeError);
  }
  return Status::Ok();
}

}  // namespace frontend
}  // namespace ffi_core
