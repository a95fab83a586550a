// The stand-in runner's main() and failure report; included once, by the
// translation unit that defines DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN.
#ifndef FFI_CORE_TESTS_FREESTANDING_DOCTEST_MAIN_H_
#define FFI_CORE_TESTS_FREESTANDING_DOCTEST_MAIN_H_

namespace doctest {
namespace detail {

inline void PrintContext(const ContextNode* node) {
  for (; node != nullptr; node = node->outer) node->print(node);
}

inline void PrintSummary() {
  const State& s = GetState();
  std::printf("[doctest] test cases: %lu | %lu passed | %lu failed\n", s.tests_run,
              s.tests_run - s.tests_failed, s.tests_failed);
  std::printf("[doctest] assertions: %lu | %lu passed | %lu failed |\n", s.asserts,
              s.asserts - s.asserts_failed, s.asserts_failed);
  std::printf("[doctest] Status: %s!\n", s.tests_failed == 0 ? "SUCCESS" : "FAILURE");
}

void ReportFailure(const char* file, int line, Level level, const char* macro,
                   const char* expression, const char* values, const char* message) {
  State& s = GetState();
  s.asserts_failed++;
  if (!s.test_failed) {
    s.test_failed = true;
    s.tests_failed++;
  }
  std::printf("%s:%d: %s: %s( %s ) is NOT correct!\n", file, line,
              level == Level::kRequire ? "FATAL ERROR" : "ERROR", macro, expression);
  std::printf("  in test case: %s\n", s.test_name);
  if (values != nullptr) std::printf("  values: %s( %s )\n", macro, values);
  if (message != nullptr) std::printf("  message: %s\n", message);
  PrintContext(s.context);
  if (level == Level::kRequire) {
    // Without exceptions nothing can leave the test case; what the REQUIRE
    // guarded must not run.
    std::printf("REQUIRE failed: the run stops here\n");
    PrintSummary();
    std::exit(1);
  }
}

}  // namespace detail
}  // namespace doctest

int main(int argc, char** argv) {
  using namespace doctest::detail;
  if (argc > 1) {
    std::printf("this runner takes no options (got '%s'): it runs every test case\n", argv[1]);
    return 2;
  }
  State& s = GetState();
  for (TestCase* t = Registry(); t != nullptr; t = t->next) {
    s.test_name = t->name;
    s.test_failed = false;
    s.tests_run++;
    t->function();
  }
  PrintSummary();
  return s.tests_failed == 0 ? 0 : 1;
}

#endif  // FFI_CORE_TESTS_FREESTANDING_DOCTEST_MAIN_H_
