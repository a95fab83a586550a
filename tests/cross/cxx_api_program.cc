// Upstream's C++ API as a program built with the wheel's headers calls it:
// every symbol libtvm_ffi.so provides to such programs (extra/cxx_api on
// ffi-core's side). Built twice, linked to libffi_core.so and to the
// wheel's libtvm_ffi.so; compare_runs.cmake requires the same transcript.
// Usage: cxx_api_program <typed_kernels.so> <throwing_kernels.so>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <typeinfo>

namespace ffi = tvm::ffi;

namespace {

int g_failed = 0;

void Expect(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  if (!ok) ++g_failed;
}

std::string Text(const ffi::Optional<ffi::String>& s) {
  return s ? std::string(s.value()) : "(none)";
}

// The quickstart loader: load, look up, call.
void Modules(const char* typed_path, const char* throwing_path) {
  ffi::Module typed = ffi::Module::LoadFromFile(typed_path);
  ffi::Module throwing = ffi::Module::LoadFromFile(throwing_path);
  ffi::Function mul_add = typed->GetFunction("mul_add", false).value();
  std::printf("mul_add(3, 4, 0.5) = %.1f\n", mul_add(3, 4, 0.5).cast<double>());
  Expect(!typed->GetFunction("checked_div", true).has_value(), "no checked_div before import");
  Expect(typed->ImplementsFunction("greet", false), "implements greet");
  Expect(!typed->ImplementsFunction("nothing", true), "implements no 'nothing'");
  std::printf("doc of mul_add: %s\n", Text(typed->GetFunctionDoc("mul_add", false)).c_str());
  std::printf("doc of greet: %s\n", Text(typed->GetFunctionDoc("greet", false)).c_str());
  Expect(typed->GetFunctionMetadata("mul_add", false).has_value(), "metadata of mul_add");

  typed->ImportModule(throwing);
  ffi::Function div = typed->GetFunction("checked_div", true).value();
  std::printf("checked_div(7, 2) via import = %lld\n",
              static_cast<long long>(div(7, 2).cast<int64_t>()));
  Expect(typed->ImplementsFunction("at", true), "implements 'at' through the import");
  Expect(!typed->GetFunctionDoc("at", true).has_value(), "no doc for 'at'");
  // throwing_kernels.cc exports no metadata: the search reaches the import and finds none.
  Expect(!typed->GetFunctionMetadata("at", true).has_value(), "no metadata for 'at'");
  try {
    throwing->ImportModule(typed);
    Expect(false, "a cyclic import is refused");
  } catch (const ffi::Error& e) {
    std::printf("cyclic import: %s: %s\n", e.kind().c_str(), e.message().c_str());
  }
  typed->ClearImports();
  Expect(!typed->GetFunction("checked_div", true).has_value(), "no checked_div after ClearImports");

  // Error's vtable and typeinfo: what a kernel throws, caught by type.
  try {
    div(1, 0);
    Expect(false, "division by zero throws");
  } catch (const std::exception& e) {
    const ffi::Error* err = dynamic_cast<const ffi::Error*>(&e);
    Expect(err != nullptr && typeid(e) == typeid(ffi::Error), "caught as tvm::ffi::Error");
    if (err != nullptr) std::printf("%s: %s\n", err->kind().c_str(), err->message().c_str());
  }

  static int context_value = 0;
  TVMFFIEnvModRegisterContextSymbol("cxx_api_program_symbol", &context_value);
  bool seen = false;
  ffi::Module::VisitContextSymbols([&seen](ffi::String name, void* symbol) {
    if (name == "cxx_api_program_symbol") seen = symbol == &context_value;
  });
  Expect(seen, "VisitContextSymbols names a registered context symbol");
}

void Json() {
  ffi::json::Value v = ffi::json::Parse(R"({"a": [1, 2.5, "x", true, null], "b": {}})");
  std::printf("Stringify: %s\n", ffi::json::Stringify(v).c_str());
  std::printf("Stringify, indent 2:\n%s\n", ffi::json::Stringify(v, 2).c_str());
  ffi::String error;
  ffi::json::Value bad = ffi::json::Parse("[1,", &error);
  Expect(bad == nullptr && !error.empty(), "bad text: None and a message");
  ffi::json::Parse("[]", &error);
  Expect(error.empty(), "good text: an empty message");
  try {
    ffi::json::Parse("{");
    Expect(false, "bad text without a message throws");
  } catch (const ffi::Error& e) {
    std::printf("Parse('{'): %s\n", e.kind().c_str());
  }
}

void Graphs() {
  ffi::Array<ffi::Any> value{1, ffi::String("two"), ffi::Array<int>{3, 4}};
  ffi::json::Value graph = ffi::ToJSONGraph(value);
  std::printf("ToJSONGraph: %s\n", ffi::json::Stringify(graph).c_str());
  ffi::Any back = ffi::FromJSONGraph(graph);
  Expect(ffi::StructuralEqual::Equal(back, value), "FromJSONGraph gives the value back");
}

void Structural() {
  ffi::Array<int> a{1, 2, 3};
  ffi::Array<int> b{1, 2, 3};
  ffi::Array<int> c{1, 5, 3};
  Expect(ffi::StructuralEqual::Equal(a, b), "StructuralEqual: equal arrays");
  Expect(!ffi::StructuralEqual::Equal(a, c), "StructuralEqual: unequal arrays");
  Expect(ffi::StructuralHash::Hash(a) == ffi::StructuralHash::Hash(b), "StructuralHash agrees");
  Expect(ffi::StructuralHash::Hash(a) != ffi::StructuralHash::Hash(c), "StructuralHash differs");
  Expect(!ffi::StructuralEqual::GetFirstMismatch(a, b).has_value(), "no mismatch when equal");
  ffi::Optional<ffi::reflection::AccessPathPair> mismatch =
      ffi::StructuralEqual::GetFirstMismatch(a, c);
  Expect(mismatch.has_value(), "a mismatch when unequal");
  if (mismatch) {
    ffi::Array<ffi::reflection::AccessStep> steps = mismatch.value().get<0>()->ToSteps();
    std::printf("mismatch: %zu step(s), the last of kind %d key %s\n", steps.size(),
                static_cast<int>(steps.back()->kind), ffi::ReprPrint(steps.back()->key).c_str());
  }
}

void Dataclass() {
  ffi::Array<ffi::Any> value{1, ffi::String("x"), ffi::Array<int>{2}};
  ffi::Any copy = ffi::DeepCopy(value);
  Expect(copy.cast<ffi::ObjectRef>().get() != value.get(), "DeepCopy makes a new object");
  Expect(ffi::RecursiveEq(copy, value), "RecursiveEq of the copy");
  Expect(ffi::RecursiveHash(copy) == ffi::RecursiveHash(value), "RecursiveHash of the copy");
  std::printf("ReprPrint: %s\n", ffi::ReprPrint(value).c_str());
  ffi::Array<int> small{1, 2};
  ffi::Array<int> large{1, 3};
  std::printf("Lt %d Le %d Gt %d Ge %d\n", ffi::RecursiveLt(small, large),
              ffi::RecursiveLe(small, small), ffi::RecursiveGt(small, large),
              ffi::RecursiveGe(large, small));
}

// A reflected object for FindAccessPaths to walk: its fields are the edges.
class NodeObj : public ffi::Object {
 public:
  ffi::Any child;
  ffi::Array<ffi::Any> items;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_program.Node", NodeObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  ffi::reflection::ObjectDef<NodeObj>()
      .def_ro("child", &NodeObj::child)
      .def_ro("items", &NodeObj::items);
}

ffi::ObjectRef Node(ffi::Any child, ffi::Array<ffi::Any> items = {}) {
  ffi::ObjectPtr<NodeObj> n = ffi::make_object<NodeObj>();
  n->child = std::move(child);
  n->items = std::move(items);
  return ffi::ObjectRef(n);
}

std::string PathText(const ffi::reflection::AccessPath& path) {
  std::string text = "<root>";
  for (const ffi::reflection::AccessStep& step : path->ToSteps()) {
    if (step->kind == ffi::reflection::AccessKind::kAttr) {
      text += "." + std::string(step->key.cast<ffi::String>());
    } else {
      text += "[" + std::string(ffi::ReprPrint(step->key)) + "]";
    }
  }
  return text;
}

void FindPaths(const char* what, const ffi::ObjectRef& root,
               std::initializer_list<ffi::ObjectRef> innermost_first, bool allow_prefix) {
  ffi::ObjectPtr<ffi::VisitErrorContextObj> context = ffi::make_object<ffi::VisitErrorContextObj>();
  for (const ffi::ObjectRef& node : innermost_first) context->reverse_visit_pattern.push_back(node);
  ffi::Array<ffi::reflection::AccessPath> paths =
      ffi::VisitErrorContext::FindAccessPaths(root, ffi::VisitErrorContext(context), allow_prefix);
  std::printf("%s:", what);
  for (const ffi::reflection::AccessPath& p : paths) std::printf(" %s", PathText(p).c_str());
  std::printf("\n");
}

void VisitErrors() {
  ffi::ObjectRef leaf = Node(1);
  ffi::ObjectRef a = Node(leaf);
  ffi::Map<ffi::String, ffi::Any> keyed{{"k", leaf}};
  ffi::ObjectRef b = Node(keyed);
  ffi::ObjectRef root = Node(nullptr, {a, b, leaf});
  FindPaths("leaf through a", root, {leaf, a, root}, false);
  FindPaths("leaf anywhere", root, {leaf, root}, false);
  FindPaths("leaf, leaf, a (a run kept once)", root, {leaf, leaf, a}, false);
  FindPaths("the root itself", root, {root}, false);
  FindPaths("an object not there", root, {Node(2), a, root}, false);
  FindPaths("an object not there, prefixes", root, {Node(2), a, root}, true);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <typed_kernels.so> <throwing_kernels.so>\n", argv[0]);
    return 2;
  }
  try {
    Modules(argv[1], argv[2]);
    Json();
    Graphs();
    Structural();
    Dataclass();
    VisitErrors();
  } catch (const std::exception& e) {
    std::printf("uncaught: %s\n", e.what());
    return 1;
  }
  std::printf("%d failed\n", g_failed);
  return g_failed == 0 ? 0 : 1;
}
