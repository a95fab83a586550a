// Reading DLDevice safely across the short-enum boundary.
//
// arm-none-eabi follows the AAPCS: a plain C enum such as DLPack's
// DLDeviceType is one byte in C, while C++ (and upstream's C++ view of the
// header) pins it to int32_t. DLDevice's field offsets agree either way
// (device_id sits at offset 4), but a C writer that assigns the fields of an
// uninitialised DLDevice leaves bytes 1-3 as garbage that a 4-byte reader
// takes as part of the device type.
//
// ffi-core's policy:
//  - Writers zero-initialise every DLDevice / DLTensor they hand over
//    (`DLDevice d = {0};`, memset, or a designated initialiser). ffi-core's
//    own writers always do.
//  - ffi-core reads the device type from the low byte only: every DLPack
//    device type is below 256, so garbage can never select another device.
//  - In checking mode (FFI_CORE_CHECK_PADDING) a kTVMFFIDevice argument with
//    non-zero bytes 1-3 is rejected with a ValueError at TVMFFIFunctionCall,
//    to surface the writer's bug on the target where it happens.
// ffi-core's own ABI structs keep enum-typed fields out for this reason.
// All supported targets are little-endian: the low byte is byte 0.
#ifndef FFI_CORE_DEVICE_H_
#define FFI_CORE_DEVICE_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <cstring>

namespace ffi_core {

// The device_type word as stored, all four bytes.
inline uint32_t DeviceTypeWord(const DLDevice& d) {
  uint32_t word = 0;
  std::memcpy(&word, &d, sizeof(word));
  return word;
}

// The device type, from the byte every writer sets.
inline int32_t DeviceTypeOf(const DLDevice& d) {
  return static_cast<int32_t>(DeviceTypeWord(d) & 0xFFu);
}

// A copy with bytes 1-3 of the device type cleared.
inline DLDevice NormalizeDevice(const DLDevice& d) {
  return DLDevice{static_cast<DLDeviceType>(DeviceTypeOf(d)), d.device_id};
}

// True when bytes 1-3 of the device type are zero, as the policy requires.
inline bool DeviceTypeIsClean(const DLDevice& d) { return (DeviceTypeWord(d) >> 8) == 0; }

}  // namespace ffi_core

#endif  // FFI_CORE_DEVICE_H_
