// ObjectPtr<T> and WeakObjectPtr<T>: intrusive smart pointers over the ABI's
// combined reference count. T is TVMFFIObject itself or a standard-layout
// struct whose first member is `TVMFFIObject header`.
#ifndef FFI_CORE_OBJECT_PTR_H_
#define FFI_CORE_OBJECT_PTR_H_

#include <ffi_core/object.h>

#include <cstddef>
#include <utility>

namespace ffi_core {

namespace detail {
template <typename T>
TVMFFIObject* HeaderOf(T* ptr) {
  return reinterpret_cast<TVMFFIObject*>(ptr);
}

// What ObjectPtr and WeakObjectPtr share: a pointer holding one reference
// of the kind Inc adds and Dec drops (strong or weak).
template <typename T, void (*Inc)(TVMFFIObject*), void (*Dec)(TVMFFIObject*)>
class CountedPtr {
 public:
  CountedPtr(const CountedPtr& other) : ptr_(other.ptr_) {
    if (ptr_) Inc(HeaderOf(ptr_));
  }
  CountedPtr(CountedPtr&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  CountedPtr& operator=(CountedPtr other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }
  ~CountedPtr() { reset(); }

  void reset() {
    if (T* p = std::exchange(ptr_, nullptr)) Dec(HeaderOf(p));
  }

 protected:
  CountedPtr() = default;
  // Holds `held` without adding a reference.
  explicit CountedPtr(T* held) : ptr_(held) {}
  T* ptr_ = nullptr;
};
}  // namespace detail

template <typename T>
class ObjectPtr : public detail::CountedPtr<T, &ObjectIncRef, &ObjectDecRef> {
 public:
  ObjectPtr() = default;
  ObjectPtr(std::nullptr_t) {}  // NOLINT(runtime/explicit)

  // Takes over a reference the caller already owns (e.g. a fresh object).
  static ObjectPtr Adopt(T* ptr) { return ObjectPtr(ptr); }
  // Adds a reference to a borrowed pointer.
  static ObjectPtr Retain(T* ptr) {
    if (ptr) ObjectIncRef(detail::HeaderOf(ptr));
    return Adopt(ptr);
  }
  // Gives up ownership without dropping the reference.
  T* release() { return std::exchange(this->ptr_, nullptr); }

  T* get() const { return this->ptr_; }
  T* operator->() const { return this->ptr_; }
  T& operator*() const { return *this->ptr_; }
  explicit operator bool() const { return this->ptr_ != nullptr; }
  TVMFFIObject* header() const { return this->ptr_ ? detail::HeaderOf(this->ptr_) : nullptr; }
  uint32_t use_count() const { return this->ptr_ ? ObjectStrongCount(header()) : 0; }

  friend bool operator==(const ObjectPtr& a, const ObjectPtr& b) { return a.get() == b.get(); }
  friend bool operator!=(const ObjectPtr& a, const ObjectPtr& b) { return a.get() != b.get(); }

 private:
  explicit ObjectPtr(T* held) : ObjectPtr::CountedPtr(held) {}
};

template <typename T>
class WeakObjectPtr : public detail::CountedPtr<T, &ObjectIncWeakRef, &ObjectDecWeakRef> {
 public:
  WeakObjectPtr() = default;
  explicit WeakObjectPtr(const ObjectPtr<T>& strong) : WeakObjectPtr::CountedPtr(strong.get()) {
    if (this->ptr_) ObjectIncWeakRef(detail::HeaderOf(this->ptr_));
  }

  // A strong pointer if the object is still alive, else null.
  ObjectPtr<T> lock() const {
    if (this->ptr_ && ObjectTryPromoteWeak(detail::HeaderOf(this->ptr_))) {
      return ObjectPtr<T>::Adopt(this->ptr_);
    }
    return nullptr;
  }
  bool expired() const {
    return !this->ptr_ || ObjectStrongCount(detail::HeaderOf(this->ptr_)) == 0;
  }
};

}  // namespace ffi_core

#endif  // FFI_CORE_OBJECT_PTR_H_
