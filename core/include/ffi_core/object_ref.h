// ObjectRef<Obj>: the base of the typed reference classes (Function, Shape,
// Tensor, Module, Error). Each holds one strong reference to an object of
// the ABI layout Obj, or none.
#ifndef FFI_CORE_OBJECT_REF_H_
#define FFI_CORE_OBJECT_REF_H_

#include <ffi_core/object_ptr.h>
#include <ffi_core/type_traits.h>

#include <cstdint>
#include <utility>

namespace ffi_core {

template <typename Obj>
class ObjectRef {
 public:
  using ObjType = Obj;

  ObjectRef() = default;
  explicit ObjectRef(ObjectPtr<Obj> obj) : obj_(std::move(obj)) {}

  explicit operator bool() const { return static_cast<bool>(obj_); }
  const ObjectPtr<Obj>& object() const { return obj_; }
  // Gives up the reference: the object, with its count unchanged, to a caller
  // that takes over the reference (the C boundary handing it out).
  Obj* ReleaseObject() && { return obj_.release(); }

 protected:
  ObjectPtr<Obj> obj_;
};

namespace detail {
// TypeTraits for a reference type `Ref` (an ObjectRef) whose objects all
// carry the static type index kIndex.
template <typename Ref, int32_t kIndex>
struct ObjectRefTraits {
  using Obj = typename Ref::ObjType;

  static void Write(const Ref& r, TVMFFIAny* out) { WritePointer(kIndex, r.object().get(), out); }
  static Conversion Read(const TVMFFIAny& in, Ref* out) {
    if (in.type_index != kIndex) return Conversion::kMismatch;
    *out = Ref(ObjectPtr<Obj>::Retain(reinterpret_cast<Obj*>(in.v_obj)));
    return Conversion::kOk;
  }
};
}  // namespace detail

}  // namespace ffi_core

#endif  // FFI_CORE_OBJECT_REF_H_
