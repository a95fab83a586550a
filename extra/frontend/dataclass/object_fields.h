// Reading and writing a reflected object's fields through its type's field
// table, and finding a function a type registered as a type attribute
// ("__ffi_repr__", "__ffi_shallow_copy__", ...). Shared by the frontend's
// generic operations: Python-defined types, repr, comparison, hashing and
// deep copy.
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_OBJECT_FIELDS_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_OBJECT_FIELDS_H_

#include <ffi_core/any.h>
#include <ffi_core/expected.h>
#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {
namespace frontend {

// Every field of the type, its ancestors' first, as upstream orders them.
template <typename F>
void ForEachField(const TVMFFITypeInfo* info, F&& f) {
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    if (t == nullptr) continue;
    for (int32_t i = 0; i < t->num_fields; ++i) f(t->fields[i]);
  }
}

inline char* FieldAt(TVMFFIObject* obj, const TVMFFIFieldInfo& f) {
  return reinterpret_cast<char*>(obj) + f.offset;
}

inline const char* KeyOf(const TVMFFITypeInfo* info) { return info->type_key.data; }

// The field's value, through its getter.
Expected<Any> ReadField(const TVMFFIObject* obj, const TVMFFIFieldInfo& f);

// The C getter of a field kept as an object pointer (NULL reads as None):
// a new reference in `out`.
int GetObjectField(void* field, TVMFFIAny* out);

// Calls the field's setter (a Function or a C setter) with `value`.
Status WriteField(TVMFFIObject* obj, const TVMFFIFieldInfo& f, const TVMFFIAny& value);

// Sets the field to its default (a value, or what its factory makes).
Status WriteFieldDefault(TVMFFIObject* obj, const TVMFFIFieldInfo& f);

// Sets a field of a new object of type `info`: to `value` when given, else
// to its default, else a TypeError naming the required field.
Status InitField(TVMFFIObject* obj, const TVMFFITypeInfo* info, const TVMFFIFieldInfo& f,
                 const TVMFFIAny* value);

// An object of the type with every field unset: from its C++ creator, else
// from its "__ffi_new__" attribute (types defined in Python).
Expected<Any> NewEmptyObject(const TVMFFITypeInfo* info);

// The function registered as type attribute `attr` for the type, or NULL.
// Borrowed: the attribute table holds it for the process's life.
TVMFFIObject* TypeAttrFunction(const char* attr, int32_t type_index);

// `obj` as a borrowed value (no reference taken).
inline TVMFFIAny ObjectAny(TVMFFIObject* obj) {
  TVMFFIAny v = NoneAny();
  v.type_index = obj->type_index;
  v.v_obj = obj;
  return v;
}

// The object an Any holds, or NULL for a non-object value.
inline TVMFFIObject* ObjectOf(const AnyView& v) {
  return v.type_index() >= kTVMFFIStaticObjectBegin ? v.raw().v_obj : nullptr;
}

// How deep the recursive operations (repr, comparison, hashing, deep copy)
// follow nested values before refusing with a ValueError: far beyond what
// models and tests build, well within a host thread's stack.
constexpr int32_t kMaxNestingDepth = 4096;

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_OBJECT_FIELDS_H_
