// String/Bytes construction and AnyView -> Any conversions through the C API.
// Properties: every byte string comes back unchanged in the right form
// (small up to 7 bytes, an object beyond); an arbitrary 16-byte TVMFFIAny
// (pointers swapped for real objects or NULL so the harness itself stays
// defined) is either refused with an error, or accepted by both
// TVMFFIFunctionCall and TVMFFIAnyViewToOwnedAny and converts to an owned Any
// that satisfies every invariant; typed reads never crash; nothing leaks.
#include "fuzz_support.h"

using namespace ffi_core;
using namespace ffi_core_fuzz;

namespace {

int g_calls = 0;
int CountCall(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) {
  ++g_calls;
  return 0;
}

void CheckSequence(const uint8_t* p, size_t n, int32_t small, int32_t object,
                   int (*make)(const TVMFFIByteArray*, TVMFFIAny*)) {
  const TVMFFIByteArray in{reinterpret_cast<const char*>(p), n};
  TVMFFIAny out = NoneAny();
  if (make(&in, &out) != 0) {
    TakeRaisedError();  // only a MemoryError can stop it
    return;
  }
  FUZZ_CHECK(out.type_index == (n <= kSmallBytesCapacity ? small : object));
  const TVMFFIByteArray back = detail::ByteSequenceView(out);
  FUZZ_CHECK(back.size == n && (n == 0 || std::memcmp(back.data, p, n) == 0));
  FUZZ_CHECK(back.data[n] == '\0');
  FUZZ_CHECK(CheckAnyInvariants(out, -1).ok());
  if (out.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(out.v_obj);
}

// Typed reads of an accepted value: results are discarded, crashes are not.
void ReadTyped(const TVMFFIAny& raw) {
  const AnyView v = AnyView::FromRaw(raw);
  int64_t i = 0;
  double d = 0;
  bool b = false;
  DLDataType dt{};
  DLDevice dev{};
  static_cast<void>(v.TryAs(&i));
  static_cast<void>(v.TryAs(&d));
  static_cast<void>(v.TryAs(&b));
  static_cast<void>(v.TryAs(&dt));
  static_cast<void>(v.TryAs(&dev));
  Expected<String> s = v.As<String>();
  if (!s.ok()) Error::MoveFromRaised();
  Expected<Bytes> by = v.As<Bytes>();
  if (!by.ok()) Error::MoveFromRaised();
  Expected<Function> f = v.As<Function>();
  if (!f.ok()) Error::MoveFromRaised();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CountedRun run;
  CheckSequence(data, size, kTVMFFISmallStr, kTVMFFIStr, &TVMFFIStringFromByteArray);
  CheckSequence(data, size, kTVMFFISmallBytes, kTVMFFIBytes, &TVMFFIBytesFromByteArray);

  Input in(data, size);
  // Real objects for pointer payloads to point at.
  Expected<String> str = String::FromCStr("a string held as an object");
  Expected<Bytes> bytes = Bytes::FromCStr("bytes held as an object");
  TVMFFIObjectHandle fn = nullptr;
  FUZZ_CHECK(str.ok() && bytes.ok());
  FUZZ_CHECK(TVMFFIFunctionCreate(nullptr, &CountCall, nullptr, &fn) == 0);
  static const char kRaw[] = "raw C string";
  static const TVMFFIByteArray kArray{kRaw, sizeof(kRaw) - 1};
  static DLTensor tensor{};

  while (in.size() >= sizeof(TVMFFIAny)) {
    TVMFFIAny raw = in.Take<TVMFFIAny>();
    const int32_t t = raw.type_index;
    // Keep the harness defined: any pointer-carrying tag gets a real
    // pointer (maybe of the wrong kind) or NULL, chosen by the low bits.
    const bool pointer_tag = (t >= kTVMFFIOpaquePtr && t != kTVMFFIDataType && t != kTVMFFIDevice &&
                              t < kTVMFFISmallStr) ||
                             t >= kTVMFFIStaticObjectBegin;
    if (pointer_tag) {
      void* pointers[] = {nullptr, str->any().raw().v_obj,  bytes->any().raw().v_obj,
                          fn,      const_cast<char*>(kRaw), const_cast<TVMFFIByteArray*>(&kArray),
                          &tensor};
      const size_t pick = raw.v_uint64 % (sizeof(pointers) / sizeof(pointers[0]));
      raw.v_uint64 = 0;
      raw.v_ptr = pointers[pick];
      // Objects must be objects; raw pointers may be anything above.
      if (t >= kTVMFFIStaticObjectBegin && pick >= 4) raw.v_ptr = nullptr;
      if (t == kTVMFFIRawStr && pick != 4) raw.v_ptr = const_cast<char*>(kRaw);
      if (t == kTVMFFIByteArrayPtr && pick != 5) raw.v_ptr = const_cast<TVMFFIByteArray*>(&kArray);
      if (t == kTVMFFIDLTensorPtr) raw.v_ptr = pick == 0 ? nullptr : &tensor;
      if (t == kTVMFFIObjectRValueRef) raw.v_ptr = nullptr;  // a pointer to a pointer: not fuzzed
    }
    TVMFFIAny arg = raw;
    TVMFFIAny result = NoneAny();
    const int called = TVMFFIFunctionCall(fn, &arg, 1, &result);
    if (called != 0) TakeRaisedError();
    TVMFFIAny owned = NoneAny();
    const int converted = TVMFFIAnyViewToOwnedAny(&raw, &owned);
    // One set of invariants: what the call refuses, the conversion refuses.
    FUZZ_CHECK((called == 0) == (converted == 0));
    if (converted != 0) {
      TakeRaisedError();
      continue;
    }
    FUZZ_CHECK(CheckAnyInvariants(owned, -1).ok());
    FUZZ_CHECK(owned.type_index != kTVMFFIRawStr && owned.type_index != kTVMFFIByteArrayPtr);
    ReadTyped(raw);
    ReadTyped(owned);
    if (owned.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(owned.v_obj);
  }
  FUZZ_CHECK(TVMFFIObjectDecRef(fn) == 0);
  return 0;
}
