#include <ffi_core/module.h>
#include <ffi_core/port.h>
#include <ffi_core/registry.h>
#include <ffi_core/string.h>

#include <cstring>

#include "builtin_globals.h"
#include "fixed_table.h"
#include "global_lock_guard.h"

namespace ffi_core {
namespace {

// Plain C data so the table needs no constructor: an entry is free while
// its function is NULL. Names are owned String values.
struct Entry {
  TVMFFIAny name;
  TVMFFIObject* function;
};
Entry g_table[FFI_CORE_GLOBAL_FUNCTION_CAPACITY];
// One byte per entry, a digest of its name: a look-up compares whole names
// only where the digest matches (a byte of RAM per entry instead of a string
// comparison per entry).
uint8_t g_tags[FFI_CORE_GLOBAL_FUNCTION_CAPACITY];

uint8_t Tag(const char* name, size_t size) {
  if (size == 0) return 0;
  return static_cast<uint8_t>(size * 31u + static_cast<unsigned char>(name[size / 2]) * 7u +
                              static_cast<unsigned char>(name[size - 1]));
}

// Whether `e` is registered as the name with this tag; a free entry never
// is. The tag, one byte, rejects almost every other entry first.
bool IsNamed(const Entry& e, uint8_t tag, const char* name, size_t size) {
  if (g_tags[&e - g_table] != tag || e.function == nullptr) return false;
  const TVMFFIByteArray n = detail::ByteSequenceView(e.name);
  return SameBytes(n.data, n.size, name, size);
}

// The entry registered as `name`, or NULL.
Entry* Find(const char* name, size_t size) {
  const uint8_t tag = Tag(name, size);
  return detail::FindSlot(g_table, [&](const Entry& e) { return IsNamed(e, tag, name, size); });
}

// The entry registered as `name`, else the first free one, else NULL.
Entry* FindOrFree(const char* name, size_t size) {
  const uint8_t tag = Tag(name, size);
  return detail::FindOrFreeSlot(
      g_table, [&](const Entry& e) { return IsNamed(e, tag, name, size); },
      [](const Entry& e) { return e.function == nullptr; });
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
    Entry* e = FindOrFree(name, name_size);
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
    g_tags[e - g_table] = Tag(name, name_size);
    e->function = f.object().header();
    e->name = Any(owned.any()).ReleaseRaw();
  }
  // Release outside the lock: a deleter may call back into the registry.
  if (old_function != nullptr) ObjectDecRef(old_function);
  return Status::Ok();
}

Expected<Function> GetGlobalFunction(const char* name, size_t name_size) {
  if (name == nullptr && name_size != 0) {
    return RaiseError(ErrorKind::kValueError, {"global function name is NULL"});
  }
  {
    detail::GlobalLockGuard lock;
    Entry* e = Find(name, name_size);
    if (e != nullptr) {
      return Function(ObjectPtr<FunctionObj>::Retain(reinterpret_cast<FunctionObj*>(e->function)));
    }
  }
  // Not registered: built-in globals are made on demand, so they take no
  // table entry or memory until asked for.
  return detail::FindBuiltinGlobal(name, name_size);
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
    Any::AdoptRaw(e.name).reset();
  }
}

}  // namespace ffi_core
