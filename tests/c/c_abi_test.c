/*
 * Written against the C ABI alone (tvm/ffi/c_api.h): what a DSL compiler or
 * a C firmware emits. A kernel exported as __tvm_ffi_<name> reads its
 * arguments by type index; a caller wraps it with TVMFFIFunctionCreate,
 * calls it through TVMFFIFunctionCall and reads errors back from the
 * TVMFFIErrorCell that follows the object header. Object storage comes from
 * a static-buffer allocator installed with TVMFFISetCustomAllocator, so the
 * same file runs on the host and on boards with no heap.
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "c_test_support.h"

/* ---- a bump allocator over static storage, with upstream's header ---- */
typedef struct {
  unsigned char buffer[4096];
  size_t used;
  int live;
} StaticHeap;

static StaticHeap g_heap;

static void StaticHeapDeleteSpace(void* body) {
  (void)body;
  --g_heap.live; /* bump allocator: space returns when the heap is reset */
}

static void* StaticHeapAllocate(size_t size, size_t alignment, int32_t type_index, void* ctx) {
  StaticHeap* heap = (StaticHeap*)ctx;
  size_t header = sizeof(TVMFFIObjectAllocHeader);
  size_t start = (heap->used + header + alignment - 1) / alignment * alignment;
  (void)type_index;
  if (start + size > sizeof(heap->buffer)) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "static heap exhausted");
    return NULL;
  }
  heap->used = start + size;
  ((TVMFFIObjectAllocHeader*)(heap->buffer + start - header))->delete_space = StaticHeapDeleteSpace;
  ++heap->live;
  return heap->buffer + start;
}

/* ---- the kernel: int64 + int64, or a TypeError ---- */
TVM_FFI_DLL_EXPORT int __tvm_ffi_add_i64(void* handle, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  (void)handle;
  if (num_args != 2) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add_i64 expects 2 arguments");
    return -1;
  }
  if (args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    const char* parts[] = {"add_i64: argument ", args[0].type_index != kTVMFFIInt ? "0" : "1",
                           " must be int"};
    TVMFFIErrorSetRaisedFromCStrParts("TypeError", parts, 3);
    return -1;
  }
  memset(result, 0, sizeof(*result));
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}

static int TextIs(TVMFFIByteArray b, const char* s) {
  return b.size == strlen(s) && memcmp(b.data, s, b.size) == 0;
}

int main(void) {
  TVMFFICustomAllocator allocator;
  TVMFFIObjectHandle func = NULL;
  TVMFFIObjectHandle err = NULL;
  TVMFFIAny args[2];
  TVMFFIAny result;
  TVMFFIByteArray name;
  TVMFFIObjectHandle global = NULL;
  TVMFFIVersion version;

  allocator.allocate = StaticHeapAllocate;
  allocator.context = &g_heap;
  EXPECT(TVMFFISetCustomAllocator(&allocator) == 0);

  TVMFFIGetVersion(&version);
  EXPECT(version.major == TVM_FFI_VERSION_MAJOR && version.minor == TVM_FFI_VERSION_MINOR);

  EXPECT(TVMFFIFunctionCreate(NULL, __tvm_ffi_add_i64, NULL, &func) == 0);
  EXPECT(func != NULL);
  EXPECT(((TVMFFIObject*)func)->type_index == kTVMFFIFunction);
  EXPECT(g_heap.live == 1);

  /* A good call. The caller sets the result to None first. */
  args[0] = Int(40);
  args[1] = Int(2);
  memset(&result, 0, sizeof(result));
  EXPECT(TVMFFIFunctionCall(func, args, 2, &result) == 0);
  EXPECT(result.type_index == kTVMFFIInt && result.v_int64 == 42);

  /* A bad argument: the kernel raises, the caller reads the cell. */
  memset(&args[1], 0, sizeof(args[1]));
  args[1].type_index = kTVMFFIFloat;
  args[1].v_float64 = 2.0;
  memset(&result, 0, sizeof(result));
  EXPECT(TVMFFIFunctionCall(func, args, 2, &result) != 0);
  TVMFFIErrorMoveFromRaised(&err);
  EXPECT(err != NULL);
  if (err != NULL) {
    EXPECT(((TVMFFIObject*)err)->type_index == kTVMFFIError);
    EXPECT(TextIs(ErrorCellOf(err)->kind, "TypeError"));
    EXPECT(TextIs(ErrorCellOf(err)->message, "add_i64: argument 1 must be int"));
    printf("error read back: %.*s: %.*s\n", (int)ErrorCellOf(err)->kind.size,
           ErrorCellOf(err)->kind.data, (int)ErrorCellOf(err)->message.size,
           ErrorCellOf(err)->message.data);
    EXPECT(TVMFFIObjectDecRef(err) == 0);
  }

  /* Wrong arity. */
  memset(&result, 0, sizeof(result));
  EXPECT(TVMFFIFunctionCall(func, args, 1, &result) != 0);
  TVMFFIErrorMoveFromRaised(&err);
  EXPECT(err != NULL && TextIs(ErrorCellOf(err)->message, "add_i64 expects 2 arguments"));
  if (err != NULL) TVMFFIObjectDecRef(err);

  /* Register globally, look it up by name, call again. */
  name.data = "c_test.add_i64";
  name.size = strlen(name.data);
  EXPECT(TVMFFIFunctionSetGlobal(&name, func, 0) == 0);
  EXPECT(TVMFFIFunctionGetGlobal(&name, &global) == 0);
  EXPECT(global == func);
  args[1] = Int(-50);
  memset(&result, 0, sizeof(result));
  EXPECT(TVMFFIFunctionCall(global, args, 2, &result) == 0);
  EXPECT(result.v_int64 == -10);
  if (global != NULL) EXPECT(TVMFFIObjectDecRef(global) == 0);

  /* Errors raised by the runtime itself use the same cell. */
  EXPECT(TVMFFIFunctionCall(NULL, args, 2, &result) != 0);
  TVMFFIErrorMoveFromRaised(&err);
  EXPECT(err != NULL && TextIs(ErrorCellOf(err)->kind, "ValueError"));
  if (err != NULL) TVMFFIObjectDecRef(err);

  EXPECT(TVMFFIObjectDecRef(func) == 0);
  /* The registry still holds the function (and its name, if long). */
  EXPECT(g_heap.live >= 1);

  EXPECT(TVMFFISetCustomAllocator(NULL) == 0);
  return ReportResults();
}
