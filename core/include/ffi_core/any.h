// AnyView (borrowed) and Any (owning): C++ faces of TVMFFIAny. Both are
// exactly 16 bytes with TVMFFIAny's layout, so arrays of them can be passed
// straight to a TVMFFISafeCallType.
#ifndef FFI_CORE_ANY_H_
#define FFI_CORE_ANY_H_

#include <ffi_core/error.h>
#include <ffi_core/expected.h>
#include <ffi_core/object.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/type_traits.h>

#include <type_traits>
#include <utility>

namespace ffi_core {

class Any;

// Raises the TypeError for a failed conversion (kFailed: already raised)
// and returns its status. `func` and `arg_index` give context when set
// (func may be NULL; arg_index < 0 means "not an argument").
TVM_FFI_DLL Status RaiseConversionError(Conversion c, const char* expected, int32_t actual_index,
                                        const char* func, int arg_index);

namespace detail {
// What AnyView and Any share: the TVMFFIAny (their only member, so both keep
// its layout) and the ways to read it.
class AnyBase {
 public:
  const TVMFFIAny& raw() const { return data_; }
  int32_t type_index() const { return data_.type_index; }
  bool is_none() const { return data_.type_index == kTVMFFINone; }

  // Reads a T without raising; see Conversion.
  template <typename T>
  Conversion TryAs(T* out) const {
    return TypeTraits<T>::Read(data_, out);
  }
  // Reads a T, raising a TypeError on mismatch.
  template <typename T>
  Expected<T> As() const {
    T out{};
    Conversion c = TypeTraits<T>::Read(data_, &out);
    if (c != Conversion::kOk) {
      return RaiseConversionError(c, TypeTraits<T>::kName, data_.type_index, nullptr, -1);
    }
    return out;
  }

 protected:
  AnyBase() = default;  // data_ is the derived constructor's to write
  TVMFFIAny data_;
};
}  // namespace detail

class AnyView : public detail::AnyBase {
 public:
  AnyView() { data_ = NoneAny(); }
  template <typename T, typename U = std::decay_t<T>,
            typename = std::enable_if_t<HasTypeTraits<U>::value && !std::is_same_v<U, Any>>>
  AnyView(const T& value) {  // NOLINT(runtime/explicit)
    TypeTraits<U>::Write(value, &data_);
  }
  AnyView(const Any& value);  // NOLINT(runtime/explicit)

  static AnyView FromRaw(const TVMFFIAny& raw) {
    AnyView v;
    CopyAny(&v.data_, raw);
    return v;
  }
};

class Any : public detail::AnyBase {
 public:
  Any() { data_ = NoneAny(); }
  // Owned values only: a borrowed C string has no owned form without
  // allocating, so build a String (or use FromView) instead.
  template <typename T, typename U = std::decay_t<T>,
            typename = std::enable_if_t<
                HasTypeTraits<U>::value && !std::is_same_v<U, Any> && !std::is_same_v<U, AnyView> &&
                !std::is_same_v<U, const char*> && !std::is_same_v<U, char*>>>
  Any(const T& value) {  // NOLINT(runtime/explicit)
    TypeTraits<U>::Write(value, &data_);
    RetainIfObject();
  }
  Any(const Any& other) {
    CopyAny(&data_, other.data_);
    RetainIfObject();
  }
  Any(Any&& other) noexcept {
    CopyAny(&data_, other.data_);
    other.data_ = NoneAny();
  }
  Any& operator=(Any other) noexcept {
    TVMFFIAny old;
    CopyAny(&old, data_);
    CopyAny(&data_, other.data_);
    CopyAny(&other.data_, old);
    return *this;
  }
  ~Any() { reset(); }

  // The owned form of a view: objects gain a reference, a raw C string or
  // byte array is copied into a String/Bytes, an rvalue reference is moved
  // from. This is TVMFFIAnyViewToOwnedAny.
  TVM_FFI_DLL static Expected<Any> FromView(const AnyView& view);
  // Takes ownership of a raw value that already carries its reference
  // (e.g. a call's result).
  static Any AdoptRaw(const TVMFFIAny& raw) {
    Any a;
    CopyAny(&a.data_, raw);
    return a;
  }
  // Hands the value (and its reference) to a raw TVMFFIAny.
  TVMFFIAny ReleaseRaw() {
    TVMFFIAny out;
    CopyAny(&out, data_);
    data_ = NoneAny();
    return out;
  }
  // The same into *out.
  void ReleaseRawTo(TVMFFIAny* out) {
    CopyAny(out, data_);
    data_ = NoneAny();
  }

  void reset() {
    if (data_.type_index >= kTVMFFIStaticObjectBegin) ObjectDecRef(data_.v_obj);
    data_ = NoneAny();
  }

 private:
  void RetainIfObject() {
    if (data_.type_index >= kTVMFFIStaticObjectBegin) ObjectIncRef(data_.v_obj);
  }
};

static_assert(sizeof(AnyView) == sizeof(TVMFFIAny), "AnyView must keep TVMFFIAny's layout");
static_assert(sizeof(Any) == sizeof(TVMFFIAny), "Any must keep TVMFFIAny's layout");

inline AnyView::AnyView(const Any& value) { CopyAny(&data_, value.raw()); }

// Any and AnyView as function arguments and results.
template <>
struct TypeTraits<AnyView> {
  static constexpr const char* kName = "Any";
  static void Write(const AnyView& v, TVMFFIAny* out) { CopyAny(out, v.raw()); }
  static Conversion Read(const TVMFFIAny& in, AnyView* out) {
    *out = AnyView::FromRaw(in);
    return Conversion::kOk;
  }
};
template <>
struct TypeTraits<Any> {
  static constexpr const char* kName = "Any";
  static void Write(const Any& v, TVMFFIAny* out) { CopyAny(out, v.raw()); }
  static Conversion Read(const TVMFFIAny& in, Any* out) {
    Expected<Any> owned = Any::FromView(AnyView::FromRaw(in));
    if (!owned.ok()) return Conversion::kFailed;
    *out = std::move(owned).value();
    return Conversion::kOk;
  }
};

}  // namespace ffi_core

#endif  // FFI_CORE_ANY_H_
