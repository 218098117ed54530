#include "catch.hpp"
#include "text_match.hpp"

#include "judge/base/file_input.hpp"
#include "judge/compile/object_inspection.hpp"

#include <string>
#include <vector>

using judge_test::contains;

namespace {

/// nm -D --undefined-only of a small nvcc-built solution.so (CUDA 13, GCC 12), one line per symbol.
const std::string nvcc_solution_imports = "                 w _ITM_deregisterTMCloneTable\n"
                                          "                 U _Unwind_Resume@GCC_3.0\n"
                                          "                 U _ZNKSt5ctypeIcE13_M_widen_initEv@GLIBCXX_3.4.11\n"
                                          "                 U _ZNSo3putEc@GLIBCXX_3.4\n"
                                          "                 U _ZNSo5flushEv@GLIBCXX_3.4\n"
                                          "                 U "
                                          "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_appendEPKcm@"
                                          "GLIBCXX_3.4.21\n"
                                          "                 U _ZNSt8ios_base4InitC1Ev@GLIBCXX_3.4\n"
                                          "                 U "
                                          "_ZSt16__ostream_insertIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_"
                                          "PKS3_l@GLIBCXX_3.4.9\n"
                                          "                 U _ZSt20__throw_length_errorPKc@GLIBCXX_3.4\n"
                                          "                 U _ZSt4cout@GLIBCXX_3.4\n"
                                          "                 U _ZdlPvm@CXXABI_1.3.9\n"
                                          "                 U _Znwm@GLIBCXX_3.4\n"
                                          "                 U __cudaLaunchKernel@libcudart.so.13\n"
                                          "                 U __cudaRegisterFatBinary@libcudart.so.13\n"
                                          "                 U __cxa_atexit@GLIBC_2.2.5\n"
                                          "                 w __cxa_finalize@GLIBC_2.2.5\n"
                                          "                 w __gmon_start__\n"
                                          "                 U __gxx_personality_v0@CXXABI_1.3\n"
                                          "                 U cudaDeviceSynchronize@libcudart.so.13\n"
                                          "                 U memset@GLIBC_2.2.5\n"
                                          "                 U printf@GLIBC_2.2.5\n";

const std::string clean_dynamic = " 0x0000000000000001 (NEEDED)             Shared library: [libcudart.so.13]\n"
                                  " 0x0000000000000001 (NEEDED)             Shared library: [libstdc++.so.6]\n"
                                  " 0x0000000000000001 (NEEDED)             Shared library: [libgcc_s.so.1]\n"
                                  " 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]\n"
                                  " 0x000000000000000c (INIT)               0x1000\n";

const std::string clean_segments =
    "  LOAD           0x000000 0x0000000000000000 0x0000000000000000 0x000b70 0x000b70 R   0x1000\n"
    "  GNU_STACK      0x000000 0x0000000000000000 0x0000000000000000 0x000000 0x000000 RW  0x10\n";

judge::object_tool_output clean_object() { return {nvcc_solution_imports, clean_dynamic, clean_segments}; }

} // namespace

TEST_CASE("nm's undefined symbols lose their version and keep whether they are weak", "[inspection]") {
  const auto symbols = judge::parse_undefined_symbols("                 U printf@GLIBC_2.2.5\n"
                                                      "                 w __gmon_start__\n"
                                                      "                 U pthread_create@@GLIBC_2.34\n"
                                                      "0000000000001139 T solve\n");
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[0].name == "printf");
  CHECK_FALSE(symbols[0].weak);
  CHECK(symbols[1].name == "__gmon_start__");
  CHECK(symbols[1].weak);
  CHECK(symbols[2].name == "pthread_create");
}

TEST_CASE("what an ordinary nvcc-built solution imports is allowed", "[inspection]") {
  const auto findings = judge::inspection_findings(clean_object());
  CAPTURE(findings);
  CHECK(findings.empty());
}

TEST_CASE("a forbidden import is refused with its rule, strong or weak", "[inspection]") {
  using row = std::pair<std::string, std::string>;
  const auto [symbol, rule] = GENERATE(table<std::string, std::string>({
      row{"pthread_create", "may not start threads or processes"},
      row{"fork", "may not start threads or processes"},
      row{"_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE",
          "may not start threads or processes"},
      row{"execve", "may not run other programs"},
      row{"dup2", "file descriptors"},
      row{"close", "file descriptors"},
      row{"setenv", "may not change the environment"},
      row{"dlopen", "may not load libraries"},
      row{"dlsym", "may not load libraries"},
      row{"syscall", "raw system calls"},
      row{"opendir", "may not open, list or change files"},
      row{"fopen64", "may not open, list or change files"},
      row{"_ZNSt10filesystem7__cxx1118directory_iteratorC1ERKNS_7__cxx114pathENS_17directory_optionsEPSt10error_code",
          "may not open, list or change files"},
      row{"_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode", "may not open, list or change files"},
      row{"socket", "network"},
      row{"kill", "signals"},
      row{"setsid", "process group or session"},
      row{"cudaIpcGetMemHandle", "share GPU memory"},
      row{"cudaLaunchHostFunc", "host code from the GPU's queue"},
      row{"cudaStreamAddCallback", "host code from the GPU's queue"},
      row{"cudaDeviceReset", "reset or reconfigure the device"},
      row{"cudaSetDeviceFlags", "reset or reconfigure the device"},
      row{"cudaProfilerStart", "profiler"},
      row{"cuLaunchKernel", "not the CUDA driver API"},
      row{"cublasSgemm_v2", "not CUDA's libraries"},
      row{"mprotect", "map or protect memory"},
  }));
  const bool weak = GENERATE(false, true);
  auto object = clean_object();
  object.nm_undefined += std::string("                 ") + (weak ? "w " : "U ") + symbol + "@GLIBC_2.2.5\n";
  const auto findings = judge::inspection_findings(object);
  CAPTURE(symbol, weak, findings);
  REQUIRE(findings.size() == 1);
  CHECK(contains(findings[0], "uses "));
  CHECK(contains(findings[0], rule));
}

TEST_CASE("a refused C++ import is named demangled, without return type or parameters", "[inspection]") {
  auto object = clean_object();
  object.nm_undefined +=
      "                 U _ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE\n";
  const auto findings = judge::inspection_findings(object);
  REQUIRE(findings.size() == 1);
  CHECK(contains(findings[0], "uses std::thread::_M_start_thread: solutions may not start threads or processes"));
}

TEST_CASE("the C++ library's basics, math and the CUDA runtime are allowed", "[inspection]") {
  const auto symbol = GENERATE(
      as<std::string>{}, "cudaMalloc", "cudaMemcpyAsync", "cudaStreamCreateWithFlags", "cudaFuncSetAttribute",
      "__cudaPushCallConfiguration", "sqrtf", "expl", "fmaf", "sincosf", "malloc", "posix_memalign", "_ZdaPv",
      "_ZnwmSt11align_val_t", "memcpy", "__isoc23_strtol", "fprintf", "__printf_chk", "stderr",
      "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
      "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc", "_ZNSolsEi", "_ZNSt6chrono3_V212steady_clock3nowEv",
      "_ZNSt13random_device7_M_initERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", "_ZTISt9exception",
      "_ZTVN10__cxxabiv117__class_type_infoE", "_ZSt17__throw_bad_allocv", "__cxa_throw", "__stack_chk_fail",
      "__assert_fail", "getenv", "clock_gettime", "nanosleep", "_ITM_registerTMCloneTable", "exit", "abort",
      "_ZSt21ios_base_library_initv");
  CAPTURE(symbol);
  CHECK_FALSE(judge::refusal_for_symbol(symbol).has_value());
}

TEST_CASE("a symbol no rule names is refused", "[inspection]") {
  CHECK(judge::refusal_for_symbol("getpid").has_value());
  CHECK(judge::refusal_for_symbol("_ZN7someone8whateverEv").has_value());
  // A name is matched whole: strtol's family is allowed, a function named like a prefix of a rule is not
  // the rule's.
  CHECK(judge::refusal_for_symbol("exit_group").has_value());
  CHECK_FALSE(judge::refusal_for_symbol("strtol").has_value());
}

TEST_CASE("only the CUDA runtime and the C and C++ libraries may be linked", "[inspection]") {
  CHECK(judge::parse_needed_libraries(clean_dynamic) ==
        std::vector<std::string>{"libcudart.so.13", "libstdc++.so.6", "libgcc_s.so.1", "libc.so.6"});
  auto object = clean_object();
  object.readelf_dynamic += " 0x0000000000000001 (NEEDED)             Shared library: [libcublas.so.13]\n";
  const auto findings = judge::inspection_findings(object);
  REQUIRE(findings.size() == 1);
  CHECK(contains(findings[0], "links libcublas.so.13"));
  CHECK_FALSE(judge::refusal_for_library("libm.so.6").has_value());
  CHECK_FALSE(judge::refusal_for_library("ld-linux-x86-64.so.2").has_value());
  CHECK(judge::refusal_for_library("libdl.so.2").has_value());
  CHECK(judge::refusal_for_library("libcuda.so.1").has_value());
}

TEST_CASE("an executable stack, a missing stack header and text relocations are refused", "[inspection]") {
  CHECK_FALSE(judge::has_executable_stack(clean_segments));
  CHECK(judge::has_executable_stack(
      "  GNU_STACK      0x000000 0x0000000000000000 0x0000000000000000 0x000000 0x000000 RWE 0x10\n"));
  CHECK(judge::has_executable_stack(
      "  GNU_STACK      0x000000 0x0000000000000000 0x0000000000000000 0x000000 0x000000 RW E 0x10\n"));
  CHECK(judge::has_executable_stack("  LOAD           0x000000 0x0 0x0 0x0b70 0x0b70 R   0x1000\n"));
  CHECK_FALSE(judge::has_text_relocations(clean_dynamic));
  CHECK(judge::has_text_relocations(clean_dynamic + " 0x0000000000000016 (TEXTREL)            0x0\n"));

  auto object = clean_object();
  object.readelf_segments =
      "  GNU_STACK      0x000000 0x0000000000000000 0x0000000000000000 0x000000 0x000000 RWE 0x10\n";
  object.readelf_dynamic += " 0x000000000000001e (FLAGS)              TEXTREL\n";
  const auto findings = judge::inspection_findings(object);
  CAPTURE(findings);
  REQUIRE(findings.size() == 2);
  CHECK(contains(findings[0], "executable stack"));
  CHECK(contains(findings[1], "text relocations"));
}

TEST_CASE("what CUB, Thrust, libcu++ and cooperative groups bring into a solution is allowed", "[inspection]") {
  // Built as the judge builds solutions, NVTX compiled out (tests/data/imports/README.md).
  auto object = clean_object();
  object.nm_undefined = judge::read_file(std::string(JUDGE_TEST_DATA_DIR) + "/imports/thrust_cub_cg.txt");
  REQUIRE(judge::parse_undefined_symbols(object.nm_undefined).size() > 50);
  CHECK(judge::inspection_findings(object).empty());
}

TEST_CASE("the loader functions NVTX would bring stay refused, to the toolkit's code as to a learner's", "[inspection]") {
  auto object = clean_object();
  object.nm_undefined = judge::read_file(std::string(JUDGE_TEST_DATA_DIR) + "/imports/nvtx_loader.txt");
  const auto findings = judge::inspection_findings(object);
  CAPTURE(findings);
  REQUIRE(findings.size() == 3);
  for (const std::string& finding : findings) CHECK(contains(finding, "solutions may not load libraries"));
}
