// vm.builtin.alloc_tensor: a tensor inside its storage is made (at its
// offset, keeping the storage alive), and each way out of the storage or a
// bad shape is refused with its kind and message, leaking nothing; so is a
// storage whose size is negative or beyond int32's elements. Host only:
// the builtin's code is the same on every board.
#include <ffi_core/container/shape.h>
#include <ffi_core/counting_allocator.h>
#include <ffi_core/error.h>
#include <ffi_core/tensor.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "vm_objects.h"

namespace {

using ffi_core::Any;
using ffi_core::Function;

int g_failed = 0;

void Check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  if (!ok) ++g_failed;
}

Function Builtin(const char* name) {
  auto f = ffi_core::tvm_vm::FindBuiltin(name, std::strlen(name));
  return f.ok() ? *f : Function();
}

ffi_core::Shape ShapeOf(const int64_t* dims, size_t n) {
  auto s = ffi_core::Shape::FromDims(dims, n);
  return s.ok() ? *s : ffi_core::Shape();
}

// The raised error has `kind` and a message holding `text`.
bool RaisedIs(const char* kind, const char* text, const char* what) {
  ffi_core::Error e = ffi_core::Error::MoveFromRaised();
  const TVMFFIByteArray k = e ? e.kind() : TVMFFIByteArray{"", 0};
  const TVMFFIByteArray m = e ? e.message() : TVMFFIByteArray{"", 0};
  std::printf("  %s -> %.*s: %.*s\n", what, static_cast<int>(k.size), k.data,
              static_cast<int>(m.size), m.data);
  return std::string_view(k.data, k.size) == kind &&
         std::string_view(m.data, m.size).find(text) != std::string_view::npos;
}

// alloc_storage of `dims` (int32 elements) is refused as a bad size.
void StorageRefused(const Function& alloc_storage, const int64_t* dims, size_t n,
                    const char* what) {
  auto r = alloc_storage(Any(), ShapeOf(dims, n), int64_t{0}, DLDataType{kDLInt, 32, 1});
  Check(!r.ok() && RaisedIs("ValueError", "alloc_storage: bad size", what), what);
}

// alloc_tensor on `storage` is refused with `kind` and a message holding `text`.
void Refused(const Function& alloc_tensor, const Any& storage, int64_t offset,
             const ffi_core::Shape& shape, const char* kind, const char* text, const char* what) {
  auto r = alloc_tensor(storage, offset, shape, DLDataType{kDLInt, 8, 1});
  Check(!r.ok() && RaisedIs(kind, text, what), what);
}

}  // namespace

int main() {
  ffi_core::CountingAllocator counter(ffi_core::SystemAllocator());
  ffi_core::SetAllocator(counter.allocator());
  {
    const Function alloc_storage = Builtin("vm.builtin.alloc_storage");
    const Function alloc_tensor = Builtin("vm.builtin.alloc_tensor");
    Check(static_cast<bool>(alloc_storage) && static_cast<bool>(alloc_tensor), "builtins found");
    const int64_t storage_dims[] = {100};
    auto storage =
        alloc_storage(Any(), ShapeOf(storage_dims, 1), int64_t{0}, DLDataType{kDLInt, 8, 1});
    Check(storage.ok(), "alloc_storage of 100 bytes");
    if (!storage.ok()) return 1;

    const int64_t negative_storage[] = {4, -1};
    StorageRefused(alloc_storage, negative_storage, 2, "a storage of negative size");
    const int64_t wide_storage[] = {int64_t{1} << 40, 0};
    StorageRefused(alloc_storage, wide_storage, 2, "a storage dimension beyond int32");
    const int64_t many_storage[] = {65536, 65536};
    StorageRefused(alloc_storage, many_storage, 2, "a storage of 2^32 elements");

    const int64_t fits[] = {4, 10};
    auto t = alloc_tensor(*storage, int64_t{60}, ShapeOf(fits, 2), DLDataType{kDLInt, 8, 1});
    ffi_core::Tensor tensor;
    Check(t.ok() && t->TryAs(&tensor) == ffi_core::Conversion::kOk && tensor.ndim() == 2 &&
              tensor.shape()[1] == 10 && tensor.dl_tensor()->byte_offset == 60,
          "a 40-byte tensor at offset 60 ends at the storage's end");

    const int64_t empty[] = {4, 0};
    auto e = alloc_tensor(*storage, int64_t{100}, ShapeOf(empty, 2), DLDataType{kDLInt, 8, 1});
    Check(e.ok(), "an empty tensor at the storage's end");
    const int64_t cube[] = {2, 3, 5};
    Refused(alloc_tensor, *storage, 71, ShapeOf(cube, 3), "ValueError",
            "attempted to allocate 30 at offset 71", "a 2x3x5 tensor one byte past the end");
    Refused(alloc_tensor, *storage, 61, ShapeOf(fits, 2), "ValueError",
            "attempted to allocate 40 at offset 61 in region that is 100", "one byte past the end");
    Refused(alloc_tensor, *storage, 101, ShapeOf(fits, 1), "ValueError",
            "attempted to allocate 4 at offset 101", "offset past the end");
    Refused(alloc_tensor, *storage, -1, ShapeOf(fits, 1), "ValueError", "at offset -1",
            "negative offset");
    const int64_t negative[] = {4, -10};
    Refused(alloc_tensor, *storage, 0, ShapeOf(negative, 2), "ValueError",
            "negative size -10 at axis 1", "negative size");
    const int64_t huge[] = {INT64_MAX / 2, 4};
    Refused(alloc_tensor, *storage, 0, ShapeOf(huge, 2), "ValueError", "does not fit in 64 bits",
            "size beyond int64");
    Refused(alloc_tensor, Any(int64_t{5}), 0, ShapeOf(fits, 2), "TypeError",
            "alloc_tensor: expects a Storage, but get int", "not a storage");
  }
  Check(counter.live_blocks() == 0, "nothing leaked");
  std::printf("vm_alloc_tensor: %d failed\n", g_failed);
  return g_failed == 0 ? 0 : 1;
}
