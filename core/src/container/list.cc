#include <ffi_core/allocator.h>
#include <ffi_core/container/list.h>
#include <ffi_core/error.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

#include "container/item_buffer.h"

namespace ffi_core {
namespace {

Status CheckIndex(int64_t index, size_t limit, const char* what) {
  if (index < 0 || static_cast<uint64_t>(index) >= limit) {
    return RaiseError(ErrorKind::kIndexError,
                      {"List ", what, " index ", index, " out of range for size ", limit});
  }
  return Status::Ok();
}

Status CheckRange(int64_t begin, int64_t end, size_t size) {
  if (begin < 0 || end < begin || static_cast<uint64_t>(end) > size) {
    return RaiseError(ErrorKind::kIndexError,
                      {"List range [", begin, ", ", end, ") out of range for size ", size});
  }
  return Status::Ok();
}

}  // namespace

ListObj::~ListObj() {
  Any* items = static_cast<Any*>(cell.data);
  for (int64_t i = 0; i < cell.size; ++i) items[i].~Any();
  if (cell.data_deleter != nullptr) cell.data_deleter(cell.data);
}

Expected<List> List::FromViews(const AnyView* items, size_t size) {
  if (items == nullptr && size != 0) {
    return RaiseError(ErrorKind::kValueError, {"List: NULL items"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(ListObj * obj, NewObject<ListObj>(kTVMFFIList, 0));
  obj->cell = TVMFFISeqCell{nullptr, 0, 0, nullptr};
  List list(ObjectPtr<ListObj>::Adopt(obj));
  FFI_CORE_RETURN_IF_ERROR(list.ReplaceRange(0, 0, items, size));
  return list;
}

Expected<AnyView> List::At(int64_t index) const {
  FFI_CORE_RETURN_IF_ERROR(CheckIndex(index, size(), "get"));
  return AnyView(items()[index]);
}

Status List::Set(int64_t index, const AnyView& value) {
  FFI_CORE_RETURN_IF_ERROR(CheckIndex(index, size(), "set"));
  FFI_CORE_ASSIGN_OR_RETURN(Any owned, Any::FromView(value));
  items()[index] = std::move(owned);
  return Status::Ok();
}

Status List::Append(const AnyView& value) {
  return ReplaceRange(static_cast<int64_t>(size()), static_cast<int64_t>(size()), &value, 1);
}

Status List::Insert(int64_t index, const AnyView& value) {
  FFI_CORE_RETURN_IF_ERROR(CheckIndex(index, size() + 1, "insert"));
  return ReplaceRange(index, index, &value, 1);
}

Expected<Any> List::Pop(int64_t index) {
  FFI_CORE_RETURN_IF_ERROR(CheckIndex(index, size(), "pop"));
  Any out = std::move(items()[index]);
  FFI_CORE_RETURN_IF_ERROR(EraseRange(index, index + 1));
  return out;
}

Status List::EraseRange(int64_t begin, int64_t end) { return ReplaceRange(begin, end, nullptr, 0); }

Status List::Reserve(int64_t capacity) {
  if (capacity < 0) {
    return RaiseError(ErrorKind::kValueError, {"List reserve of a negative size ", capacity});
  }
  if (capacity <= obj_->cell.capacity) return Status::Ok();
  if (static_cast<uint64_t>(capacity) > SIZE_MAX / sizeof(Any)) {
    return RaiseError(ErrorKind::kMemoryError, {"List of ", capacity, " items"});
  }
  void* fresh = detail::NewItemBuffer(static_cast<size_t>(capacity), sizeof(Any), "List");
  if (fresh == nullptr) return Status(ErrorKind::kMemoryError);
  // Any is relocatable: its bytes move, and the old buffer is freed unread.
  if (size() != 0) std::memcpy(fresh, obj_->cell.data, size() * sizeof(Any));
  if (obj_->cell.data_deleter != nullptr) obj_->cell.data_deleter(obj_->cell.data);
  obj_->cell.data = fresh;
  obj_->cell.capacity = capacity;
  obj_->cell.data_deleter = &FreeBuffer;
  return Status::Ok();
}

Status List::ReplaceRange(int64_t begin, int64_t end, const AnyView* items_in, size_t count) {
  FFI_CORE_RETURN_IF_ERROR(CheckRange(begin, end, size()));
  if (items_in == nullptr && count != 0) {
    return RaiseError(ErrorKind::kValueError, {"List: NULL items"});
  }
  // Own the new items first: they may view this list, and a failure here
  // leaves it untouched.
  constexpr size_t kInline = 8;
  Any inline_items[kInline];
  Any* fresh = inline_items;
  Any* heap_items = nullptr;
  if (count > kInline) {
    if (count > SIZE_MAX / sizeof(Any) || (heap_items = static_cast<Any*>(AllocateBuffer(
                                               count * sizeof(Any), alignof(Any)))) == nullptr) {
      return RaiseError(ErrorKind::kMemoryError, {"List: no memory for ", count, " new items"});
    }
    for (size_t i = 0; i < count; ++i) new (&heap_items[i]) Any();
    fresh = heap_items;
  }
  auto release = [&] {
    if (heap_items == nullptr) return;
    for (size_t i = 0; i < count; ++i) heap_items[i].~Any();
    FreeBuffer(heap_items);
  };
  for (size_t i = 0; i < count; ++i) {
    Expected<Any> owned = Any::FromView(items_in[i]);
    if (!owned.ok()) {
      release();
      return owned.status();
    }
    fresh[i] = std::move(owned).value();
  }
  const size_t removed = static_cast<size_t>(end - begin);
  const size_t new_size = size() - removed + count;
  if (new_size > static_cast<size_t>(obj_->cell.capacity)) {
    const size_t grown =
        std::max<size_t>({new_size, 2 * static_cast<size_t>(obj_->cell.capacity), 4});
    Status s = Reserve(static_cast<int64_t>(grown));
    if (!s.ok()) {
      release();
      return s;
    }
  }
  Any* data = items();
  for (size_t i = 0; i < removed; ++i) data[begin + i].~Any();
  const size_t tail = size() - static_cast<size_t>(end);
  if (tail != 0) {
    std::memmove(static_cast<void*>(data + begin + count), data + end, tail * sizeof(Any));
  }
  for (size_t i = 0; i < count; ++i) new (&data[begin + i]) Any(std::move(fresh[i]));
  obj_->cell.size = static_cast<int64_t>(new_size);
  release();
  return Status::Ok();
}

void List::Clear() {
  Any* data = items();
  for (size_t i = 0; i < size(); ++i) data[i].~Any();
  obj_->cell.size = 0;
}

void List::Reverse() { std::reverse(items(), items() + size()); }

}  // namespace ffi_core
