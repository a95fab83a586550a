// An interpreter for random operation sequences over the C API: create
// strings, bytes, opaque objects, functions and errors; copy and release
// references; raise, move and re-raise errors; call functions (which may
// raise or allocate); set, get and clear globals; fail the next allocations.
// The harness tracks the references it owns, so it never misuses the API
// itself. Properties: at the end every block has come back (counting
// allocator) and every deleter ran exactly once per payload handed over.
#include "fuzz_support.h"

using namespace ffi_core;
using namespace ffi_core_fuzz;

namespace {

constexpr int kSlots = 8;
constexpr const char kLong[] = "a string that needs an object of its own";

int g_handed_over = 0;
int g_deleted = 0;
void CountDelete(void*) { ++g_deleted; }

// A callee that raises, allocates a result, or returns an int, by argument.
int Callee(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  const int64_t mode = num_args > 0 && args[0].type_index == kTVMFFIInt ? args[0].v_int64 : 0;
  if (mode % 3 == 1) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "the callee refused");
    return -1;
  }
  if (mode % 3 == 2) {
    const TVMFFIByteArray text{kLong, sizeof(kLong) - 1};
    return TVMFFIStringFromByteArray(&text, result);
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = mode;
  return 0;
}

// Each slot holds `refs` strong references the harness owns to `obj`.
struct Slot {
  TVMFFIObjectHandle obj = nullptr;
  int refs = 0;
};

class Interpreter {
 public:
  explicit Interpreter(CountingAllocator* counter) : counter_(counter) {}
  ~Interpreter() {
    for (Slot& s : slots_) Drop(&s);
  }

  void Step(uint8_t op, uint8_t arg) {
    Slot& s = slots_[arg % kSlots];
    switch (op % 14) {
      case 0: {  // a string, small or not
        const TVMFFIByteArray text{kLong, static_cast<size_t>(arg) % sizeof(kLong)};
        TVMFFIAny out = NoneAny();
        if (Check(TVMFFIStringFromByteArray(&text, &out)) && out.type_index >= kTVMFFIStr) {
          Put(&s, out.v_obj);
        }
        break;
      }
      case 1: {
        const TVMFFIByteArray text{kLong, static_cast<size_t>(arg) % sizeof(kLong)};
        TVMFFIAny out = NoneAny();
        if (Check(TVMFFIBytesFromByteArray(&text, &out)) && out.type_index >= kTVMFFIStr) {
          Put(&s, out.v_obj);
        }
        break;
      }
      case 2: {  // an opaque object whose deleter must run once
        TVMFFIObjectHandle h = nullptr;
        ++g_handed_over;
        if (Check(TVMFFIObjectCreateOpaque(&g_deleted, kTVMFFIDynObjectBegin + arg % 4,
                                           &CountDelete, &h))) {
          Put(&s, h);
        } else {
          CountDelete(nullptr);  // still ours
        }
        break;
      }
      case 3: {  // a function owning a payload with a deleter
        TVMFFIObjectHandle h = nullptr;
        ++g_handed_over;
        if (Check(TVMFFIFunctionCreate(&g_deleted, &Callee, &CountDelete, &h))) {
          Put(&s, h);
        } else {
          CountDelete(nullptr);
        }
        break;
      }
      case 4:  // another reference
        if (s.refs > 0) {
          FUZZ_CHECK(TVMFFIObjectIncRef(s.obj) == 0);
          ++s.refs;
        }
        break;
      case 5:  // release one reference
        if (s.refs > 0) {
          FUZZ_CHECK(TVMFFIObjectDecRef(s.obj) == 0);
          if (--s.refs == 0) s.obj = nullptr;
        }
        break;
      case 6: {  // raise from C text
        const char* parts[] = {"fuzzed ", (arg & 1) ? kLong : nullptr, "error"};
        TVMFFIErrorSetRaisedFromCStrParts((arg & 2) ? "TypeError" : "SomethingError", parts, 3);
        break;
      }
      case 7: {  // move the pending error into a slot
        TVMFFIObjectHandle e = nullptr;
        TVMFFIErrorMoveFromRaised(&e);
        if (e != nullptr) {
          FUZZ_CHECK(TVMFFIObjectGetTypeIndex(e) == kTVMFFIError);
          Put(&s, e);
        }
        break;
      }
      case 8:  // re-raise a held error (the slot takes its own reference)
        if (s.refs > 0 && TVMFFIObjectGetTypeIndex(s.obj) == kTVMFFIError) {
          TVMFFIErrorSetRaised(s.obj);
        }
        break;
      case 9: {  // a heap error
        const TVMFFIByteArray kind{"KeyError", 8};
        const TVMFFIByteArray message{kLong, static_cast<size_t>(arg) % sizeof(kLong)};
        TVMFFIObjectHandle e = nullptr;
        if (TVMFFIErrorCreate(&kind, &message, nullptr, &e) == 0) Put(&s, e);
        break;
      }
      case 10:  // call whatever is in the slot (non-functions are refused)
        if (s.refs > 0) {
          TVMFFIAny args[1] = {AnyView(static_cast<int64_t>(arg)).raw()};
          TVMFFIAny result = NoneAny();
          if (Check(TVMFFIFunctionCall(s.obj, args, 1, &result)) &&
              result.type_index >= kTVMFFIStaticObjectBegin) {
            FUZZ_CHECK(TVMFFIObjectDecRef(result.v_obj) == 0);
          }
        }
        break;
      case 11: {  // register the slot's object as a global
        if (s.refs == 0) break;
        const char name[2] = {static_cast<char>('a' + arg % 4), 0};
        const TVMFFIByteArray n{name, 1};
        Check(TVMFFIFunctionSetGlobal(&n, s.obj, arg & 4));
        break;
      }
      case 12: {  // look a global up into a slot
        const char name[2] = {static_cast<char>('a' + arg % 4), 0};
        const TVMFFIByteArray n{name, 1};
        TVMFFIObjectHandle f = nullptr;
        if (Check(TVMFFIFunctionGetGlobal(&n, &f)) && f != nullptr) Put(&s, f);
        break;
      }
      case 13:  // the next few allocations fail, or failures stop
        counter_->FailAfter((arg & 0x80) ? -1 : arg % 4);
        break;
    }
  }

 private:
  // Takes the pending error of a failed call; true on success.
  static bool Check(int rc) {
    if (rc == 0) return true;
    TakeRaisedError();
    return false;
  }
  void Put(Slot* s, TVMFFIObjectHandle obj) {
    Drop(s);
    s->obj = obj;
    s->refs = 1;
  }
  static void Drop(Slot* s) {
    for (; s->refs > 0; --s->refs) FUZZ_CHECK(TVMFFIObjectDecRef(s->obj) == 0);
    s->obj = nullptr;
  }

  CountingAllocator* counter_;
  Slot slots_[kSlots];
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_handed_over = g_deleted = 0;
  {
    CountedRun run;
    {
      Interpreter interp(&run.counter());
      Input in(data, size);
      while (in.size() >= 2) {
        const uint8_t op = in.Take<uint8_t>();
        interp.Step(op, in.Take<uint8_t>());
      }
      run.counter().FailAfter(-1);
    }
    ClearGlobalFunctions();
    TVMFFIObjectHandle pending = nullptr;
    TVMFFIErrorMoveFromRaised(&pending);
    if (pending != nullptr) FUZZ_CHECK(TVMFFIObjectDecRef(pending) == 0);
  }  // the counting allocator checks that every block came back
  FUZZ_CHECK(g_deleted == g_handed_over);
  return 0;
}
