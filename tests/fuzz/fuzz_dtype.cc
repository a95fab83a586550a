// dtype text <-> DLDataType through the C API. Properties: parsing never
// reads past the given size; whatever parses prints, and the printed name
// parses back to the same DLDataType; printing any DLDataType fails cleanly
// or gives a name that, if it parses, prints the same again (printing is
// canonical, not injective: "handle" stands for every handle width), for
// every lane count but the invalid zero.
#include "fuzz_support.h"

using namespace ffi_core_fuzz;

namespace {

bool Same(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

// The printed name of d, through the C API; false (error taken) when refused.
bool Print(DLDataType d, char (&name)[ffi_core::kDataTypeNameCapacity]) {
  TVMFFIAny out = ffi_core::NoneAny();
  if (TVMFFIDataTypeToString(&d, &out) != 0) {
    TakeRaisedError();
    return false;
  }
  const TVMFFIByteArray text = ffi_core::detail::ByteSequenceView(out);
  FUZZ_CHECK(text.size < sizeof(name) && text.data[text.size] == '\0');
  std::memcpy(name, text.data, text.size + 1);
  if (out.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(out.v_obj);
  return true;
}

bool Parse(const char* text, DLDataType* out) {
  const TVMFFIByteArray bytes{text, std::strlen(text)};
  if (TVMFFIDataTypeFromString(&bytes, out) == 0) return true;
  TakeRaisedError();
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CountedRun run;
  // An exact-size heap copy, so ASan sees any read past the end.
  char* text = static_cast<char*>(std::malloc(size == 0 ? 1 : size));
  if (size != 0) std::memcpy(text, data, size);
  const TVMFFIByteArray bytes{text, size};
  DLDataType parsed{};
  char name[ffi_core::kDataTypeNameCapacity];
  if (TVMFFIDataTypeFromString(&bytes, &parsed) == 0) {
    DLDataType again{};
    FUZZ_CHECK(Print(parsed, name));
    FUZZ_CHECK(Parse(name, &again));
    FUZZ_CHECK(Same(parsed, again));
  } else {
    TakeRaisedError();
  }
  std::free(text);

  Input in(data, size);
  DLDataType raw{};
  raw.code = in.Take<uint8_t>();
  raw.bits = in.Take<uint8_t>();
  raw.lanes = in.Take<uint16_t>();
  DLDataType back{};
  char again[ffi_core::kDataTypeNameCapacity];
  // Zero lanes is no valid vector width (only void has it); such names are
  // printed but not canonical.
  if (Print(raw, name) && raw.lanes != 0 && Parse(name, &back)) {
    FUZZ_CHECK(Print(back, again));
    FUZZ_CHECK(std::strcmp(name, again) == 0);
  }
  return 0;
}
