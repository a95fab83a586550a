// TVM's VMExecutable serialization (what relax.build writes into
// __tvm_ffi__library_bin): header, function table, memory scopes,
// constants, then bytecode, which compiled-mode executables do not run.
// Little-endian, length-prefixed, every read bounds-checked.
#include <ffi_core/allocator.h>
#include <ffi_core/container/shape.h>
#include <ffi_core/error.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/string.h>
#include <ffi_core/tensor.h>
#include <ffi_core/tvm_vm.h>

#include <cstring>

#include "support/global_lock_guard.h"
#include "vm_objects.h"

#ifndef FFI_CORE_TVM_CONSTANT_ALIGNMENT
#define FFI_CORE_TVM_CONSTANT_ALIGNMENT 64
#endif

namespace ffi_core {
namespace tvm_vm {
namespace {

constexpr uint64_t kMagicV1 = 0xD225DE2F4214151Dull;
constexpr uint64_t kMagicV2 = 0xD225DE2F4214151Eull;
constexpr uint64_t kTensorMagic = 0xDD5E40F096B4A13Full;
constexpr char kVersion[] = "0.14";
// Storage TVM's allocator gives constants; kernels may rely on it.
constexpr size_t kConstantAlignment = FFI_CORE_TVM_CONSTANT_ALIGNMENT;

FFICoreTVMVMStats g_stats;

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : at_(data), end_(data + size) {}

  bool Bytes(void* out, size_t n) {
    if (static_cast<size_t>(end_ - at_) < n) return false;
    std::memcpy(out, at_, n);
    at_ += n;
    return true;
  }
  template <typename T>
  bool Pod(T* out) {
    return Bytes(out, sizeof(T));
  }
  // A length-prefixed string or blob, borrowed.
  bool View(const uint8_t** data, size_t* size) {
    uint64_t n = 0;
    if (!Pod(&n) || n > static_cast<uint64_t>(end_ - at_)) return false;
    *data = at_;
    *size = static_cast<size_t>(n);
    at_ += n;
    return true;
  }
  bool Skip(uint64_t n) {
    if (n > static_cast<uint64_t>(end_ - at_)) return false;
    at_ += n;
    return true;
  }
  const uint8_t* at() const { return at_; }

 private:
  const uint8_t* at_;
  const uint8_t* end_;
};

Status Malformed(const char* what) {
  return RaiseError(ErrorKind::kValueError, {"Relax executable: malformed ", what});
}

// A constant's data: the library's bytes where they are aligned enough
// (nothing to free), else a copy from AllocateBuffer. One type for both, so
// that one tensor constructor serves them.
struct ConstantData {
  const void* source;
  size_t size;
  bool copied;
  Status AllocData(DLTensor* t) {
    if (!copied) {
      t->data = const_cast<void*>(source);
      return Status::Ok();
    }
    t->data = AllocateBuffer(size, kConstantAlignment);
    if (t->data == nullptr) {
      return RaiseError(ErrorKind::kMemoryError,
                        {"Relax executable: no memory for a ", size, "-byte misaligned constant"});
    }
    std::memcpy(t->data, source, size);
    return Status::Ok();
  }
  void FreeData(DLTensor* t) {
    if (copied) FreeBuffer(t->data);
  }
};

Status ReadTensor(Reader* r, Any* out) {
  uint64_t magic = 0;
  uint64_t reserved = 0;
  int32_t device[2];
  int32_t ndim = 0;
  DLDataType dtype;
  if (!r->Pod(&magic) || magic != kTensorMagic || !r->Pod(&reserved) || !r->Pod(&device) ||
      !r->Pod(&ndim) || !r->Pod(&dtype) || ndim < 0 || ndim > FFI_CORE_TENSOR_MAX_NDIM) {
    return Malformed("tensor constant");
  }
  int64_t shape[FFI_CORE_TENSOR_MAX_NDIM];
  int64_t nbytes = 0;
  if (!r->Bytes(shape, sizeof(int64_t) * static_cast<size_t>(ndim)) || !r->Pod(&nbytes) ||
      nbytes < 0) {
    return Malformed("tensor constant");
  }
  const uint8_t* data = r->at();
  if (!r->Skip(static_cast<uint64_t>(nbytes))) return Malformed("tensor constant data");
  const IntSpan dims{shape, ndim};
  const DLDevice cpu{kDLCPU, 0};
  const bool copied = reinterpret_cast<uintptr_t>(data) % kConstantAlignment != 0;
  Expected<Tensor> t = Tensor::FromNDAlloc(ConstantData{data, static_cast<size_t>(nbytes), copied},
                                           dims, dtype, cpu);
  if (!t.ok()) return t.status();
  if (copied) {
    g_stats.constant_bytes_copied += static_cast<size_t>(nbytes);
  } else {
    ++g_stats.constants_in_place;
  }
  if (detail::Numel(t->object()->tensor) * detail::ElementBytes(dtype) != nbytes) {
    return Malformed("tensor constant size");
  }
  *out = Any(*t);
  return Status::Ok();
}

Status ReadConstant(Reader* r, Any* out) {
  int32_t type_index = 0;
  if (!r->Pod(&type_index)) return Malformed("constant");
  switch (type_index) {
    case kTVMFFITensor:
      return ReadTensor(r, out);
    case kTVMFFIShape: {
      uint64_t n = 0;
      if (!r->Pod(&n) || n > FFI_CORE_TENSOR_MAX_NDIM) return Malformed("shape constant");
      int64_t dims[FFI_CORE_TENSOR_MAX_NDIM];
      if (!r->Bytes(dims, sizeof(int64_t) * static_cast<size_t>(n))) {
        return Malformed("shape constant");
      }
      FFI_CORE_ASSIGN_OR_RETURN(Shape s, Shape::FromDims(dims, static_cast<size_t>(n)));
      *out = Any(s);
      return Status::Ok();
    }
    case kTVMFFIStr: {
      const uint8_t* text = nullptr;
      size_t size = 0;
      if (!r->View(&text, &size)) return Malformed("string constant");
      FFI_CORE_ASSIGN_OR_RETURN(String s,
                                String::FromBytes(reinterpret_cast<const char*>(text), size));
      *out = Any(s);
      return Status::Ok();
    }
    case kTVMFFIInt: {
      int64_t v = 0;
      if (!r->Pod(&v)) return Malformed("int constant");
      *out = Any(v);
      return Status::Ok();
    }
    case kTVMFFIFloat: {
      double v = 0;
      if (!r->Pod(&v)) return Malformed("float constant");
      *out = Any(v);
      return Status::Ok();
    }
    case kTVMFFIDataType: {
      DLDataType v;
      if (!r->Pod(&v)) return Malformed("dtype constant");
      *out = Any(v);
      return Status::Ok();
    }
    default:
      return RaiseError(ErrorKind::kValueError,
                        {"Relax executable: unsupported constant of type index ", type_index});
  }
}

bool SameText(const uint8_t* data, size_t size, const char* text) {
  return SameBytes(reinterpret_cast<const char*>(data), size, text, std::strlen(text));
}

}  // namespace

Expected<ObjectPtr<VMStateObj>> ParseExecutable(ModuleObj* library, const uint8_t* data,
                                                size_t size) {
  Reader r(data, size);
  uint64_t magic = 0;
  const uint8_t* version = nullptr;
  size_t version_size = 0;
  if (!r.Pod(&magic) || (magic != kMagicV1 && magic != kMagicV2)) return Malformed("header");
  if (!r.View(&version, &version_size) || !SameText(version, version_size, kVersion)) {
    return RaiseError(ErrorKind::kValueError,
                      {"Relax executable: unsupported version (ffi-core reads ", kVersion, ")"});
  }
  uint64_t num_funcs = 0;
  if (!r.Pod(&num_funcs) || num_funcs > size) return Malformed("function table");
  FFI_CORE_ASSIGN_OR_RETURN(VMStateObj * raw,
                            NewObject<VMStateObj>(kTVMFFIObject, static_cast<size_t>(num_funcs) *
                                                                     sizeof(VMFunctionInfo)));
  ObjectPtr<VMStateObj> state = ObjectPtr<VMStateObj>::Adopt(raw);
  state->library = library;
  for (size_t i = 0; i < static_cast<size_t>(num_funcs); ++i) {
    state->infos()[i].spare_registers = nullptr;
    state->infos()[i].planned = nullptr;
    state->infos()[i].planned_output = nullptr;
  }
  state->num_infos = static_cast<size_t>(num_funcs);
  AddLiveState(state.get());
  for (size_t i = 0; i < state->num_infos; ++i) {
    VMFunctionInfo& f = state->infos()[i];
    const uint8_t* name = nullptr;
    int64_t start = 0;
    int64_t end = 0;
    uint64_t num_params = 0;
    if (!r.Pod(&f.kind) || !r.View(&name, &f.name_size) || !r.Pod(&start) || !r.Pod(&end) ||
        !r.Pod(&f.num_args) || !r.Pod(&f.register_file_size) || !r.Pod(&num_params)) {
      return Malformed("function table");
    }
    f.name = reinterpret_cast<const char*>(name);
    for (uint64_t p = 0; p < num_params; ++p) {
      const uint8_t* param = nullptr;
      size_t param_size = 0;
      if (!r.View(&param, &param_size)) return Malformed("parameter names");
    }
    if (f.num_args < 0 || f.register_file_size < f.num_args + 1) return Malformed("function info");
  }
  if (magic == kMagicV2) {
    uint64_t num_scopes = 0;
    if (!r.Pod(&num_scopes)) return Malformed("memory scopes");
    for (uint64_t i = 0; i < num_scopes; ++i) {
      int64_t index = 0;
      const uint8_t* scope = nullptr;
      size_t scope_size = 0;
      if (!r.Pod(&index) || !r.View(&scope, &scope_size)) return Malformed("memory scopes");
    }
  }
  uint64_t num_constants = 0;
  if (!r.Pod(&num_constants) || num_constants > size) return Malformed("constant pool");
  FFI_CORE_ASSIGN_OR_RETURN(state->constants, NewAnyList(static_cast<size_t>(num_constants)));
  for (size_t i = 0; i < state->constants->size; ++i) {
    FFI_CORE_RETURN_IF_ERROR(ReadConstant(&r, &state->constants->items()[i]));
  }
  g_stats.constants += state->constants->size;
  // The pool holds what the generated code may call by index; compiled
  // entries reach kernels and builtins directly, so NULLs stand for them.
  FFI_CORE_ASSIGN_OR_RETURN(state->functions, NewAnyList(state->num_infos));
  return state;
}

void NoteStorage(size_t bytes) {
  ++g_stats.storage_allocations;
  g_stats.storage_bytes += bytes;
}

}  // namespace tvm_vm
}  // namespace ffi_core

extern "C" void FFICoreTVMGetVMStats(FFICoreTVMVMStats* out) {
  if (out == nullptr) return;
  ffi_core::detail::GlobalLockGuard lock;
  *out = ffi_core::tvm_vm::g_stats;
}
