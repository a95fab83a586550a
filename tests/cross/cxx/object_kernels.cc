// An upstream-style kernel library that defines its own Object subclass with
// reflected fields and methods (refl::ObjectDef in a static init block).
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class CounterObj : public ffi::Object {
 public:
  ffi::String name;
  int64_t count = 0;
  double step = 1.0;

  CounterObj(ffi::String n, int64_t c) : name(std::move(n)), count(c) {}

  // Fields written through reflection (def_rw) need a mutable class.
  static constexpr bool _type_mutable = true;

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi_core_test.Counter", CounterObj, ffi::Object);
};

class Counter : public ffi::ObjectRef {
 public:
  Counter(ffi::String name, int64_t start) {
    data_ = ffi::make_object<CounterObj>(std::move(name), start);
  }
  int64_t Advance(int64_t times) const {
    CounterObj* self = const_cast<CounterObj*>(get());
    self->count += times;
    return self->count;
  }
  ffi::String Describe() const {
    return ffi::String(std::string(get()->name) + "=" + std::to_string(get()->count));
  }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Counter, ffi::ObjectRef, CounterObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<CounterObj>()
      .def_ro("name", &CounterObj::name, "What is counted")
      .def_rw("count", &CounterObj::count, "How many so far")
      .def_rw("step", &CounterObj::step)
      .def("advance", &Counter::Advance, "Adds to count, returns it")
      .def("describe", &Counter::Describe);
}

Counter MakeCounter(ffi::String name, int64_t start) { return Counter(std::move(name), start); }

int64_t CountOf(Counter c) { return c->count; }

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_counter, MakeCounter);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(count_of, CountOf);
