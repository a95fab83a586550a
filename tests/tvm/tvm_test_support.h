// Shared by the TVM test firmwares (run_models.cc, run_relax.cc): a pass/fail
// tally, empty Anys and the pending error's text, through the C API only.
#ifndef FFI_CORE_TESTS_TVM_TVM_TEST_SUPPORT_H_
#define FFI_CORE_TESTS_TVM_TVM_TEST_SUPPORT_H_

#include <tvm/ffi/c_api.h>

#include <cstdio>
#include <cstring>

namespace tvm_test {

inline int g_passed = 0;
inline int g_failed = 0;

inline void Check(bool ok, const char* what, const char* detail = "") {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::printf("FAIL %s %s\n", what, detail);
  }
}

inline TVMFFIAny None() {
  TVMFFIAny a;
  std::memset(&a, 0, sizeof(a));
  return a;
}

// Calls the global function `global`; non-zero when it is missing or fails.
inline int CallGlobal(const char* global, TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  TVMFFIByteArray name{global, std::strlen(global)};
  TVMFFIObjectHandle f = nullptr;
  if (TVMFFIFunctionGetGlobal(&name, &f) != 0 || f == nullptr) return -1;
  const int rc = TVMFFIFunctionCall(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

// Drops the reference an Any holds, if any, and empties it.
inline void Release(TVMFFIAny* a) {
  if (a->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(a->v_obj);
  *a = None();
}

// The pending error, moved out of the slot; its kind and message copied.
struct Taken {
  char kind[32];
  char message[FFI_CORE_ERROR_MESSAGE_CAPACITY];
};
inline Taken TakeError() {
  Taken t{};
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != nullptr) {
    const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
    std::snprintf(t.kind, sizeof(t.kind), "%.*s", static_cast<int>(cell->kind.size),
                  cell->kind.data);
    std::snprintf(t.message, sizeof(t.message), "%.*s", static_cast<int>(cell->message.size),
                  cell->message.data);
    TVMFFIObjectDecRef(err);
  }
  return t;
}

// The pending error, moved out of the slot and read in place (no copy of its
// message on a small stack); released when this goes.
class RaisedError {
 public:
  RaisedError() { TVMFFIErrorMoveFromRaised(&error_); }
  ~RaisedError() {
    if (error_ != nullptr) TVMFFIObjectDecRef(error_);
  }
  RaisedError(const RaisedError&) = delete;
  RaisedError& operator=(const RaisedError&) = delete;
  TVMFFIByteArray kind() const { return Cell() ? Cell()->kind : TVMFFIByteArray{"", 0}; }
  TVMFFIByteArray message() const { return Cell() ? Cell()->message : TVMFFIByteArray{"", 0}; }

 private:
  const TVMFFIErrorCell* Cell() const {
    return error_ != nullptr ? TVMFFIErrorGetCellPtr(error_) : nullptr;
  }
  TVMFFIObjectHandle error_ = nullptr;
};

}  // namespace tvm_test

#endif  // FFI_CORE_TESTS_TVM_TVM_TEST_SUPPORT_H_
