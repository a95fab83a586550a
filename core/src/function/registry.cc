#include <ffi_core/module.h>
#include <ffi_core/port.h>
#include <ffi_core/registry.h>
#include <ffi_core/string.h>

#include <cstring>

#include "function/builtin_globals.h"
#include "function/global_metadata.h"
#include "support/global_lock_guard.h"

namespace ffi_core {
namespace {

// Plain C data so the table needs no constructor: an entry is free while
// its function is NULL. Names are owned String values.
struct Entry {
  TVMFFIAny name;
  TVMFFIObject* function;
};
Entry g_table[FFI_CORE_GLOBAL_FUNCTION_CAPACITY];
// One byte per entry, the low byte of its name's hash: a probe compares
// whole names only where it matches.
uint8_t g_tags[FFI_CORE_GLOBAL_FUNCTION_CAPACITY];
constexpr size_t kCapacity = FFI_CORE_GLOBAL_FUNCTION_CAPACITY;

// A multiply per machine word of the name rather than per byte: the last
// word overlaps the one before it when the size is not a multiple, and a
// name shorter than a word is gathered bytewise. The size seeds it. A
// product's low bits see only its inputs' low bits, so the end folds the
// high half down, multiplies and folds again: the home entry and the tag
// (low bits) then depend on every byte (names often differ only at the end).
uintptr_t Hash(const char* name, size_t size) {
  using Word = uintptr_t;
  constexpr Word kMul = static_cast<Word>(0x9E3779B97F4A7C15ull);  // odd
  const auto mix = [](Word h, Word w) { return (h ^ w) * kMul; };
  Word h = size;
  if (size >= sizeof(Word)) {
    Word w;
    for (size_t i = 0; i + sizeof(Word) < size; i += sizeof(Word)) {
      std::memcpy(&w, name + i, sizeof(Word));
      h = mix(h, w);
    }
    std::memcpy(&w, name + size - sizeof(Word), sizeof(Word));
    h = mix(h, w);
  } else {
    Word w = 0;
    for (size_t i = 0; i < size; ++i) w = (w << 8) | static_cast<unsigned char>(name[i]);
    h = mix(h, w);
  }
  constexpr unsigned kHalf = sizeof(Word) * 4;
  h = mix(h, h >> kHalf);
  return h ^ (h >> kHalf);
}

// Open addressing: a name's entry is its hash's home entry or a later one
// (wrapping), before the first free entry (removal shifts entries back to
// keep it so).
// Returns the entry registered as `name`, else the free entry where it
// would go, else NULL (the table is full without it). A look-up thus reads
// an entry or two, not the table.
Entry* Probe(const char* name, size_t size) {
  const uintptr_t hash = Hash(name, size);
  const uint8_t tag = static_cast<uint8_t>(hash);
  size_t i = hash % kCapacity;
  for (size_t probed = 0; probed < kCapacity; ++probed) {
    Entry& e = g_table[i];
    if (e.function == nullptr) return &e;
    if (g_tags[i] == tag && SameBytes(detail::ByteSequenceView(e.name), {name, size})) return &e;
    i = i + 1 == kCapacity ? 0 : i + 1;
  }
  return nullptr;
}

void DropMetadata(const char* name, size_t size) {
  if (ffi_core_global_function_dropped != nullptr) ffi_core_global_function_dropped(name, size);
}

}  // namespace

Status RegisterGlobalFunction(const char* name, size_t name_size, const Function& f,
                              bool allow_override) {
  if (name == nullptr || name_size == 0) {
    return RaiseError(ErrorKind::kValueError, {"global function name is empty"});
  }
  if (!f) return RaiseError(ErrorKind::kValueError, {"cannot register an empty Function"});
  // Copy the name before taking the lock: it may allocate and raise.
  FFI_CORE_ASSIGN_OR_RETURN(String owned, String::FromBytes(name, name_size));
  TVMFFIObject* old_function = nullptr;
  Any old_name;
  {
    detail::GlobalLockGuard lock;
    Entry* e = Probe(name, name_size);
    if (e == nullptr) {
      return RaiseError(ErrorKind::kMemoryError,
                        {"global function table is full (FFI_CORE_GLOBAL_FUNCTION_CAPACITY=",
                         FFI_CORE_GLOBAL_FUNCTION_CAPACITY, ") registering '", owned.data(), "'"});
    }
    if (e->function != nullptr) {
      if (!allow_override) {
        return RaiseError(ErrorKind::kKeyError,
                          {"global function '", owned.data(), "' is already registered"});
      }
      old_function = e->function;
      old_name = Any::AdoptRaw(e->name);
    }
    ObjectIncRef(f.object().header());
    g_tags[e - g_table] = static_cast<uint8_t>(Hash(name, name_size));
    e->function = f.object().header();
    e->name = Any(owned.any()).ReleaseRaw();
  }
  // Release outside the lock: a deleter may call back into the registry.
  if (old_function != nullptr) {
    ObjectDecRef(old_function);
    DropMetadata(name, name_size);
  }
  return Status::Ok();
}

Expected<Function> GetGlobalFunction(const char* name, size_t name_size) {
  if (name == nullptr && name_size != 0) {
    return RaiseError(ErrorKind::kValueError, {"global function name is NULL"});
  }
  {
    detail::GlobalLockGuard lock;
    Entry* e = Probe(name, name_size);
    if (e != nullptr && e->function != nullptr) {
      return Function(ObjectPtr<FunctionObj>::Retain(reinterpret_cast<FunctionObj*>(e->function)));
    }
  }
  // Not registered: built-in globals are made on demand, so they take no
  // table entry or memory until asked for.
  return detail::FindBuiltinGlobal(name, name_size);
}

bool RemoveGlobalFunction(const char* name, size_t name_size) {
  if (name == nullptr || name_size == 0) return false;
  TVMFFIObject* function = nullptr;
  Any removed_name;
  {
    detail::GlobalLockGuard lock;
    Entry* e = Probe(name, name_size);
    if (e == nullptr || e->function == nullptr) return false;
    function = e->function;
    removed_name = Any::AdoptRaw(e->name);
    // Backward shift: every later entry of the run that could sit in the
    // hole moves into it, so each name stays before the run's first free
    // entry, where Probe stops.
    size_t hole = static_cast<size_t>(e - g_table);
    *e = Entry{NoneAny(), nullptr};
    g_tags[hole] = 0;
    // The hole is free, so the walk ends there at the latest.
    for (size_t j = hole + 1 == kCapacity ? 0 : hole + 1; g_table[j].function != nullptr;
         j = j + 1 == kCapacity ? 0 : j + 1) {
      const TVMFFIByteArray moved = detail::ByteSequenceView(g_table[j].name);
      const size_t home = Hash(moved.data, moved.size) % kCapacity;
      // The entry may fill the hole unless its home is in (hole, j].
      const bool home_after_hole =
          hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (home_after_hole) continue;
      g_table[hole] = g_table[j];
      g_tags[hole] = g_tags[j];
      g_table[j] = Entry{NoneAny(), nullptr};
      g_tags[j] = 0;
      hole = j;
    }
  }
  // Released outside the lock: a deleter may call back into the registry.
  ObjectDecRef(function);
  DropMetadata(name, name_size);
  return true;
}

size_t GlobalFunctionCount() {
  detail::GlobalLockGuard lock;
  size_t n = 0;
  for (const Entry& e : g_table) n += e.function != nullptr ? 1 : 0;
  return n;
}

Expected<String> GlobalFunctionName(size_t index) {
  detail::GlobalLockGuard lock;
  for (const Entry& e : g_table) {
    if (e.function == nullptr) continue;
    if (index-- == 0) return AnyView::FromRaw(e.name).As<String>();
  }
  return String();
}

void ClearGlobalFunctions() {
  Entry taken[FFI_CORE_GLOBAL_FUNCTION_CAPACITY];
  {
    detail::GlobalLockGuard lock;
    for (size_t i = 0; i < FFI_CORE_GLOBAL_FUNCTION_CAPACITY; ++i) {
      taken[i] = g_table[i];
      g_table[i] = Entry{NoneAny(), nullptr};
    }
  }
  for (Entry& e : taken) {
    if (e.function == nullptr) continue;
    ObjectDecRef(e.function);
    const TVMFFIByteArray name = detail::ByteSequenceView(e.name);
    DropMetadata(name.data, name.size);
    Any::AdoptRaw(e.name).reset();
  }
}

}  // namespace ffi_core
