// The Relax executable parser on every truncation and every single-byte
// corruption of a real executable (the one TVM embedded in a model's
// shared library): each must parse or fail with a clear error, never read
// outside the bytes (host-asan runs this too) and never leak.
#include <dlfcn.h>
#include <ffi_core/counting_allocator.h>
#include <ffi_core/error.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "vm_objects.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  // Lazy: only its data is read, its calls into a runtime are never bound.
  void* lib = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
  const auto* bin =
      lib != nullptr ? static_cast<const uint8_t*>(dlsym(lib, "__tvm_ffi__library_bin")) : nullptr;
  if (bin == nullptr) {
    std::printf("cannot read __tvm_ffi__library_bin from %s\n", argv[1]);
    return 1;
  }
  // Skip the library_bin header to the executable's own bytes: nbytes, the
  // import tree (two u64 vectors), the kind string, then the blob.
  auto u64 = [](const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
  };
  const uint8_t* p = bin + 8;
  p += 8 + 8 * u64(p);
  p += 8 + 8 * u64(p);
  p += 8 + u64(p);
  const size_t size = static_cast<size_t>(u64(p));
  const uint8_t* exec = p + 8;

  ffi_core::CountingAllocator counter(ffi_core::SystemAllocator());
  ffi_core::SetAllocator(counter.allocator());
  int parsed = 0;
  int refused = 0;
  int bad = 0;
  auto attempt = [&](const std::vector<uint8_t>& bytes) {
    // A private copy, exactly as long as claimed, so ASan sees any overread.
    auto result = ffi_core::tvm_vm::ParseExecutable(nullptr, bytes.data(), bytes.size());
    if (result.ok()) {
      ++parsed;
      return;
    }
    ffi_core::Error e = ffi_core::Error::MoveFromRaised();
    const TVMFFIByteArray kind = e ? e.kind() : TVMFFIByteArray{"", 0};
    const bool clear = e && ((kind.size == 10 && std::memcmp(kind.data, "ValueError", 10) == 0) ||
                             (kind.size == 11 && std::memcmp(kind.data, "MemoryError", 11) == 0));
    if (clear) {
      ++refused;
    } else {
      ++bad;
    }
  };
  for (size_t n = 0; n < size; ++n) attempt(std::vector<uint8_t>(exec, exec + n));
  for (size_t i = 0; i < size; ++i) {
    std::vector<uint8_t> bytes(exec, exec + size);
    bytes[i] ^= 0xff;
    attempt(bytes);
  }
  std::printf(
      "relax executable of %lu bytes: %d variants parsed, %d refused with ValueError or "
      "MemoryError, %d otherwise; %lu blocks left\n",
      static_cast<unsigned long>(size), parsed, refused, bad,
      static_cast<unsigned long>(counter.live_blocks()));
  const bool ok = bad == 0 && counter.live_blocks() == 0 && refused > 0;
  std::printf("relax malformed executables: %d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
  return ok ? 0 : 1;
}
