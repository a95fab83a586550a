// Random operation sequences over the container globals, as a caller of the
// C API makes them: Arrays, Lists, Maps and Dicts built from one another and
// from small and long strings and ints; Lists and Dicts changed (append,
// insert, pop, erase, slices, set, erase key) at random indices and keys, in
// and out of range; look-ups; the next allocations failing. What goes into a
// List or a Dict is never a container, so no reference cycle forms (reference
// counts cannot free one, here as upstream).
// Properties: a call either succeeds or raises (never both, never neither);
// every List and Dict keeps the size a shadow count says; every block comes
// back at the end.
#include "fuzz_support.h"

using namespace ffi_core;
using namespace ffi_core_fuzz;

namespace {

constexpr int kSlots = 6;
constexpr const char kLong[] = "a key long enough to need a string object";

class Interpreter {
 public:
  explicit Interpreter(CountingAllocator* counter) : counter_(counter) {}

  void Step(uint8_t op, uint8_t arg) {
    Any& s = slots_[arg % kSlots];
    Any& t = slots_[(arg / kSlots) % kSlots];
    const AnyView value = Value(arg);
    switch (op % 12) {
      case 0:
        Put(&s, Call("ffi.Array", {value, t, Value(arg / 3)}));
        break;
      case 1:
        Put(&s, Call("ffi.List", {value, Value(arg / 3)}));
        break;
      case 2:
        Put(&s, Call("ffi.Map", {value, t, Value(arg / 5), value}));
        break;
      case 3:
        Put(&s, Call("ffi.Dict", {value, Value(arg / 3)}));
        break;
      case 4:
        Expect(s, "ffi.ListAppend", {s, value}, +1);
        break;
      case 5:
        Expect(s, "ffi.ListInsert", {s, int64_t{arg % 5}, value}, +1);
        break;
      case 6:
        Expect(s, "ffi.ListPop", {s, int64_t{arg % 5} - 1}, -1);
        break;
      case 7: {
        // Replace [b, e) by a new Array of plain values.
        const int64_t b = arg % 3;
        const int64_t e = b + (arg >> 6);
        Any items = Call("ffi.Array", {value, Value(arg / 7)});
        const int64_t before = Size(s);
        Any out;
        const bool ok = Call("ffi.ListReplaceSlice", {s, b, e, items}, &out);
        if (ok) FUZZ_CHECK(Size(s) == before - (e - b) + Size(items));
        break;
      }
      case 8:
        if (const int present = Present(s, value); present >= 0) {
          Expect(s, "ffi.DictSetItem", {s, value, Value(arg / 3)}, present ? 0 : +1);
        }
        break;
      case 9:
        Expect(s, "ffi.DictErase", {s, value}, -1);
        break;
      case 10: {
        Any out;
        Call(arg & 1 ? "ffi.MapGetItem" : "ffi.ArrayContains", {s, value}, &out);
        Call(arg & 2 ? "ffi.ListContains" : "ffi.DictCount", {s, value}, &out);
        Call("ffi.ContainerFindFirstNonCPUDevice", {s}, &out);
        break;
      }
      default:
        counter_->FailAfter((arg & 0x80) ? -1 : arg % 4);
        break;
    }
  }

 private:
  // Calls a global; true when it succeeded, its error taken when it failed.
  static bool Call(const char* global, std::initializer_list<AnyView> args, Any* out) {
    Expected<Function> f = GetGlobalFunction(global, std::strlen(global));
    if (!f.ok() || !*f) {
      TakeRaisedError();
      return false;
    }
    TVMFFIAny raw = NoneAny();
    const int rc = TVMFFIFunctionCall(
        f->object().header(), reinterpret_cast<TVMFFIAny*>(const_cast<AnyView*>(args.begin())),
        static_cast<int32_t>(args.size()), &raw);
    *out = Any::AdoptRaw(raw);
    if (rc != 0) {
      FUZZ_CHECK(out->is_none());
      TakeRaisedError();
    }
    return rc == 0;
  }
  static Any Call(const char* global, std::initializer_list<AnyView> args) {
    Any out;
    Call(global, args, &out);
    return out;
  }

  // A call that, when it succeeds, changes the size of List/Dict `s` by delta.
  static void Expect(const Any& s, const char* global, std::initializer_list<AnyView> args,
                     int64_t delta) {
    const int64_t before = Size(s);
    Any out;
    if (Call(global, args, &out)) FUZZ_CHECK(Size(s) == before + delta);
  }

  static int64_t Size(const AnyView& v) {
    switch (v.type_index()) {
      case kTVMFFIArray:
      case kTVMFFIList:
        return reinterpret_cast<const TVMFFISeqCell*>(v.raw().v_obj + 1)->size;
      case kTVMFFIMap:
      case kTVMFFIDict:
        return static_cast<int64_t>(reinterpret_cast<const MapObj*>(v.raw().v_obj)->size);
      default:
        return 0;
    }
  }

  // Whether Dict `s` has `key`: 1 or 0, or -1 when owning the key failed (an
  // injected allocation failure).
  static int Present(const Any& s, const AnyView& key) {
    if (s.type_index() != kTVMFFIDict) return 0;
    Expected<Any> owned = Any::FromView(key);
    if (!owned.ok()) {
      TakeRaisedError();
      return -1;
    }
    const Dict d(ObjectPtr<MapObj>::Retain(reinterpret_cast<MapObj*>(s.raw().v_obj)));
    return d.Find(*owned) != nullptr ? 1 : 0;
  }

  // Small ints, small strings and one long string, by argument.
  static AnyView Value(uint8_t arg) {
    switch (arg % 4) {
      case 0:
        return AnyView(int64_t{arg % 7});
      case 1:
        return AnyView("k");
      case 2:
        return AnyView(kLong);
      default:
        return AnyView(static_cast<double>(arg % 3));
    }
  }

  static void Put(Any* slot, Any value) {
    if (!value.is_none()) *slot = std::move(value);
  }

  CountingAllocator* counter_;
  Any slots_[kSlots];
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
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
  return 0;
}
