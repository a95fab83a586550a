/*
 * Prints the C ABI's layout facts, one "name value" line each: sizes,
 * alignments, field offsets, enum values and (in C++) function signatures.
 * Built once against ffi-core's headers and once against the apache-tvm-ffi
 * wheel's; compare.cmake fails on any difference.
 */
#include <stddef.h>
#include <stdio.h>
#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
#define ALIGNOF(T) alignof(T)
#else
#define ALIGNOF(T) _Alignof(T)
#endif

#define SIZE(T) printf("sizeof(%s) %zu\nalignof(%s) %zu\n", #T, sizeof(T), #T, (size_t)ALIGNOF(T))
#define OFF(T, f) printf("offsetof(%s, %s) %zu\n", #T, #f, offsetof(T, f))
#define VALUE(v) printf("%s %ld\n", #v, (long)(v))

#ifdef __cplusplus
#include <cstring>
/* The compiler spells out the function type; both builds must agree. */
template <typename T>
void PrintSignature(const char* name) {
  const char* pretty = __PRETTY_FUNCTION__;
  const char* with = std::strstr(pretty, "T = ");
  const char* type = with != nullptr ? with + 4 : pretty;
  // Drop the closing ']' of "[with T = ...]".
  const int length = static_cast<int>(std::strlen(type)) - (with != nullptr ? 1 : 0);
  printf("signature(%s) %.*s\n", name, length, type);
}
#define SIG(f) PrintSignature<decltype(&f)>(#f)
#endif

int main(void) {
  SIZE(TVMFFIAny);
  OFF(TVMFFIAny, type_index);
  OFF(TVMFFIAny, zero_padding);
  OFF(TVMFFIAny, small_str_len);
  OFF(TVMFFIAny, v_int64);
  OFF(TVMFFIAny, v_float64);
  OFF(TVMFFIAny, v_ptr);
  OFF(TVMFFIAny, v_c_str);
  OFF(TVMFFIAny, v_obj);
  OFF(TVMFFIAny, v_dtype);
  OFF(TVMFFIAny, v_device);
  OFF(TVMFFIAny, v_bytes);
  OFF(TVMFFIAny, v_uint64);

  SIZE(TVMFFIObject);
  OFF(TVMFFIObject, combined_ref_count);
  OFF(TVMFFIObject, type_index);
  OFF(TVMFFIObject, __padding);
  OFF(TVMFFIObject, deleter);
  OFF(TVMFFIObject, __ensure_align);

  SIZE(TVMFFIVersion);
  OFF(TVMFFIVersion, major);
  OFF(TVMFFIVersion, minor);
  OFF(TVMFFIVersion, patch);

  SIZE(TVMFFIByteArray);
  OFF(TVMFFIByteArray, data);
  OFF(TVMFFIByteArray, size);
  SIZE(TVMFFIShapeCell);
  OFF(TVMFFIShapeCell, data);
  OFF(TVMFFIShapeCell, size);
  SIZE(TVMFFISeqCell);
  OFF(TVMFFISeqCell, data);
  OFF(TVMFFISeqCell, size);
  OFF(TVMFFISeqCell, capacity);
  OFF(TVMFFISeqCell, data_deleter);
  SIZE(TVMFFIErrorCell);
  OFF(TVMFFIErrorCell, kind);
  OFF(TVMFFIErrorCell, message);
  OFF(TVMFFIErrorCell, backtrace);
  OFF(TVMFFIErrorCell, update_backtrace);
  OFF(TVMFFIErrorCell, cause_chain);
  OFF(TVMFFIErrorCell, extra_context);
  SIZE(TVMFFIFunctionCell);
  OFF(TVMFFIFunctionCell, safe_call);
  OFF(TVMFFIFunctionCell, cpp_call);
  SIZE(TVMFFIOpaqueObjectCell);
  OFF(TVMFFIOpaqueObjectCell, handle);
  SIZE(TVMFFIObjectAllocHeader);
  OFF(TVMFFIObjectAllocHeader, delete_space);
  SIZE(TVMFFICustomAllocator);
  OFF(TVMFFICustomAllocator, allocate);
  OFF(TVMFFICustomAllocator, context);
  SIZE(TVMFFIObjectHandle);

  VALUE(kTVMFFIAny);
  VALUE(kTVMFFINone);
  VALUE(kTVMFFIInt);
  VALUE(kTVMFFIBool);
  VALUE(kTVMFFIFloat);
  VALUE(kTVMFFIOpaquePtr);
  VALUE(kTVMFFIDataType);
  VALUE(kTVMFFIDevice);
  VALUE(kTVMFFIDLTensorPtr);
  VALUE(kTVMFFIRawStr);
  VALUE(kTVMFFIByteArrayPtr);
  VALUE(kTVMFFIObjectRValueRef);
  VALUE(kTVMFFISmallStr);
  VALUE(kTVMFFISmallBytes);
  VALUE(kTVMFFIUnchanged);
  VALUE(kTVMFFIStaticObjectBegin);
  VALUE(kTVMFFIObject);
  VALUE(kTVMFFIStr);
  VALUE(kTVMFFIBytes);
  VALUE(kTVMFFIError);
  VALUE(kTVMFFIFunction);
  VALUE(kTVMFFIShape);
  VALUE(kTVMFFITensor);
  VALUE(kTVMFFIArray);
  VALUE(kTVMFFIMap);
  VALUE(kTVMFFIModule);
  VALUE(kTVMFFIOpaquePyObject);
  VALUE(kTVMFFIList);
  VALUE(kTVMFFIDict);
  VALUE(kTVMFFIVisitInterrupt);
  VALUE(kTVMFFIBigInt);
  VALUE(kTVMFFIStaticObjectEnd);
  VALUE(kTVMFFIDynObjectBegin);
  VALUE(kTVMFFIObjectDeleterFlagBitMaskStrong);
  VALUE(kTVMFFIObjectDeleterFlagBitMaskWeak);
  VALUE(kTVMFFIObjectDeleterFlagBitMaskBoth);
  VALUE(kTVMFFIBacktraceUpdateModeReplace);
  VALUE(kTVMFFIBacktraceUpdateModeAppend);
  SIZE(TVMFFIFieldInfo);
  OFF(TVMFFIFieldInfo, name);
  OFF(TVMFFIFieldInfo, doc);
  OFF(TVMFFIFieldInfo, metadata);
  OFF(TVMFFIFieldInfo, flags);
  OFF(TVMFFIFieldInfo, size);
  OFF(TVMFFIFieldInfo, alignment);
  OFF(TVMFFIFieldInfo, offset);
  OFF(TVMFFIFieldInfo, getter);
  OFF(TVMFFIFieldInfo, setter);
  OFF(TVMFFIFieldInfo, default_value_or_factory);
  OFF(TVMFFIFieldInfo, field_static_type_index);
  SIZE(TVMFFIMethodInfo);
  OFF(TVMFFIMethodInfo, name);
  OFF(TVMFFIMethodInfo, doc);
  OFF(TVMFFIMethodInfo, metadata);
  OFF(TVMFFIMethodInfo, flags);
  OFF(TVMFFIMethodInfo, method);
  SIZE(TVMFFITypeMetadata);
  OFF(TVMFFITypeMetadata, doc);
  OFF(TVMFFITypeMetadata, creator);
  OFF(TVMFFITypeMetadata, total_size);
  OFF(TVMFFITypeMetadata, structural_eq_hash_kind);
  SIZE(TVMFFITypeAttrColumn);
  OFF(TVMFFITypeAttrColumn, data);
  OFF(TVMFFITypeAttrColumn, size);
  OFF(TVMFFITypeAttrColumn, begin_index);
  SIZE(TVMFFITypeInfo);
  OFF(TVMFFITypeInfo, type_index);
  OFF(TVMFFITypeInfo, type_depth);
  OFF(TVMFFITypeInfo, type_key);
  OFF(TVMFFITypeInfo, type_ancestors);
  OFF(TVMFFITypeInfo, type_key_hash);
  OFF(TVMFFITypeInfo, num_fields);
  OFF(TVMFFITypeInfo, num_methods);
  OFF(TVMFFITypeInfo, fields);
  OFF(TVMFFITypeInfo, methods);
  OFF(TVMFFITypeInfo, metadata);
  VALUE(kTVMFFIFieldFlagBitMaskWritable);
  VALUE(kTVMFFIFieldFlagBitMaskHasDefault);
  VALUE(kTVMFFIFieldFlagBitMaskIsStaticMethod);
  VALUE(kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  VALUE(kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  VALUE(kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  VALUE(kTVMFFIFieldFlagBitMaskReprOff);
  VALUE(kTVMFFIFieldFlagBitMaskCompareOff);
  VALUE(kTVMFFIFieldFlagBitMaskHashOff);
  VALUE(kTVMFFIFieldFlagBitMaskInitOff);
  VALUE(kTVMFFIFieldFlagBitMaskKwOnly);
  VALUE(kTVMFFIFieldFlagBitSetterIsFunctionObj);
  VALUE(kTVMFFIFieldFlagBitMaskSEqHashDefSimple);
  VALUE(kTVMFFISEqHashKindUnsupported);
  VALUE(kTVMFFISEqHashKindTreeNode);
  VALUE(kTVMFFISEqHashKindFreeVar);
  VALUE(kTVMFFISEqHashKindDAGNode);
  VALUE(kTVMFFISEqHashKindConstTreeNode);
  VALUE(kTVMFFISEqHashKindUniqueInstance);
  VALUE(kTVMFFIDefRegionKindNone);
  VALUE(kTVMFFIDefRegionKindPattern);
  VALUE(kTVMFFIDefRegionKindSimple);
  VALUE(sizeof(TVMFFISEqHashKind));
  VALUE(sizeof(TVMFFITypeIndex));
  VALUE(TVM_FFI_VERSION_MAJOR);
  VALUE(TVM_FFI_VERSION_MINOR);

#ifdef __cplusplus
  SIG(TVMFFIGetVersion);
  SIG(TVMFFIObjectIncRef);
  SIG(TVMFFIObjectDecRef);
  SIG(TVMFFIObjectCreateOpaque);
  SIG(TVMFFIGetCustomAllocator);
  SIG(TVMFFISetCustomAllocator);
  SIG(TVMFFIFunctionCreate);
  SIG(TVMFFIFunctionGetGlobal);
  SIG(TVMFFIFunctionSetGlobal);
  SIG(TVMFFIAnyViewToOwnedAny);
  SIG(TVMFFIFunctionCall);
  SIG(TVMFFIErrorMoveFromRaised);
  SIG(TVMFFIErrorSetRaised);
  SIG(TVMFFIErrorSetRaisedFromCStr);
  SIG(TVMFFIErrorSetRaisedFromCStrParts);
  SIG(TVMFFIErrorCreate);
  SIG(TVMFFIStringFromByteArray);
  SIG(TVMFFIBytesFromByteArray);
  SIG(TVMFFIDataTypeFromString);
  SIG(TVMFFIDataTypeToString);
  SIG(TVMFFIErrorCreateWithCauseAndExtraContext);
  SIG(TVMFFIBigIntFromByteArray);
  SIG(TVMFFIBigIntGetContentByteArray);
  SIG(TVMFFITypeKeyToIndex);
  SIG(TVMFFITypeGetOrAllocIndex);
  SIG(TVMFFIGetTypeInfo);
  SIG(TVMFFITypeRegisterField);
  SIG(TVMFFITypeRegisterMethod);
  SIG(TVMFFITypeRegisterMetadata);
  SIG(TVMFFITypeRegisterAttr);
  SIG(TVMFFIGetTypeAttrColumn);
  SIG(TVMFFIFunctionSetGlobalFromMethodInfo);
  SIG(TVMFFIBacktrace);
  PrintSignature<TVMFFIFieldGetter>("TVMFFIFieldGetter");
  PrintSignature<TVMFFIFieldSetter>("TVMFFIFieldSetter");
  PrintSignature<TVMFFIObjectCreator>("TVMFFIObjectCreator");
  {
    TVMFFISafeCallType safe_call = 0;
    (void)safe_call;
    PrintSignature<TVMFFISafeCallType>("TVMFFISafeCallType");
  }
#endif
  return 0;
}
