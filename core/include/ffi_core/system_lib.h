/* Storage for the system library's symbol table, from the objects that fill
 * it. The table holds FFI_CORE_SYSTEM_LIB_CAPACITY symbols; an object that
 * registers more (a compiled model: one per kernel) brings static slots for
 * them and hands them over before any registration runs, from a constructor
 * of priority 101, so no table is sized by hand and link order does not
 * matter. C99 and C++17. */
#ifndef FFI_CORE_SYSTEM_LIB_H_
#define FFI_CORE_SYSTEM_LIB_H_

#include <stddef.h>

/* Without c_api.h (and DLPack): a compiled model's generated C includes it. */
#if defined(__GNUC__) || defined(__clang__)
#define FFI_CORE_SYSTEM_LIB_API __attribute__((visibility("default")))
#else
#define FFI_CORE_SYSTEM_LIB_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FFICoreSystemLibSlot {
  const char* name;
  void* symbol;
} FFICoreSystemLibSlot;

/* `count` slots at `slots`, owned by the caller for the rest of the program;
 * `next` is the system library's. */
typedef struct FFICoreSystemLibBlock {
  FFICoreSystemLibSlot* slots;
  size_t count;
  struct FFICoreSystemLibBlock* next;
} FFICoreSystemLibBlock;

/* Adds the block's slots to the system library's table (emptying them).
 * Returns non-zero with a ValueError for a NULL or already added block, or
 * NULL slots. */
FFI_CORE_SYSTEM_LIB_API int FFICoreSystemLibAddSlots(FFICoreSystemLibBlock* block);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif /* FFI_CORE_SYSTEM_LIB_H_ */
