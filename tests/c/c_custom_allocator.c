/*
 * A C-only firmware whose one source of memory is the allocator it installs
 * with TVMFFISetCustomAllocator: a first-fit allocator over a static buffer
 * that gives space back. It builds Arrays, Maps past the small form and a
 * Dict grown one pair at a time through the container globals, reads them
 * back, releases them and checks that every block came back. On a board
 * there is no other heap, so anything allocated elsewhere would fail; on
 * the host the allocator also counts the buffers (type index kTVMFFINone)
 * it was asked for, which a container past the small form needs.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "c_test_support.h"

#ifndef FFI_CORE_TEST_HEAP_BYTES
#define FFI_CORE_TEST_HEAP_BYTES (64 * 1024)
#endif
#define GRANULE 16u
#define GRANULES (FFI_CORE_TEST_HEAP_BYTES / GRANULE)
/* The largest container built (the micro:bit's 16 KB of RAM holds 17). */
#ifndef FFI_CORE_TEST_MAX_PAIRS
#define FFI_CORE_TEST_MAX_PAIRS 300
#endif
#define MAX_PAIRS FFI_CORE_TEST_MAX_PAIRS

/* ---- first-fit over granules; a record before the alloc header says which ---- */
typedef struct {
  uint32_t first;
  uint32_t count;
} Record;

static unsigned char g_heap[FFI_CORE_TEST_HEAP_BYTES] __attribute__((aligned(64)));
static unsigned char g_used[GRANULES];
static long g_live_blocks;
static long g_buffers; /* requests with type index kTVMFFINone */

static Record* RecordOf(void* body) {
  return (Record*)((char*)body - sizeof(TVMFFIObjectAllocHeader) - sizeof(Record));
}

static void HeapDeleteSpace(void* body) {
  Record r = *RecordOf(body);
  memset(g_used + r.first, 0, r.count);
  --g_live_blocks;
}

static void* HeapAllocate(size_t size, size_t alignment, int32_t type_index, void* ctx) {
  const uintptr_t base = (uintptr_t)g_heap;
  const size_t head = sizeof(Record) + sizeof(TVMFFIObjectAllocHeader);
  uint32_t first;
  (void)ctx;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || size > sizeof(g_heap)) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "test heap: bad request");
    return NULL;
  }
  for (first = 0; first < GRANULES; ++first) {
    const uintptr_t start = base + (uintptr_t)first * GRANULE;
    const uintptr_t body = (start + head + alignment - 1) & ~(uintptr_t)(alignment - 1);
    const size_t count = (body + size - start + GRANULE - 1) / GRANULE;
    size_t i = 0;
    if (first + count > GRANULES) break;
    while (i < count && !g_used[first + i]) ++i;
    if (i == count) {
      Record* r;
      memset(g_used + first, 1, count);
      r = RecordOf((void*)body);
      r->first = first;
      r->count = (uint32_t)count;
      ((TVMFFIObjectAllocHeader*)(body - sizeof(TVMFFIObjectAllocHeader)))->delete_space =
          HeapDeleteSpace;
      ++g_live_blocks;
      if (type_index == kTVMFFINone) ++g_buffers;
      return (void*)body;
    }
    first += (uint32_t)i; /* skip past the used granule that stopped it */
  }
  TVMFFIErrorSetRaisedFromCStr("MemoryError", "test heap exhausted");
  return NULL;
}

/* ---- calling the container globals ---- */
static TVMFFIAny g_args[2 * MAX_PAIRS + 1];
static char g_text[MAX_PAIRS][48];

/* Calls `f`; the result (None on failure, with the error printed). */
static TVMFFIAny Call(TVMFFIObjectHandle f, TVMFFIAny* args, int n) {
  TVMFFIAny r = None();
  if (TVMFFIFunctionCall(f, args, n, &r) != 0) {
    PrintPendingError("call failed");
    return None();
  }
  return r;
}

static void Release(TVMFFIAny a) {
  if (a.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(a.v_obj);
}

/* Long enough to be a heap string, not the small inline form. */
static const char* Text(int i) {
  snprintf(g_text[i], sizeof(g_text[i]), "value number %d, stored as a String", i);
  return g_text[i];
}

static int SameText(TVMFFIAny a, const char* s) {
  TVMFFIByteArray* b;
  if (a.type_index != kTVMFFIStr) return 0;
  b = (TVMFFIByteArray*)((char*)a.v_obj + sizeof(TVMFFIObject));
  return b->size == strlen(s) && memcmp(b->data, s, b->size) == 0;
}

static TVMFFIObjectHandle g_array, g_array_get, g_array_size;
static TVMFFIObjectHandle g_map, g_map_get, g_map_size;
static TVMFFIObjectHandle g_dict, g_dict_set, g_dict_get, g_dict_size;

static void CheckArray(int n) {
  TVMFFIAny arr, size, item, get[2];
  int i, ok = 1;
  for (i = 0; i < n; ++i) g_args[i] = RawStr(Text(i));
  arr = Call(g_array, g_args, n);
  EXPECT(arr.type_index == kTVMFFIArray);
  if (arr.type_index != kTVMFFIArray) return;
  size = Call(g_array_size, &arr, 1);
  EXPECT(size.type_index == kTVMFFIInt && size.v_int64 == n);
  for (i = 0; i < n; ++i) {
    get[0] = arr;
    get[1] = Int(i);
    item = Call(g_array_get, get, 2);
    ok = ok && SameText(item, Text(i));
    Release(item);
  }
  EXPECT(ok);
  Release(arr);
}

static void CheckMap(int n) {
  TVMFFIAny map, size, item, get[2];
  int i, ok = 1;
  for (i = 0; i < n; ++i) {
    g_args[2 * i] = Int(7 * i + 1);
    g_args[2 * i + 1] = RawStr(Text(i));
  }
  map = Call(g_map, g_args, 2 * n);
  EXPECT(map.type_index == kTVMFFIMap);
  if (map.type_index != kTVMFFIMap) return;
  size = Call(g_map_size, &map, 1);
  EXPECT(size.type_index == kTVMFFIInt && size.v_int64 == n);
  for (i = 0; i < n; ++i) {
    get[0] = map;
    get[1] = Int(7 * i + 1);
    item = Call(g_map_get, get, 2);
    ok = ok && SameText(item, Text(i));
    Release(item);
  }
  EXPECT(ok);
  Release(map);
}

/* Grown one pair at a time: every growth frees the old table. */
static void CheckDict(int n) {
  TVMFFIAny dict, size, item, set[3], get[2];
  int i, ok = 1;
  dict = Call(g_dict, NULL, 0);
  EXPECT(dict.type_index == kTVMFFIDict);
  if (dict.type_index != kTVMFFIDict) return;
  for (i = 0; i < n && ok; ++i) {
    TVMFFIAny r = None();
    set[0] = dict;
    set[1] = RawStr(Text(i));
    set[2] = Int(i);
    ok = TVMFFIFunctionCall(g_dict_set, set, 3, &r) == 0;
    if (!ok) PrintPendingError("DictSetItem");
  }
  EXPECT(ok);
  size = Call(g_dict_size, &dict, 1);
  EXPECT(size.type_index == kTVMFFIInt && size.v_int64 == n);
  for (i = 0; i < n; ++i) {
    get[0] = dict;
    get[1] = RawStr(Text(i));
    item = Call(g_dict_get, get, 2);
    ok = ok && item.type_index == kTVMFFIInt && item.v_int64 == i;
  }
  EXPECT(ok);
  Release(dict);
}

/* Past what the heap holds: a MemoryError, and nothing kept. */
static void CheckExhaustion(void) {
  TVMFFIAny dict = Call(g_dict, NULL, 0), set[3], r;
  TVMFFIObjectHandle err = NULL;
  int i;
  if (dict.type_index != kTVMFFIDict) return;
  for (i = 0; i < 100000; ++i) {
    set[0] = dict;
    set[1] = Int(i);
    set[2] = Int(i);
    r = None();
    if (TVMFFIFunctionCall(g_dict_set, set, 3, &r) != 0) break;
  }
  EXPECT(i < 100000);
  TVMFFIErrorMoveFromRaised(&err);
  EXPECT(err != NULL && strncmp(ErrorCellOf(err)->kind.data, "MemoryError", 11) == 0);
  if (err != NULL) {
    printf("exhausted after %d pairs: %.*s\n", i, (int)ErrorCellOf(err)->message.size,
           ErrorCellOf(err)->message.data);
    TVMFFIObjectDecRef(err);
  }
  Release(dict);
}

int main(void) {
  static const int kSizes[] = {0, 1, 4, 5, 17, 64, 150, 300};
  TVMFFICustomAllocator allocator;
  long baseline;
  size_t k;

  allocator.allocate = HeapAllocate;
  allocator.context = NULL;
  EXPECT(TVMFFISetCustomAllocator(&allocator) == 0);
  g_array = Global("ffi.Array");
  g_array_get = Global("ffi.ArrayGetItem");
  g_array_size = Global("ffi.ArraySize");
  g_map = Global("ffi.Map");
  g_map_get = Global("ffi.MapGetItem");
  g_map_size = Global("ffi.MapSize");
  g_dict = Global("ffi.Dict");
  g_dict_set = Global("ffi.DictSetItem");
  g_dict_get = Global("ffi.DictGetItem");
  g_dict_size = Global("ffi.DictSize");
  baseline = g_live_blocks; /* the globals stay in the registry */

  for (k = 0; k < sizeof(kSizes) / sizeof(kSizes[0]) && kSizes[k] <= MAX_PAIRS; ++k) {
    const long buffers = g_buffers;
    CheckArray(kSizes[k]);
    CheckMap(kSizes[k]);
    CheckDict(kSizes[k]);
    EXPECT(g_live_blocks == baseline);
    /* Past 4 pairs a map keeps its items in a buffer of their own. */
    if (kSizes[k] > 4) EXPECT(g_buffers > buffers);
    printf("%d pairs: ok, %ld buffers so far, %ld blocks live\n", kSizes[k], g_buffers,
           g_live_blocks);
  }
  CheckExhaustion();
  EXPECT(g_live_blocks == baseline);
  return ReportResults();
}
