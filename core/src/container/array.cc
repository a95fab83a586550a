#include <ffi_core/container/array.h>
#include <ffi_core/error.h>

#include <new>
#include <utility>

namespace ffi_core {

ArrayObj::~ArrayObj() {
  Any* items = static_cast<Any*>(cell.data);
  for (int64_t i = 0; i < cell.size; ++i) items[i].~Any();
}

Expected<Array> Array::FromViews(const AnyView* items, size_t size) {
  if (items == nullptr && size != 0) {
    return RaiseError(ErrorKind::kValueError, {"Array: NULL items"});
  }
  if (size > (SIZE_MAX - sizeof(ArrayObj)) / sizeof(Any)) {
    return RaiseError(ErrorKind::kMemoryError, {"Array: ", size, " items do not fit in memory"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(ArrayObj * arr, NewObject<ArrayObj>(kTVMFFIArray, size * sizeof(Any)));
  Any* out = TrailingOf<Any>(arr);
  arr->cell = TVMFFISeqCell{out, 0, static_cast<int64_t>(size), nullptr};
  Array owned(ObjectPtr<ArrayObj>::Adopt(arr));
  // Each item owned in turn: on a failure the array so far is released.
  for (size_t i = 0; i < size; ++i) {
    FFI_CORE_ASSIGN_OR_RETURN(Any item, Any::FromView(items[i]));
    new (&out[i]) Any(std::move(item));
    ++arr->cell.size;
  }
  return owned;
}

Expected<AnyView> Array::At(int64_t index) const {
  if (index < 0 || static_cast<size_t>(index) >= size()) {
    return RaiseError(ErrorKind::kIndexError,
                      {"Array index ", index, " out of range for size ", size()});
  }
  return AnyView(begin()[index]);
}

}  // namespace ffi_core
