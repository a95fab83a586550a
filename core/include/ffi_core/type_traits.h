// TypeTraits<T>: how a C++ type is written into and read out of a TVMFFIAny.
// Writers follow the ABI's zero-padding rules; readers accept the same
// conversions upstream accepts (bool<->int, int->float, ...) and refuse
// silent narrowing.
#ifndef FFI_CORE_TYPE_TRAITS_H_
#define FFI_CORE_TYPE_TRAITS_H_

#include <ffi_core/device.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ffi_core {

// The outcome of reading a T from a TVMFFIAny.
enum class Conversion : uint8_t {
  kOk,
  kMismatch,    // the value holds another type; nothing raised
  kOutOfRange,  // right type, but the value does not fit T; nothing raised
  kFailed,      // conversion needed memory and failed; an error is raised
};

// Human name of what a type index holds, for TypeError messages.
const char* TypeIndexName(int32_t type_index);

// A TVMFFIAny holding None: every byte zero. Field by field: `TVMFFIAny{}`
// becomes a call to memset at -Os.
inline TVMFFIAny NoneAny() {
  TVMFFIAny a;
  a.type_index = kTVMFFINone;
  a.zero_padding = 0;
  a.v_int64 = 0;
  return a;
}

// Copies a TVMFFIAny field by field: an aggregate copy becomes a call to
// memcpy at -Os on RV32 (picolibc's, a byte loop); always inlined, where GCC
// would otherwise call it.
[[gnu::always_inline]] inline void CopyAny(TVMFFIAny* dst, const TVMFFIAny& src) {
  dst->type_index = src.type_index;
  dst->zero_padding = src.zero_padding;
  dst->v_int64 = src.v_int64;
}

// Starts writing a value of `index`: None's zero bytes, then the index; the
// caller sets the payload.
inline TVMFFIAny* WriteIndex(int32_t index, TVMFFIAny* out) {
  *out = NoneAny();
  out->type_index = index;
  return out;
}

// Specialised per supported type with:
//   static constexpr const char* kName;
//   static void Write(const T& value, TVMFFIAny* out);   // borrowed view
//   static Conversion Read(const TVMFFIAny& in, T* out);  // owned result
template <typename T, typename = void>
struct TypeTraits;

template <typename T, typename = void>
struct HasTypeTraits : std::false_type {};
template <typename T>
struct HasTypeTraits<T, std::void_t<decltype(TypeTraits<T>::kName)>> : std::true_type {};

template <>
struct TypeTraits<bool> {
  static constexpr const char* kName = "bool";
  static void Write(bool v, TVMFFIAny* out) { WriteIndex(kTVMFFIBool, out)->v_int64 = v ? 1 : 0; }
  static Conversion Read(const TVMFFIAny& in, bool* out) {
    if (in.type_index != kTVMFFIBool && in.type_index != kTVMFFIInt) return Conversion::kMismatch;
    *out = in.v_int64 != 0;
    return Conversion::kOk;
  }
};

template <typename T>
struct TypeTraits<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static constexpr const char* kName = std::is_signed_v<T> ? "int" : "uint";
  static void Write(T v, TVMFFIAny* out) {
    WriteIndex(kTVMFFIInt, out)->v_int64 = static_cast<int64_t>(v);
  }
  static Conversion Read(const TVMFFIAny& in, T* out) {
    if (in.type_index != kTVMFFIInt && in.type_index != kTVMFFIBool) return Conversion::kMismatch;
    const int64_t v = in.v_int64;
    if constexpr (std::is_signed_v<T>) {
      if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
          v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
        return Conversion::kOutOfRange;
      }
    } else {
      if (v < 0 || static_cast<uint64_t>(v) > std::numeric_limits<T>::max()) {
        return Conversion::kOutOfRange;
      }
    }
    *out = static_cast<T>(v);
    return Conversion::kOk;
  }
};

template <typename T>
struct TypeTraits<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static constexpr const char* kName = "float";
  static void Write(T v, TVMFFIAny* out) {
    WriteIndex(kTVMFFIFloat, out)->v_float64 = static_cast<double>(v);
  }
  static Conversion Read(const TVMFFIAny& in, T* out) {
    switch (in.type_index) {
      case kTVMFFIFloat:
        *out = static_cast<T>(in.v_float64);
        return Conversion::kOk;
      case kTVMFFIInt:
      case kTVMFFIBool:
        *out = static_cast<T>(in.v_int64);
        return Conversion::kOk;
      default:
        return Conversion::kMismatch;
    }
  }
};

template <>
struct TypeTraits<std::nullptr_t> {
  static constexpr const char* kName = "None";
  static void Write(std::nullptr_t, TVMFFIAny* out) { *out = NoneAny(); }
  static Conversion Read(const TVMFFIAny& in, std::nullptr_t* out) {
    if (in.type_index != kTVMFFINone) return Conversion::kMismatch;
    *out = nullptr;
    return Conversion::kOk;
  }
};

// Writes a pointer with `index`, or None for NULL. Zeroing first keeps the
// high word zero where pointers are 4 bytes.
inline void WritePointer(int32_t index, const void* p, TVMFFIAny* out) {
  *out = NoneAny();
  if (p == nullptr) return;
  out->type_index = index;
  out->v_ptr = const_cast<void*>(p);
}

template <>
struct TypeTraits<void*> {
  static constexpr const char* kName = "void*";
  static void Write(void* v, TVMFFIAny* out) { WritePointer(kTVMFFIOpaquePtr, v, out); }
  static Conversion Read(const TVMFFIAny& in, void** out) {
    if (in.type_index == kTVMFFINone) {
      *out = nullptr;
      return Conversion::kOk;
    }
    if (in.type_index != kTVMFFIOpaquePtr) return Conversion::kMismatch;
    *out = in.v_ptr;
    return Conversion::kOk;
  }
};

template <>
struct TypeTraits<DLDataType> {
  static constexpr const char* kName = "DataType";
  static void Write(DLDataType v, TVMFFIAny* out) { WriteIndex(kTVMFFIDataType, out)->v_dtype = v; }
  static Conversion Read(const TVMFFIAny& in, DLDataType* out) {
    if (in.type_index != kTVMFFIDataType) return Conversion::kMismatch;
    *out = in.v_dtype;
    return Conversion::kOk;
  }
};

template <>
struct TypeTraits<DLDevice> {
  static constexpr const char* kName = "Device";
  static void Write(DLDevice v, TVMFFIAny* out) {
    WriteIndex(kTVMFFIDevice, out)->v_device = NormalizeDevice(v);
  }
  static Conversion Read(const TVMFFIAny& in, DLDevice* out) {
    if (in.type_index != kTVMFFIDevice) return Conversion::kMismatch;
    *out = NormalizeDevice(in.v_device);
    return Conversion::kOk;
  }
};

template <>
struct TypeTraits<DLTensor*> {
  static constexpr const char* kName = "DLTensor*";
  static void Write(DLTensor* v, TVMFFIAny* out) { WritePointer(kTVMFFIDLTensorPtr, v, out); }
  // Borrowed: valid while the argument (a DLTensor* or Tensor object) lives.
  static Conversion Read(const TVMFFIAny& in, DLTensor** out) {
    if (in.type_index == kTVMFFIDLTensorPtr) {
      *out = static_cast<DLTensor*>(in.v_ptr);
      return Conversion::kOk;
    }
    if (in.type_index == kTVMFFITensor) {
      *out = TVMFFITensorGetDLTensorPtr(in.v_obj);
      return Conversion::kOk;
    }
    return Conversion::kMismatch;
  }
};

// Write-only: a borrowed C string travels as kTVMFFIRawStr in views. Read
// strings as ffi_core::String.
template <>
struct TypeTraits<const char*> {
  static constexpr const char* kName = "const char*";
  static void Write(const char* v, TVMFFIAny* out) { WritePointer(kTVMFFIRawStr, v, out); }
};
// String literals decay to char*.
template <>
struct TypeTraits<char*> : TypeTraits<const char*> {};

}  // namespace ffi_core

#endif  // FFI_CORE_TYPE_TRAITS_H_
