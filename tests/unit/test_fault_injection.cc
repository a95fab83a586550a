// Fault injection: each scenario runs once cleanly to count its allocations,
// then once per allocation with exactly that one (and every later one)
// failing. Every run must stop with a non-zero return and a MemoryError in
// the slot, give back every block, and run every deleter exactly once.
#include <cstdio>

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

constexpr DLDataType kF32{kDLFloat, 32, 1};
constexpr DLDevice kCPU{kDLCPU, 0};
constexpr const char kLong[] = "a string long enough to need an object";

// Payloads handed to ffi-core with a deleter, and deleter calls: equal at
// the end of every run (the object's deleter, or the caller's on failure).
int g_handed_over = 0;
int g_deleter_calls = 0;
void CountDeleter(void*) { ++g_deleter_calls; }

// Object handles a scenario holds, released on every exit path.
class Held {
 public:
  Held() = default;
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  ~Held() {
    while (n_ > 0) static_cast<void>(TVMFFIObjectDecRef(h_[--n_]));
  }
  void Keep(TVMFFIObjectHandle h) {
    REQUIRE(n_ < kCapacity);
    h_[n_++] = h;
  }
  // Keeps the object an owned Any points to, if any.
  void KeepAny(const TVMFFIAny& a) {
    if (a.type_index >= kTVMFFIStaticObjectBegin) Keep(a.v_obj);
  }

 private:
  static constexpr int kCapacity = 64;
  TVMFFIObjectHandle h_[kCapacity] = {};
  int n_ = 0;
};

// Stops the scenario at the first failure (the error stays pending).
#define STEP(call)              \
  do {                          \
    if ((call) != 0) return -1; \
  } while (0)

int Objects() {
  Held held;
  TVMFFIByteArray text{kLong, sizeof(kLong) - 1};
  TVMFFIAny s = NoneAny();
  STEP(TVMFFIStringFromByteArray(&text, &s));
  held.KeepAny(s);
  TVMFFIAny b = NoneAny();
  STEP(TVMFFIBytesFromByteArray(&text, &b));
  held.KeepAny(b);
  TVMFFIAny view = NoneAny();
  view.type_index = kTVMFFIRawStr;
  view.v_c_str = kLong;
  TVMFFIAny owned = NoneAny();
  STEP(TVMFFIAnyViewToOwnedAny(&view, &owned));
  held.KeepAny(owned);
  TVMFFIObjectHandle opaque = nullptr;
  int payload = 0;
  ++g_handed_over;
  if (TVMFFIObjectCreateOpaque(&payload, kTVMFFIDynObjectBegin, &CountDeleter, &opaque) != 0) {
    CountDeleter(&payload);  // the caller still owns the handle on failure
    return -1;
  }
  held.Keep(opaque);
  DLDataType vec{kDLFloat, 32, 16};  // "float32x16": too long for the small form
  TVMFFIAny name = NoneAny();
  STEP(TVMFFIDataTypeToString(&vec, &name));
  held.KeepAny(name);
  const int64_t dims[3] = {2, 3, 4};
  Expected<Shape> shape = Shape::FromDims(dims, 3);
  return shape.ok() ? 0 : -1;
}

int SumInts(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  int64_t total = 0;
  for (int32_t i = 0; i < num_args; ++i) total += args[i].v_int64;
  result->type_index = kTVMFFIInt;
  result->v_int64 = total;
  return 0;
}

int Functions() {
  Held held;
  TVMFFIObjectHandle f = nullptr;
  int self = 0;
  ++g_handed_over;
  if (TVMFFIFunctionCreate(&self, &SumInts, &CountDeleter, &f) != 0) {
    CountDeleter(&self);  // not adopted: the caller still owns `self`
    return -1;
  }
  held.Keep(f);
  TVMFFIAny args[2] = {AnyView(int64_t{1}).raw(), AnyView(int64_t{2}).raw()};
  TVMFFIAny result = NoneAny();
  STEP(TVMFFIFunctionCall(f, args, 2, &result));
  // A typed function whose result needs memory, called through the C ABI.
  Expected<Function> concat = Function::FromTyped(
      [](String a, int64_t n) -> Expected<String> {
        if (n < 0) return RaiseError(ErrorKind::kValueError, {"negative"});
        char buf[80];
        const size_t len = a.size() < sizeof(buf) ? a.size() : sizeof(buf);
        std::memcpy(buf, a.data(), len);
        return String::FromBytes(buf, len);
      },
      "concat");
  if (!concat.ok()) return -1;
  TVMFFIAny targs[2] = {AnyView(kLong).raw(), AnyView(int64_t{3}).raw()};
  TVMFFIAny tresult = NoneAny();
  STEP(TVMFFIFunctionCall(concat->object().get(), targs, 2, &tresult));
  held.KeepAny(tresult);
  Expected<Any> again = (*concat)(kLong, int64_t{4});
  return again.ok() ? 0 : -1;
}

int RaiseValueError(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "raised by the callee");
  return -1;
}

int Errors() {
  Held held;
  TVMFFIByteArray kind{"KeyError", 8};
  TVMFFIByteArray message{kLong, sizeof(kLong) - 1};
  TVMFFIObjectHandle heap = nullptr;
  if (TVMFFIErrorCreate(&kind, &message, nullptr, &heap) != 0) {
    // TVMFFIErrorCreate leaves the slot alone; say why ourselves.
    return RaiseError(ErrorKind::kMemoryError, {"TVMFFIErrorCreate failed"}).ToReturnCode();
  }
  TVMFFIErrorSetRaised(heap);
  static_cast<void>(TVMFFIObjectDecRef(heap));
  TVMFFIObjectHandle back = nullptr;
  TVMFFIErrorMoveFromRaised(&back);
  held.Keep(back);
  // A callee's error comes back through a call and is taken, not leaked.
  TVMFFIObjectHandle f = nullptr;
  STEP(TVMFFIFunctionCreate(nullptr, &RaiseValueError, nullptr, &f));
  held.Keep(f);
  TVMFFIAny result = NoneAny();
  if (TVMFFIFunctionCall(f, nullptr, 0, &result) == 0) return 0;
  TakenError callee = TakeError();
  if (callee.kind != "ValueError") return -1;
  Expected<Error> made = Error::Create(kind, message);
  return made.ok() ? 0 : -1;
}

// An NDAlloc over the installed allocator, so tensor data is counted too.
struct CountedData {
  size_t bytes = 0;
  Status AllocData(DLTensor* t) {
    bytes = static_cast<size_t>(detail::Numel(*t) * detail::ElementBytes(t->dtype));
    t->data = Allocate(*GetAllocator(), bytes == 0 ? 1 : bytes, 16);
    if (t->data == nullptr) return RaiseError(ErrorKind::kMemoryError, {"tensor data"});
    return Status::Ok();
  }
  void FreeData(DLTensor* t) { Deallocate(*GetAllocator(), t->data, bytes == 0 ? 1 : bytes, 16); }
};

struct Producer {
  float data[6] = {};
  int64_t shape[2] = {2, 3};
  DLManagedTensor managed{};
  Producer() {
    managed.dl_tensor.data = data;
    managed.dl_tensor.device = kCPU;
    managed.dl_tensor.ndim = 2;
    managed.dl_tensor.dtype = kF32;
    managed.dl_tensor.shape = shape;
    managed.deleter = [](DLManagedTensor*) { ++g_deleter_calls; };
  }
};

int Tensors() {
  Held held;
  const int64_t shape[2] = {4, 5};
  Expected<Tensor> owned = Tensor::FromNDAlloc(CountedData{}, IntSpan{shape, 2}, kF32, kCPU);
  if (!owned.ok()) return -1;
  static Producer producer;
  TVMFFIObjectHandle imported = nullptr;
  ++g_handed_over;
  if (TVMFFITensorFromDLPack(&producer.managed, 0, 0, &imported) != 0) {
    producer.managed.deleter(&producer.managed);  // still ours on failure
    return -1;
  }
  held.Keep(imported);
  DLManagedTensor* exported = nullptr;
  STEP(TVMFFITensorToDLPack(owned->object().get(), &exported));
  exported->deleter(exported);
  DLManagedTensorVersioned* exported_v = nullptr;
  STEP(TVMFFITensorToDLPackVersioned(imported, &exported_v));
  exported_v->deleter(exported_v);
  const int64_t col_shape[1] = {4};
  const int64_t col_strides[1] = {5};
  Expected<Tensor> col = owned->as_strided(IntSpan{col_shape, 1}, IntSpan{col_strides, 1}, 1);
  if (!col.ok()) return -1;
  DLTensor proto = *owned->GetDLTensor();
  TVMFFIObjectHandle view = nullptr;
  STEP(TVMFFITensorCreateUnsafeView(owned->object().get(), &proto, &view));
  held.Keep(view);
  return 0;
}

int Globals() {
  Held held;
  // The table holds what is registered; cleared at the end of every run.
  struct Clear {
    ~Clear() { ClearGlobalFunctions(); }
  } clear;
  TVMFFIObjectHandle f = nullptr;
  STEP(TVMFFIFunctionCreate(nullptr, &SumInts, nullptr, &f));
  held.Keep(f);
  const char name[] = "fault.injection.a.rather.long.global.name";
  TVMFFIByteArray n{name, sizeof(name) - 1};
  STEP(TVMFFIFunctionSetGlobal(&n, f, 0));
  STEP(TVMFFIFunctionSetGlobal(&n, f, 1));  // override
  TVMFFIObjectHandle got = nullptr;
  STEP(TVMFFIFunctionGetGlobal(&n, &got));
  held.Keep(got);
  TVMFFIByteArray builtin{"ffi.ModuleGetFunction", 21};
  TVMFFIObjectHandle get_function = nullptr;
  STEP(TVMFFIFunctionGetGlobal(&builtin, &get_function));
  held.Keep(get_function);
  return 0;
}

int ModuleKernel(void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {
  const TVMFFIByteArray text{kLong, sizeof(kLong) - 1};
  return TVMFFIStringFromByteArray(&text, result);
}

int Modules() {
  Held held;
  STEP(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_fault_kernel",
                                           reinterpret_cast<void*>(&ModuleKernel)));
  TVMFFIByteArray lib_name{"ffi.SystemLib", 13};
  TVMFFIObjectHandle system_lib = nullptr;
  STEP(TVMFFIFunctionGetGlobal(&lib_name, &system_lib));
  held.Keep(system_lib);
  TVMFFIAny mod = NoneAny();
  STEP(TVMFFIFunctionCall(system_lib, nullptr, 0, &mod));
  held.KeepAny(mod);
  TVMFFIByteArray get_name{"ffi.ModuleGetFunction", 21};
  TVMFFIObjectHandle get = nullptr;
  STEP(TVMFFIFunctionGetGlobal(&get_name, &get));
  held.Keep(get);
  TVMFFIAny args[3] = {mod, AnyView("fault_kernel").raw(), AnyView(false).raw()};
  TVMFFIAny kernel = NoneAny();
  STEP(TVMFFIFunctionCall(get, args, 3, &kernel));
  held.KeepAny(kernel);
  if (kernel.type_index != kTVMFFIFunction) return -1;
  TVMFFIAny out = NoneAny();
  STEP(TVMFFIFunctionCall(kernel.v_obj, nullptr, 0, &out));
  held.KeepAny(out);
  return 0;
}

// Calls the global `name`; its result kept.
int CallKept(Held* held, const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  TVMFFIByteArray global{name, std::strlen(name)};
  TVMFFIObjectHandle f = nullptr;
  if (TVMFFIFunctionGetGlobal(&global, &f) != 0) return -1;
  held->Keep(f);
  *out = NoneAny();
  if (TVMFFIFunctionCall(f, args, n, out) != 0) return -1;
  held->KeepAny(*out);
  return 0;
}

// Containers built, grown past their capacity and spliced, through the globals.
int Containers() {
  Held held;
  TVMFFIAny items[3] = {AnyView(int64_t{1}).raw(), AnyView(kLong).raw(), AnyView(2.5).raw()};
  TVMFFIAny arr = NoneAny();
  STEP(CallKept(&held, "ffi.Array", items, 3, &arr));
  TVMFFIAny list = NoneAny();
  STEP(CallKept(&held, "ffi.List", items, 2, &list));
  TVMFFIAny out = NoneAny();
  for (int64_t i = 0; i < 6; ++i) {  // past the first capacity: the buffer grows
    TVMFFIAny append[2] = {list, AnyView(kLong).raw()};
    STEP(CallKept(&held, "ffi.ListAppend", append, 2, &out));
  }
  TVMFFIAny splice[4] = {list, AnyView(int64_t{1}).raw(), AnyView(int64_t{3}).raw(), arr};
  STEP(CallKept(&held, "ffi.ListReplaceSlice", splice, 4, &out));
  TVMFFIAny get[2] = {arr, AnyView(int64_t{1}).raw()};
  STEP(CallKept(&held, "ffi.ArrayGetItem", get, 2, &out));
  TVMFFIAny dims[2] = {AnyView(int64_t{2}).raw(), AnyView(int64_t{3}).raw()};
  STEP(CallKept(&held, "ffi.Shape", dims, 2, &out));
  TVMFFIAny pairs[4] = {AnyView(kLong).raw(), arr, AnyView("k").raw(), list};
  TVMFFIAny map = NoneAny();
  STEP(CallKept(&held, "ffi.Map", pairs, 4, &map));
  TVMFFIAny dict = NoneAny();
  STEP(CallKept(&held, "ffi.Dict", pairs, 2, &dict));
  // Past the small form's 4 pairs (the switch to the dense form) and past
  // two table sizes (its growth), then an erase.
  for (int64_t i = 0; i < 20; ++i) {
    TVMFFIAny set[3] = {dict, AnyView(i).raw(), AnyView(kLong).raw()};
    STEP(CallKept(&held, "ffi.DictSetItem", set, 3, &out));
  }
  TVMFFIAny erase[2] = {dict, AnyView(int64_t{3}).raw()};
  STEP(CallKept(&held, "ffi.DictErase", erase, 2, &out));
  TVMFFIAny walk_args[1] = {map};
  TVMFFIAny walk = NoneAny();
  STEP(CallKept(&held, "ffi.MapForwardIterFunctor", walk_args, 1, &walk));
  TVMFFIAny command = AnyView(int64_t{0}).raw();
  STEP(TVMFFIFunctionCall(walk.v_obj, &command, 1, &out));
  held.KeepAny(out);
  return 0;
}

struct Scenario {
  const char* name;
  int (*run)();
};

// Runs `s` cleanly, then failing the N-th allocation for every N it made;
// returns the number of allocation points.
size_t InjectEveryFault(const Scenario& s) {
  AllocatorScope scope;
  CountingAllocator& counter = scope.counter();
  g_handed_over = g_deleter_calls = 0;
  REQUIRE_MESSAGE(s.run() == 0, s.name, ": the clean run failed");
  const size_t points = counter.total_allocations();
  CHECK(counter.live_blocks() == 0);
  CHECK(g_deleter_calls == g_handed_over);
  CHECK_FALSE(HasPendingError());
  for (size_t n = 0; n < points; ++n) {
    CAPTURE(s.name);
    CAPTURE(n);
    g_handed_over = g_deleter_calls = 0;
    counter.FailAfter(static_cast<long>(n));
    const int rc = s.run();
    counter.FailAfter(-1);
    CHECK(rc != 0);
    TakenError t = TakeError();
    CHECK(t.kind == "MemoryError");
    t.error = Error();
    CHECK(counter.live_blocks() == 0);
    CHECK(g_deleter_calls == g_handed_over);
  }
  return points;
}

}  // namespace

TEST_CASE("every allocation failure is a clean MemoryError that leaks nothing") {
  const Scenario scenarios[] = {{"objects", &Objects},      {"functions", &Functions},
                                {"errors", &Errors},        {"tensors", &Tensors},
                                {"globals", &Globals},      {"modules", &Modules},
                                {"containers", &Containers}};
  size_t total = 0;
  for (const Scenario& s : scenarios) {
    const size_t points = InjectEveryFault(s);
    std::printf("fault injection: %-9s %3u allocation points, each failed once\n", s.name,
                static_cast<unsigned>(points));
    CHECK(points > 0);
    total += points;
  }
  std::printf("fault injection: %u failing runs over %u scenarios\n", static_cast<unsigned>(total),
              static_cast<unsigned>(sizeof(scenarios) / sizeof(scenarios[0])));
}
