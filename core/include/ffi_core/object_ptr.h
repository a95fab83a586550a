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
}  // namespace detail

template <typename T>
class ObjectPtr {
 public:
  ObjectPtr() = default;
  ObjectPtr(std::nullptr_t) {}  // NOLINT(runtime/explicit)
  ObjectPtr(const ObjectPtr& other) : ptr_(other.ptr_) {
    if (ptr_) ObjectIncRef(detail::HeaderOf(ptr_));
  }
  ObjectPtr(ObjectPtr&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  ObjectPtr& operator=(ObjectPtr other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }
  ~ObjectPtr() { reset(); }

  // Takes over a reference the caller already owns (e.g. a fresh object).
  static ObjectPtr Adopt(T* ptr) {
    ObjectPtr p;
    p.ptr_ = ptr;
    return p;
  }
  // Adds a reference to a borrowed pointer.
  static ObjectPtr Retain(T* ptr) {
    if (ptr) ObjectIncRef(detail::HeaderOf(ptr));
    return Adopt(ptr);
  }
  // Gives up ownership without dropping the reference.
  T* release() { return std::exchange(ptr_, nullptr); }

  void reset() {
    if (T* p = std::exchange(ptr_, nullptr)) ObjectDecRef(detail::HeaderOf(p));
  }
  T* get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  TVMFFIObject* header() const { return ptr_ ? detail::HeaderOf(ptr_) : nullptr; }
  uint32_t use_count() const { return ptr_ ? ObjectStrongCount(header()) : 0; }

  friend bool operator==(const ObjectPtr& a, const ObjectPtr& b) { return a.ptr_ == b.ptr_; }
  friend bool operator!=(const ObjectPtr& a, const ObjectPtr& b) { return a.ptr_ != b.ptr_; }

 private:
  T* ptr_ = nullptr;
};

template <typename T>
class WeakObjectPtr {
 public:
  WeakObjectPtr() = default;
  explicit WeakObjectPtr(const ObjectPtr<T>& strong) : ptr_(strong.get()) {
    if (ptr_) ObjectIncWeakRef(detail::HeaderOf(ptr_));
  }
  WeakObjectPtr(const WeakObjectPtr& other) : ptr_(other.ptr_) {
    if (ptr_) ObjectIncWeakRef(detail::HeaderOf(ptr_));
  }
  WeakObjectPtr(WeakObjectPtr&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  WeakObjectPtr& operator=(WeakObjectPtr other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }
  ~WeakObjectPtr() { reset(); }

  void reset() {
    if (T* p = std::exchange(ptr_, nullptr)) ObjectDecWeakRef(detail::HeaderOf(p));
  }
  // A strong pointer if the object is still alive, else null.
  ObjectPtr<T> lock() const {
    if (ptr_ && ObjectTryPromoteWeak(detail::HeaderOf(ptr_))) return ObjectPtr<T>::Adopt(ptr_);
    return nullptr;
  }
  bool expired() const { return !ptr_ || ObjectStrongCount(detail::HeaderOf(ptr_)) == 0; }

 private:
  T* ptr_ = nullptr;
};

}  // namespace ffi_core

#endif  // FFI_CORE_OBJECT_PTR_H_
