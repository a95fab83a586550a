// Upstream-style kernels that take and return containers: tvm/ffi headers,
// TVM_FFI_DLL_EXPORT_TYPED_FUNC, the tvm-ffi-config flags. The headers read
// and build Arrays, Lists, Maps, Dicts, Shapes and Tuples inline, by memory
// layout, so these run only if the runtime's containers have upstream's
// bytes. Loaded by ffi-core's runtime and by the wheel's, from C
// (cxx_kernel_loader.c) and from Python (test_container_kernels.py).
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/tvm_ffi.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

namespace ffi = tvm::ffi;

// The sum of every element of float32 tensors.
double SumTensors(ffi::Array<ffi::Tensor> tensors) {
  double sum = 0;
  for (const ffi::Tensor& t : tensors) {
    TVM_FFI_CHECK(t.dtype() == DLDataType({kDLFloat, 32, 1}), TypeError)
        << "sum_tensors: expects float32";
    const float* data = static_cast<const float*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) sum += data[i];
  }
  return sum;
}

// Row sums of a nested array.
ffi::Array<int64_t> RowSums(ffi::Array<ffi::Array<int64_t>> rows) {
  ffi::Array<int64_t> sums;
  for (const ffi::Array<int64_t>& row : rows) {
    int64_t s = 0;
    for (int64_t v : row) s += v;
    sums.push_back(s);
  }
  return sums;
}

// The value of `key`, or -1.
int64_t Lookup(ffi::Map<ffi::String, int64_t> map, ffi::String key) {
  auto it = map.find(key);
  return it == map.end() ? -1 : (*it).second;
}

// "k=v;" for every entry, keys sorted: the same text whatever the order.
ffi::String Describe(ffi::Map<ffi::String, int64_t> map) {
  std::vector<std::pair<std::string, int64_t>> entries;
  for (const auto& kv : map) entries.emplace_back(std::string(kv.first), kv.second);
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const auto& [k, v] : entries) out += k + "=" + std::to_string(v) + ";";
  return ffi::String(out);
}

// {i: i * i} for i < n.
ffi::Map<int64_t, int64_t> Squares(int64_t n) {
  ffi::Map<int64_t, int64_t> out;
  for (int64_t i = 0; i < n; ++i) out.Set(i, i * i);
  return out;
}

// The value of `key` in a map of any keys, or -1: the headers' inline look-up
// hashes and compares an object key through its type's __any_hash__ and
// __any_equal__ (big integers by value, structural keys by structure).
int64_t LookupAny(ffi::Map<ffi::Any, int64_t> map, ffi::Any key) {
  auto it = map.find(key);
  return it == map.end() ? -1 : (*it).second;
}

// {base + i: i} for i < n, each key a big integer made here.
ffi::Map<ffi::Any, int64_t> OffsetKeys(ffi::BigInt base, int64_t n) {
  ffi::Map<ffi::Any, int64_t> out;
  for (int64_t i = 0; i < n; ++i) out.Set(base + ffi::BigInt(i), i);
  return out;
}

// (n, name, [0, ..., n - 1], Shape(n, 2)).
ffi::Tuple<int64_t, ffi::String, ffi::Array<int64_t>, ffi::Shape> MakeTuple(int64_t n,
                                                                            ffi::String name) {
  ffi::Array<int64_t> range;
  for (int64_t i = 0; i < n; ++i) range.push_back(i);
  return ffi::Tuple<int64_t, ffi::String, ffi::Array<int64_t>, ffi::Shape>(n, name, range,
                                                                           ffi::Shape({n, 2}));
}

// Takes a tuple back apart: first + size of the third.
int64_t ReadTuple(ffi::Tuple<int64_t, ffi::String, ffi::Array<int64_t>> t) {
  return t.get<0>() + static_cast<int64_t>(t.get<2>().size());
}

// The product of a shape's dimensions.
int64_t Volume(ffi::Shape shape) {
  int64_t v = 1;
  for (int64_t d : shape) v *= d;
  return v;
}

// Lists and Dicts are shared and mutable: the caller sees these changes.
int64_t ListAppend(ffi::List<int64_t> list, int64_t value) {
  list.push_back(value);
  return static_cast<int64_t>(list.size());
}

int64_t DictSet(ffi::Dict<ffi::String, ffi::Any> dict, ffi::String key, ffi::Any value) {
  dict.Set(key, value);
  return static_cast<int64_t>(dict.size());
}

// Arrays are copy-on-write: the caller's array keeps its first element.
ffi::Array<int64_t> WithFirst(ffi::Array<int64_t> array, int64_t value) {
  TVM_FFI_CHECK(!array.empty(), IndexError) << "with_first: empty array";
  array.Set(0, value);
  return array;
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_tensors, SumTensors);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(row_sums, RowSums);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(lookup, Lookup);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(describe, Describe);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(squares, Squares);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(lookup_any, LookupAny);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(offset_keys, OffsetKeys);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_tuple, MakeTuple);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(read_tuple, ReadTuple);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(volume, Volume);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(list_append, ListAppend);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dict_set, DictSet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(with_first, WithFirst);
