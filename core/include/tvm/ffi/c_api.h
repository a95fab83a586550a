/*
 * ffi-core: the TVM-FFI stable C ABI.
 *
 * Names, enum values, struct layouts and calling rules match the released
 * apache-tvm-ffi 0.1.x headers, so C written against upstream compiles and
 * links unchanged against ffi-core. tests/layout checks this against the
 * wheel's headers field by field. The text is ffi-core's own.
 *
 * Compiles as C99 and as C++17.
 */
#ifndef TVM_FFI_C_API_H_
#define TVM_FFI_C_API_H_

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

/* Symbol visibility. A firmware image links statically, so these only matter
 * for shared-library builds on the host. */
#ifdef _MSC_VER
#define TVM_FFI_WEAK __declspec(selectany)
#else
#define TVM_FFI_WEAK __attribute__((weak))
#endif

#if !defined(TVM_FFI_DLL) && defined(_MSC_VER)
#ifdef TVM_FFI_EXPORTS
#define TVM_FFI_DLL __declspec(dllexport)
#else
#define TVM_FFI_DLL __declspec(dllimport)
#endif
#define TVM_FFI_DLL_EXPORT __declspec(dllexport)
#endif
#ifndef TVM_FFI_DLL
#define TVM_FFI_DLL __attribute__((visibility("default")))
#define TVM_FFI_DLL_EXPORT __attribute__((visibility("default")))
#endif

/* Anonymous unions are C11; GCC and Clang accept them in C99 as an
 * extension, and __extension__ keeps -pedantic quiet about it. */
#if defined(__GNUC__) && !defined(__cplusplus)
#define TVM_FFI_ANON_UNION __extension__ union
#else
#define TVM_FFI_ANON_UNION union
#endif

/* The ABI version ffi-core implements. */
#define TVM_FFI_VERSION_MAJOR 0
#define TVM_FFI_VERSION_MINOR 1
#define TVM_FFI_VERSION_PATCH 16

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} TVMFFIVersion;

/* Type indices are fixed numbers shared by every runtime speaking the ABI.
 * Values below kTVMFFIStaticObjectBegin live inline in a TVMFFIAny; values
 * from there on are pointers to ref-counted objects. In C++ the underlying
 * type is pinned to int32_t; in C the enum is only used for its constants
 * (TVMFFIAny stores an int32_t), so short-enum targets are unaffected. */
#ifdef __cplusplus
enum TVMFFITypeIndex : int32_t {
#else
typedef enum {
#endif
  kTVMFFIAny = -1,
  kTVMFFINone = 0,
  kTVMFFIInt = 1,
  kTVMFFIBool = 2,
  kTVMFFIFloat = 3,
  kTVMFFIOpaquePtr = 4,
  kTVMFFIDataType = 5,
  kTVMFFIDevice = 6,
  kTVMFFIDLTensorPtr = 7,
  /* Borrowed NUL-terminated C string: only ever seen in an AnyView, never in
   * an owned Any (converting to owned makes a String). */
  kTVMFFIRawStr = 8,
  kTVMFFIByteArrayPtr = 9,
  kTVMFFIObjectRValueRef = 10,
  /* Up to 7 bytes held inline, length in small_str_len. */
  kTVMFFISmallStr = 11,
  kTVMFFISmallBytes = 12,
  kTVMFFIUnchanged = 13,
  kTVMFFIStaticObjectBegin = 64,
  kTVMFFIObject = 64,
  kTVMFFIStr = 65,
  kTVMFFIBytes = 66,
  kTVMFFIError = 67,
  kTVMFFIFunction = 68,
  kTVMFFIShape = 69,
  kTVMFFITensor = 70,
  kTVMFFIArray = 71,
  kTVMFFIMap = 72,
  kTVMFFIModule = 73,
  kTVMFFIOpaquePyObject = 74,
  kTVMFFIList = 75,
  kTVMFFIDict = 76,
  kTVMFFIVisitInterrupt = 77,
  kTVMFFIBigInt = 78,
  kTVMFFIStaticObjectEnd,
  kTVMFFIDynObjectBegin = 128
#ifdef __cplusplus
};
#else
} TVMFFITypeIndex;
#endif

typedef void* TVMFFIObjectHandle;

/* Flags passed to an object's deleter: which lifetime just ended. */
#ifdef __cplusplus
enum TVMFFIObjectDeleterFlagBitMask : int32_t {
#else
typedef enum {
#endif
  /* Strong count reached zero: destroy the payload. */
  kTVMFFIObjectDeleterFlagBitMaskStrong = 1 << 0,
  /* Weak count reached zero: release the storage. */
  kTVMFFIObjectDeleterFlagBitMaskWeak = 1 << 1,
  kTVMFFIObjectDeleterFlagBitMaskBoth =
      (kTVMFFIObjectDeleterFlagBitMaskStrong | kTVMFFIObjectDeleterFlagBitMaskWeak),
#ifdef __cplusplus
};
#else
} TVMFFIObjectDeleterFlagBitMask;
#endif

/* The 24-byte header every heap value starts with. combined_ref_count holds
 * the strong count in its low 32 bits and the weak count in its high 32 bits;
 * a fresh object starts at strong 1, weak 1 (the weak count includes one
 * reference held collectively by all strong references). */
typedef struct {
  uint64_t combined_ref_count;
  int32_t type_index;
  uint32_t __padding;
  TVM_FFI_ANON_UNION {
    void (*deleter)(void* self, int flags);
    /* Keeps the header 24 bytes on 32-bit targets too. */
    int64_t __ensure_align;
  };
} TVMFFIObject;

/* The 16-byte tagged value passed across the ABI. Writers zero
 * zero_padding (unless the value is a small string/bytes) and, for values
 * narrower than 8 bytes such as a 4-byte pointer, the unused part of the
 * value union. */
typedef struct {
  int32_t type_index;
  TVM_FFI_ANON_UNION {
    uint32_t zero_padding;
    uint32_t small_str_len;
  };
  TVM_FFI_ANON_UNION {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    const char* v_c_str;
    TVMFFIObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
    char v_bytes[8];
    uint64_t v_uint64;
  };
} TVMFFIAny;

/* A borrowed run of bytes; String and Bytes objects hold one after the header. */
typedef struct {
  const char* data;
  size_t size;
} TVMFFIByteArray;

/* Payload of a Shape object, right after the header. */
typedef struct {
  const int64_t* data;
  size_t size;
} TVMFFIShapeCell;

/* Payload of Array/List objects, right after the header. */
typedef struct {
  void* data;
  int64_t size;
  int64_t capacity;
  void (*data_deleter)(void*);
} TVMFFISeqCell;

#ifdef __cplusplus
enum TVMFFIBacktraceUpdateMode : int32_t {
#else
typedef enum {
#endif
  kTVMFFIBacktraceUpdateModeReplace = 0,
  kTVMFFIBacktraceUpdateModeAppend = 1,
#ifdef __cplusplus
};
#else
} TVMFFIBacktraceUpdateMode;
#endif

/* Payload of an Error object, right after the header. */
typedef struct {
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace;
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
  TVMFFIObjectHandle cause_chain;
  TVMFFIObjectHandle extra_context;
} TVMFFIErrorCell;

/* The one calling convention: returns 0 on success; on failure returns
 * non-zero and leaves an error in the calling thread's error slot. The
 * caller sets result->type_index to kTVMFFINone before the call. */
typedef int (*TVMFFISafeCallType)(void* handle, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result);

/* Payload of a Function object, right after the header. safe_call receives
 * the function object itself as its handle. cpp_call is a same-runtime fast
 * path; ffi-core always leaves it NULL. */
typedef struct {
  TVMFFISafeCallType safe_call;
  void* cpp_call;
} TVMFFIFunctionCell;

/* Payload of an opaque object, right after the header. */
typedef struct {
  void* handle;
} TVMFFIOpaqueObjectCell;

/* Storage header a custom allocator places right before each object body;
 * the object's deleter calls delete_space to give the storage back. */
typedef struct {
  void (*delete_space)(void* ptr);
} TVMFFIObjectAllocHeader;

/* Process-wide object allocator. allocate returns an object body aligned to
 * `alignment`, preceded by an initialised TVMFFIObjectAllocHeader, or NULL
 * after raising an error. */
typedef struct {
  void* (*allocate)(size_t size, size_t alignment, int32_t type_index, void* context);
  void* context;
} TVMFFICustomAllocator;

/* ---- version ---- */
TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version);

/* ---- objects ---- */
TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj);
TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj);
/* Wraps a foreign handle in an object whose last release calls deleter(handle). */
TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out);

/* ---- allocator ---- */
/* Never NULL. On bare metal the built-in default fails every allocation with
 * a MemoryError until the firmware installs one. */
TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void);
/* NULL restores the built-in default. The allocator must outlive every
 * object it made. */
TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator);

/* ---- functions ---- */
TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out);
/* *out is NULL (and 0 is returned) when no function has that name. */
TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override);
/* out must hold None on entry. */
TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result);

/* ---- errors ---- */
/* Hands the pending error to the caller (one strong reference) and clears
 * the slot; *result is NULL when nothing is pending. */
TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result);
/* Takes a new reference to error; a pending error is released. */
TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error);
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message);
/* The message is the concatenation of the parts; NULL parts are skipped. */
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts);
/* Used inside error handling, so it reports failure by return code only and
 * never touches the error slot. */
TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out);
/* As TVMFFIErrorCreate (failure by return code only); the new error also
 * holds a reference to cause_chain and to extra_context (either may be NULL). */
TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out);

/* ---- DLPack ---- */
/* On success the tensor owns `from` and calls its deleter when released; on
 * failure the caller keeps it. require_alignment applies to data +
 * byte_offset (0 or 1: none). */
TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out);
/* A DLPack tensor sharing the Tensor's memory and holding a reference to it. */
TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out);
TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out);
/* A Tensor with the prototype's metadata that keeps `source` alive. Unsafe:
 * the prototype's data must lie in source's memory. Shape and strides are
 * copied. */
TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out);

/* ---- strings, bytes, dtypes ---- */
/* out receives an owned value: SmallStr/SmallBytes up to 7 bytes, else an object. */
TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out);
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out);

/* ---- arbitrary-precision integers ---- */
/* input: whole 64-bit words, least significant first, each in native byte
 * order, two's complement (size a multiple of 8; empty is zero). Redundant
 * sign words are dropped; a value that fits in int64 comes back as kTVMFFIInt,
 * anything larger as a kTVMFFIBigInt object. */
TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
/* Borrows the words of an int or BigInt value in the same format; valid while
 * the value lives. Any other type gives {NULL, 0}. */
TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value);

/* ---- type registry and reflection ----
 * Every static type index is registered under upstream's key ("int",
 * "ffi.String", ...). Dynamic types take indices from kTVMFFIDynObjectBegin;
 * a type may reserve slots for its children. Registered information is
 * copied: callers' buffers need not outlive the call. */

/* Reads the field at `field` into result (an owned value). */
typedef int (*TVMFFIFieldGetter)(void* field, TVMFFIAny* result);
/* Writes value into the field at `field`. */
typedef int (*TVMFFIFieldSetter)(void* field, const TVMFFIAny* value);
/* Makes a new, not yet initialised instance of a type. */
typedef int (*TVMFFIObjectCreator)(TVMFFIObjectHandle* result);

#ifdef __cplusplus
enum TVMFFIFieldFlagBitMask : int32_t {
#else
typedef enum {
#endif
  kTVMFFIFieldFlagBitMaskWritable = 1 << 0,
  kTVMFFIFieldFlagBitMaskHasDefault = 1 << 1,
  kTVMFFIFieldFlagBitMaskIsStaticMethod = 1 << 2,
  kTVMFFIFieldFlagBitMaskSEqHashIgnore = 1 << 3,
  kTVMFFIFieldFlagBitMaskSEqHashDefPattern = 1 << 4,
  /* default_value_or_factory is a Function () -> Any, not the value. */
  kTVMFFIFieldFlagBitMaskDefaultFromFactory = 1 << 5,
  kTVMFFIFieldFlagBitMaskReprOff = 1 << 6,
  kTVMFFIFieldFlagBitMaskCompareOff = 1 << 7,
  kTVMFFIFieldFlagBitMaskHashOff = 1 << 8,
  kTVMFFIFieldFlagBitMaskInitOff = 1 << 9,
  kTVMFFIFieldFlagBitMaskKwOnly = 1 << 10,
  /* setter is a Function object called as (field address, value). */
  kTVMFFIFieldFlagBitSetterIsFunctionObj = 1 << 11,
  kTVMFFIFieldFlagBitMaskSEqHashDefSimple = 1 << 12,
#ifdef __cplusplus
};
#else
} TVMFFIFieldFlagBitMask;
#endif

/* How structural equality and hashing treat a type. */
#ifdef __cplusplus
enum TVMFFISEqHashKind : int32_t {
#else
typedef enum {
#endif
  kTVMFFISEqHashKindUnsupported = 0,
  kTVMFFISEqHashKindTreeNode = 1,
  kTVMFFISEqHashKindFreeVar = 2,
  kTVMFFISEqHashKindDAGNode = 3,
  kTVMFFISEqHashKindConstTreeNode = 4,
  kTVMFFISEqHashKindUniqueInstance = 5,
#ifdef __cplusplus
};
#else
} TVMFFISEqHashKind;
#endif

/* Where free variables are defined during structural comparison. */
#ifdef __cplusplus
enum TVMFFIDefRegionKind : int32_t {
#else
typedef enum {
#endif
  kTVMFFIDefRegionKindNone = 0,
  kTVMFFIDefRegionKindPattern = 1,
  kTVMFFIDefRegionKindSimple = 2,
#ifdef __cplusplus
};
#else
} TVMFFIDefRegionKind;
#endif

/* One reflected field of an object type. setter is a TVMFFIFieldSetter, or a
 * Function object when kTVMFFIFieldFlagBitSetterIsFunctionObj is set.
 * field_static_type_index is the declared type (kTVMFFIAny when any). */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata; /* JSON */
  int64_t flags;
  int64_t size;
  int64_t alignment;
  int64_t offset;
  TVMFFIFieldGetter getter;
  void* setter;
  TVMFFIAny default_value_or_factory;
  int32_t field_static_type_index;
} TVMFFIFieldInfo;

/* One reflected method; method holds a Function whose first argument is self
 * unless kTVMFFIFieldFlagBitMaskIsStaticMethod is set in flags. */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata; /* JSON */
  int64_t flags;
  TVMFFIAny method;
} TVMFFIMethodInfo;

/* Optional per-type facts for creating instances by reflection. */
typedef struct {
  TVMFFIByteArray doc;
  TVMFFIObjectCreator creator;
  int32_t total_size; /* 0 when not fixed */
  TVMFFISEqHashKind structural_eq_hash_kind;
} TVMFFITypeMetadata;

/* One named attribute over all types: the value for type index i is
 * data[i - begin_index] when begin_index <= i < begin_index + size, else
 * absent. Base classes' values are not inherited. */
typedef struct {
  const TVMFFIAny* data;
  int32_t size;
  int32_t begin_index;
} TVMFFITypeAttrColumn;

/* A registered type. type_ancestors[d] is the ancestor at depth d, for d <
 * type_depth (single inheritance). */
#ifdef __cplusplus
struct TVMFFITypeInfo {
#else
typedef struct TVMFFITypeInfo {
#endif
  int32_t type_index;
  int32_t type_depth;
  TVMFFIByteArray type_key;
  const struct TVMFFITypeInfo** type_ancestors;
  uint64_t type_key_hash;
  int32_t num_fields;
  int32_t num_methods;
  const TVMFFIFieldInfo* fields;
  const TVMFFIMethodInfo* methods;
  const TVMFFITypeMetadata* metadata; /* NULL until registered */
#ifdef __cplusplus
};
#else
} TVMFFITypeInfo;
#endif

/* The index registered under type_key; a KeyError when there is none. */
TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex);
/* Registers type_key once and returns its index; later calls return the same
 * index. static_type_index >= 0 checks a static type's key; -1 allocates a
 * dynamic index under parent_type_index (-1: a root). parent_type_index -2
 * only looks up: -2 when type_key is unknown. type_depth is checked against
 * the parent's depth + 1. On failure returns -1 with an error in the slot. */
TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index);
/* NULL when type_index is not registered. */
TVM_FFI_DLL const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index);
/* Dynamic types only: static types' information is read-only in ffi-core
 * (NotImplementedError). As upstream: a field name once per type, methods may
 * share a name (overloads), metadata once per type. The default value, method
 * and setter Function are kept alive by the registry. */
TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata);
/* Sets attribute attr_name of a type to an owned copy of attr_value, once
 * (a RuntimeError when already set). None on kTVMFFINone only makes sure the
 * column exists. */
TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value);
/* NULL when no attribute of that name was registered. The column stays at
 * the same address; its data moves as it grows. */
TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name);
/* TVMFFIFunctionSetGlobal with method_info's name and Function; ffi-core
 * keeps no doc or metadata for globals. */
TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override);

/* ---- backtraces ---- */
/* ffi-core records no backtraces: always an empty array ({"", 0}) with static
 * storage, whatever the arguments. */
TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary);
/* ---- one-time handles for generated code ---- */
/* If *handle_addr is NULL, runs init_func once and stores its result there;
 * concurrent callers wait for it. init_func raises and returns non-zero on
 * failure, which is passed on and leaves *handle_addr NULL. */
TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result));
/* If *handle_addr is not NULL, runs deinit_func on it once and clears it. */
TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle));

#ifdef __cplusplus
} /* extern "C" */

/* Offset helpers for the payload that follows each object header. They are
 * pure address arithmetic, so bindings can reimplement them. */
inline int32_t TVMFFIObjectGetTypeIndex(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIObject*>(obj)->type_index;
}
inline TVMFFIByteArray TVMFFISmallBytesGetContentByteArray(const TVMFFIAny* value) {
  return TVMFFIByteArray{value->v_bytes, static_cast<size_t>(value->small_str_len)};
}
inline TVMFFIByteArray* TVMFFIBytesGetByteArrayPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIByteArray*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}
inline TVMFFIErrorCell* TVMFFIErrorGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIErrorCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}
inline TVMFFIFunctionCell* TVMFFIFunctionGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIFunctionCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}
inline TVMFFIOpaqueObjectCell* TVMFFIOpaqueObjectGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIOpaqueObjectCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}
inline TVMFFIShapeCell* TVMFFIShapeGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIShapeCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}
inline DLTensor* TVMFFITensorGetDLTensorPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<DLTensor*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}
inline DLDevice TVMFFIDLDeviceFromIntPair(int32_t device_type, int32_t device_id) {
  return DLDevice{static_cast<DLDeviceType>(device_type), device_id};
}
#endif /* __cplusplus */

#endif /* TVM_FFI_C_API_H_ */
