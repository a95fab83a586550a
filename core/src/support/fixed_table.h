// Internal: the fixed-size tables core keeps in static storage (system
// library symbols, context symbols) share one find-or-insert rule.
#ifndef FFI_CORE_SRC_SUPPORT_FIXED_TABLE_H_
#define FFI_CORE_SRC_SUPPORT_FIXED_TABLE_H_

#include <cstddef>

namespace ffi_core {
namespace detail {

// The entry `matches` accepts, else the first entry `is_free` accepts, else
// NULL (the table is full). `matches` is only asked of entries in use. The
// caller holds the lock guarding the table.
template <typename Entry, size_t N, typename Matches, typename IsFree>
Entry* FindOrFreeSlot(Entry (&table)[N], Matches matches, IsFree is_free) {
  Entry* free_slot = nullptr;
  for (Entry& e : table) {
    if (is_free(e)) {
      if (free_slot == nullptr) free_slot = &e;
    } else if (matches(e)) {
      return &e;
    }
  }
  return free_slot;
}

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_SUPPORT_FIXED_TABLE_H_
