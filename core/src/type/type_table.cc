// The type table and its C entry points (see type_table.h).
#include <ffi_core/error.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/type_table.h>

#include <cstdint>
#include <cstring>

#include "c_api/c_boundary.h"
#include "support/global_lock_guard.h"

namespace ffi_core {
namespace {

// FNV-1a: type_key_hash only has to be stable within one process.
constexpr uint64_t HashKey(const char* key, size_t size) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(key[i]);
    h *= 1099511628211ull;
  }
  return h;
}

constexpr int32_t kNumPodTypes = kTVMFFIUnchanged + 1;
constexpr int32_t kNumStaticTypes =
    kNumPodTypes + (kTVMFFIStaticObjectEnd - kTVMFFIStaticObjectBegin);
constexpr int32_t kObjectSlot = kNumPodTypes;

// Slot in g_static of a static type index, or -1.
int32_t StaticSlot(int32_t type_index) {
  if (type_index >= 0 && type_index < kNumPodTypes) return type_index;
  if (type_index >= kTVMFFIStaticObjectBegin && type_index < kTVMFFIStaticObjectEnd) {
    return kNumPodTypes + (type_index - kTVMFFIStaticObjectBegin);
  }
  return -1;
}

extern const TVMFFITypeInfo g_static[kNumStaticTypes];
// Every static object type derives directly from ffi.Object.
const TVMFFITypeInfo* const g_object_ancestry[1] = {&g_static[kObjectSlot]};

// ffi.Object's size, as upstream publishes it: the Python package sizes a
// Python-defined type's fields from its ancestors' total_size.
const TVMFFITypeMetadata g_object_metadata = {
    {"", 0}, nullptr, static_cast<int32_t>(sizeof(TVMFFIObject)), kTVMFFISEqHashKindUnsupported};

template <size_t N>
constexpr TVMFFITypeInfo StaticType(int32_t type_index, const char (&key)[N]) {
  const int32_t depth = type_index > kTVMFFIObject ? 1 : 0;
  return TVMFFITypeInfo{
      type_index,
      depth,
      {key, N - 1},
      depth != 0 ? const_cast<const TVMFFITypeInfo**>(g_object_ancestry) : nullptr,
      HashKey(key, N - 1),
      0,
      0,
      nullptr,
      nullptr,
      type_index == kTVMFFIObject ? &g_object_metadata : nullptr};
}

// Read-only (flash on a board), in slot order; the keys are upstream's.
const TVMFFITypeInfo g_static[kNumStaticTypes] = {
    StaticType(kTVMFFINone, "None"),
    StaticType(kTVMFFIInt, "int"),
    StaticType(kTVMFFIBool, "bool"),
    StaticType(kTVMFFIFloat, "float"),
    StaticType(kTVMFFIOpaquePtr, "void*"),
    StaticType(kTVMFFIDataType, "DataType"),
    StaticType(kTVMFFIDevice, "Device"),
    StaticType(kTVMFFIDLTensorPtr, "DLTensor*"),
    StaticType(kTVMFFIRawStr, "const char*"),
    StaticType(kTVMFFIByteArrayPtr, "TVMFFIByteArray*"),
    StaticType(kTVMFFIObjectRValueRef, "ObjectRValueRef"),
    StaticType(kTVMFFISmallStr, "ffi.SmallStr"),
    StaticType(kTVMFFISmallBytes, "ffi.SmallBytes"),
    StaticType(kTVMFFIUnchanged, "ffi.Unchanged"),
    StaticType(kTVMFFIObject, "ffi.Object"),
    StaticType(kTVMFFIStr, "ffi.String"),
    StaticType(kTVMFFIBytes, "ffi.Bytes"),
    StaticType(kTVMFFIError, "ffi.Error"),
    StaticType(kTVMFFIFunction, "ffi.Function"),
    StaticType(kTVMFFIShape, "ffi.Shape"),
    StaticType(kTVMFFITensor, "ffi.Tensor"),
    StaticType(kTVMFFIArray, "ffi.Array"),
    StaticType(kTVMFFIMap, "ffi.Map"),
    StaticType(kTVMFFIModule, "ffi.Module"),
    StaticType(kTVMFFIOpaquePyObject, "ffi.OpaquePyObject"),
    StaticType(kTVMFFIList, "ffi.List"),
    StaticType(kTVMFFIDict, "ffi.Dict"),
    StaticType(kTVMFFIVisitInterrupt, "ffi.VisitInterrupt"),
    StaticType(kTVMFFIBigInt, "ffi.BigInt"),
};

// Static types that took reflection: a writable copy of each one's entry in
// g_static, made the first time (WritableStatic), which FindTypeInfo answers
// with from then on. Copied under the global lock before the slot is set, at
// load in practice (upstream's runtime reflects its static types then).
struct ReflectedStatic {
  TVMFFITypeInfo info;
  TVMFFITypeMetadata metadata;
};
constexpr int32_t kReflectedStaticCapacity = FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY;
static_assert(kReflectedStaticCapacity < 256, "g_reflected_slot holds 1 + an index in a byte");
// No storage at all when the capacity is 0 (a board's default).
template <int32_t N>
struct ReflectedStaticPool {
  ReflectedStatic* data() { return items; }
  ReflectedStatic items[N];
};
template <>
struct ReflectedStaticPool<0> {
  ReflectedStatic* data() { return nullptr; }
};
ReflectedStaticPool<kReflectedStaticCapacity> g_reflected_static;
int32_t g_num_reflected_static = 0;
// Per static slot: 1 + the index of its copy in g_reflected_static, or 0.
uint8_t g_reflected_slot[kNumStaticTypes];

struct DynamicType {
  TVMFFITypeInfo info;
  TVMFFITypeMetadata metadata;
  const TVMFFITypeInfo* ancestors[FFI_CORE_TYPE_MAX_DEPTH];
  // Indices [type_index, type_index + num_slots) belong to the type and its
  // children; the first allocated_slots of them are taken.
  int32_t num_slots;
  int32_t allocated_slots;
  bool child_slots_can_overflow;
};

DynamicType g_dynamic[FFI_CORE_TYPE_CAPACITY];
int32_t g_num_dynamic = 0;
// Next index outside every reservation.
int32_t g_next_index = kTVMFFIDynObjectBegin;

char g_text[FFI_CORE_TYPE_TEXT_CAPACITY];
size_t g_text_used = 0;

DynamicType* FindDynamic(int32_t type_index) {
  for (int32_t i = 0; i < g_num_dynamic; ++i) {
    if (g_dynamic[i].info.type_index == type_index) return &g_dynamic[i];
  }
  return nullptr;
}

// A NUL-terminated copy of a key for messages: keys need not end in NUL.
struct ShownKey {
  explicit ShownKey(const TVMFFIByteArray& key) {
    const size_t n = key.size < sizeof(text) - 1 ? key.size : sizeof(text) - 1;
    if (n != 0) std::memcpy(text, key.data, n);
    text[n] = '\0';
  }
  char text[48];
};

bool KeyEquals(const TVMFFITypeInfo& info, const TVMFFIByteArray& key) {
  return SameBytes(info.type_key, key);
}

// Why a registration of `key` is refused: "TVMFFITypeGetOrAllocIndex: type
// '<key>' <what> <value>", named after the C entry point every registration
// goes through. One call site per message keeps the flash cost of the checks
// small.
Status Refuse(ErrorKind kind, const char* key, const char* what, int32_t value) {
  return RaiseError(kind, {"TVMFFITypeGetOrAllocIndex: type '", key, "' ", what, value});
}

// Picks the index of a new child of `parent` taking num_slots indices: from
// the parent's reservation while it lasts, else past every reservation.
Expected<int32_t> AllocateIndex(const TVMFFITypeInfo* parent, const char* key, int32_t num_slots) {
  DynamicType* reserved = parent != nullptr ? FindDynamic(parent->type_index) : nullptr;
  if (reserved != nullptr && reserved->allocated_slots + num_slots <= reserved->num_slots) {
    const int32_t index = reserved->info.type_index + reserved->allocated_slots;
    reserved->allocated_slots += num_slots;
    return index;
  }
  if (reserved != nullptr && !reserved->child_slots_can_overflow) {
    return Refuse(ErrorKind::kValueError, key,
                  "finds no child slot left (and no overflow allowed) under parent index ",
                  reserved->info.type_index);
  }
  const int32_t index = g_next_index;
  g_next_index += num_slots;
  return index;
}

}  // namespace

int32_t FindTypeIndex(const TVMFFIByteArray& type_key) {
  for (const TVMFFITypeInfo& info : g_static) {
    if (KeyEquals(info, type_key)) return info.type_index;
  }
  for (int32_t i = 0; i < g_num_dynamic; ++i) {
    if (KeyEquals(g_dynamic[i].info, type_key)) return g_dynamic[i].info.type_index;
  }
  return -1;
}

const TVMFFITypeInfo* FindTypeInfo(int32_t type_index) {
  const int32_t slot = StaticSlot(type_index);
  if (slot >= 0) {
    const uint8_t copy = g_reflected_slot[slot];
    return copy != 0 ? &g_reflected_static.data()[copy - 1].info : &g_static[slot];
  }
  DynamicType* t = FindDynamic(type_index);
  return t != nullptr ? &t->info : nullptr;
}

const TVMFFITypeInfo* RegisteredTypeInfo(size_t i) {
  if (i < static_cast<size_t>(kNumStaticTypes)) return FindTypeInfo(g_static[i].type_index);
  i -= static_cast<size_t>(kNumStaticTypes);
  detail::GlobalLockGuard lock;
  return i < static_cast<size_t>(g_num_dynamic) ? &g_dynamic[i].info : nullptr;
}

namespace {

// The writable copy of static slot `slot`, made now if it has none.
Expected<DynamicTypeInfo> WritableStatic(const char* function, int32_t slot) {
  uint8_t copy = g_reflected_slot[slot];
  if (copy == 0) {
    if (g_num_reflected_static == kReflectedStaticCapacity) {
      return RaiseError(ErrorKind::kMemoryError,
                        {function, ": static type index ", g_static[slot].type_index,
                         " takes no reflection: FFI_CORE_REFLECTED_STATIC_TYPE_CAPACITY=",
                         kReflectedStaticCapacity});
    }
    ReflectedStatic& r = g_reflected_static.data()[g_num_reflected_static];
    r.info = g_static[slot];
    if (r.info.metadata != nullptr) {
      r.metadata = *r.info.metadata;
      r.info.metadata = &r.metadata;
    }
    copy = static_cast<uint8_t>(++g_num_reflected_static);
    g_reflected_slot[slot] = copy;
  }
  ReflectedStatic& r = g_reflected_static.data()[copy - 1];
  return DynamicTypeInfo{&r.info, &r.metadata};
}

}  // namespace

Expected<DynamicTypeInfo> FindDynamicTypeInfo(const char* function, int32_t type_index) {
  if (DynamicType* t = FindDynamic(type_index)) return DynamicTypeInfo{&t->info, &t->metadata};
  const int32_t slot = StaticSlot(type_index);
  if (slot >= 0) return WritableStatic(function, slot);
  return RaiseError(ErrorKind::kKeyError,
                    {function, ": type index ", type_index, " is not registered"});
}

Expected<TVMFFIByteArray> CopyTypeText(const TVMFFIByteArray& text) {
  if (text.size == 0) return TVMFFIByteArray{"", 0};
  if (text.size >= sizeof(g_text) - g_text_used) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"type registry text is full (FFI_CORE_TYPE_TEXT_CAPACITY=",
                       FFI_CORE_TYPE_TEXT_CAPACITY, ")"});
  }
  char* copy = g_text + g_text_used;
  std::memcpy(copy, text.data, text.size);
  copy[text.size] = '\0';
  g_text_used += text.size + 1;
  return TVMFFIByteArray{copy, text.size};
}

Expected<int32_t> GetOrAllocTypeIndex(const TVMFFIByteArray& type_key, int32_t static_type_index,
                                      int32_t type_depth, int32_t num_child_slots,
                                      bool child_slots_can_overflow, int32_t parent_type_index) {
  const ShownKey shown(type_key);
  detail::GlobalLockGuard lock;
  const int32_t existing = FindTypeIndex(type_key);
  if (parent_type_index == -2) return existing >= 0 ? existing : -2;
  if (existing >= 0) {
    if (static_type_index >= 0 && static_type_index != existing) {
      return Refuse(ErrorKind::kValueError, shown.text, "is registered with index ", existing);
    }
    return existing;
  }
  // As upstream: a library may name an index of the static object range
  // that no type holds (Apache TVM's runtime types do). ffi-core's own
  // static types hold theirs from the start, under upstream's keys.
  if (static_type_index >= 0 &&
      (static_type_index < kTVMFFIStaticObjectBegin || static_type_index >= kTVMFFIDynObjectBegin ||
       FindTypeInfo(static_type_index) != nullptr)) {
    return Refuse(ErrorKind::kValueError, shown.text,
                  "asks for a static index taken or out of range: ", static_type_index);
  }
  const TVMFFITypeInfo* parent = nullptr;
  if (parent_type_index != -1) {
    parent = FindTypeInfo(parent_type_index);
    if (parent == nullptr) {
      return Refuse(ErrorKind::kKeyError, shown.text, "has an unregistered parent index ",
                    parent_type_index);
    }
  }
  const int32_t depth = parent != nullptr ? parent->type_depth + 1 : 0;
  if (type_depth != depth) {
    return Refuse(ErrorKind::kValueError, shown.text, "has, from its parent, depth ", depth);
  }
  if (depth > FFI_CORE_TYPE_MAX_DEPTH) {
    return Refuse(ErrorKind::kMemoryError, shown.text,
                  "is deeper than FFI_CORE_TYPE_MAX_DEPTH=", FFI_CORE_TYPE_MAX_DEPTH);
  }
  if (num_child_slots < 0) {
    return Refuse(ErrorKind::kValueError, shown.text, "asks for negative child slots ",
                  num_child_slots);
  }
  // Before num_child_slots + 1 and the index after them are computed: past
  // the indices left they would overflow int32.
  if (num_child_slots >= INT32_MAX - g_next_index) {
    return Refuse(ErrorKind::kValueError, shown.text,
                  "asks for more child slots than indices: ", num_child_slots);
  }
  if (g_num_dynamic == FFI_CORE_TYPE_CAPACITY) {
    return Refuse(ErrorKind::kMemoryError, shown.text,
                  "finds the type table full: FFI_CORE_TYPE_CAPACITY=", FFI_CORE_TYPE_CAPACITY);
  }
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFIByteArray key, CopyTypeText(type_key));
  // A type at a static index reserves no slots beside it: its children's
  // indices come from past every reservation.
  const bool at_static = static_type_index >= 0;
  int32_t index = static_type_index;
  if (!at_static) {
    FFI_CORE_ASSIGN_OR_RETURN(index, AllocateIndex(parent, key.data, num_child_slots + 1));
  }
  DynamicType& t = g_dynamic[g_num_dynamic];
  for (int32_t d = 0; d + 1 < depth; ++d) t.ancestors[d] = parent->type_ancestors[d];
  if (parent != nullptr) t.ancestors[depth - 1] = parent;
  t.info = TVMFFITypeInfo{index, depth, key,     t.ancestors, HashKey(key.data, key.size),
                          0,     0,     nullptr, nullptr,     nullptr};
  t.metadata = TVMFFITypeMetadata{};
  t.num_slots = at_static ? 1 : num_child_slots + 1;
  t.allocated_slots = 1;
  t.child_slots_can_overflow = at_static || child_slots_can_overflow;
  ++g_num_dynamic;
  return index;
}

}  // namespace ffi_core

using namespace ffi_core;  // NOLINT(build/namespaces): the C boundary

extern "C" {

int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  if (type_key == nullptr) return c_boundary::NullArgument("TVMFFITypeKeyToIndex", "type_key");
  if (out_tindex == nullptr) return c_boundary::NullArgument("TVMFFITypeKeyToIndex", "out_tindex");
  // The key is compared byte by byte: NULL bytes are refused, not read.
  if (c_boundary::NullBytes(*type_key)) {
    return c_boundary::NullArgument("TVMFFITypeKeyToIndex", "type_key->data");
  }
  const int32_t index = FindTypeIndex(*type_key);
  if (index < 0) {
    const ShownKey shown(*type_key);
    return c_boundary::Fail(ErrorKind::kKeyError,
                            {"type key '", shown.text, "' is not registered"});
  }
  *out_tindex = index;
  return 0;
}

int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key, int32_t static_type_index,
                                  int32_t type_depth, int32_t num_child_slots,
                                  int32_t child_slots_can_overflow, int32_t parent_type_index) {
  if (type_key == nullptr) return c_boundary::NullArgument("TVMFFITypeGetOrAllocIndex", "type_key");
  if (c_boundary::NullBytes(*type_key)) {
    return c_boundary::NullArgument("TVMFFITypeGetOrAllocIndex", "type_key->data");
  }
  Expected<int32_t> index =
      GetOrAllocTypeIndex(*type_key, static_type_index, type_depth, num_child_slots,
                          child_slots_can_overflow != 0, parent_type_index);
  return index.ok() ? index.value() : -1;
}

const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) { return FindTypeInfo(type_index); }

}  // extern "C"
