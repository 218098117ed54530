#include "build_fixtures.hpp"
#include "catch.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "judge/compile/build_queue.hpp"
#include "judge/compile/compile.hpp"
#include "judge/compile/content_hash.hpp"
#include "judge/base/file_input.hpp"
#include "judge/compile/solve_binding.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sstream>
#include <string>

#include <unistd.h>

using judge_test::contains;

namespace fs = std::filesystem;
using judge::build_status;
using judge::problem_spec;
using judge::read_file;
using judge::runner_kind;

namespace {

using judge_test::matmul_like;
using judge_test::param;
const fs::path solutions = judge_test::compile_solutions;

judge::toolchain test_tools() { return judge_test::build_test_tools(); }

} // namespace

TEST_CASE("the declaration header declares the problem's solve with C linkage", "[compile]") {
  std::string header = judge::solve_declaration_header(matmul_like());
  CHECK(contains(header, "#pragma once"));
  CHECK(contains(header, "#include <cuda_runtime.h>"));
  CHECK(contains(header, "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K);"));
}

TEST_CASE("the call shim passes buffers and sizes in signature order", "[compile]") {
  using judge::param_role;
  problem_spec spec = matmul_like();
  spec.signature = {param("x", "const float*", param_role::input), param("n", "int", param_role::size),
                    param("y", "float*", param_role::output), param("m", "int", param_role::size)};
  std::string shim = judge::solve_call_shim(spec);
  CAPTURE(shim);
  CHECK(contains(
      shim,
      "void judge_call_solve(judge_solve_fn solve, void* const* buffers, const int* sizes, const float* scalars)"));
  CHECK(contains(shim, "using signature = void (*)(const float*, int, float*, int);"));
  CHECK(contains(shim, "reinterpret_cast<signature>(solve)(static_cast<const float*>(buffers[0]), sizes[0], "
                       "static_cast<float*>(buffers[1]), sizes[1]);"));
  // The runner does not link the learner's solve(): it calls the one it found in their object.
  CHECK_FALSE(contains(shim, "void solve("));
}

TEST_CASE("explain_compile_error names a banned library from an undefined reference", "[compile]") {
  std::string message = judge::explain_compile_error(
      matmul_like(), "/usr/bin/ld: tmpxft_0000132f_00000000-6_alice.cudafe1.cpp:(.text+0x55): undefined reference "
                     "to `cublasCreate_v2'\ncollect2: error: ld returned 1 exit status\n");
  CAPTURE(message);
  CHECK(contains(message, "solve() calls cuBLAS, which this problem bans (problem.yaml: banned_libraries: [cublas, "
                          "cublasLt]); write the kernel yourself"));
  CHECK(contains(message, "ld: alice.cu:(.text+0x55)"));
  CHECK_FALSE(contains(message, "tmpxft"));
}

TEST_CASE("explain_compile_error adds the expected signature to a conflicting declaration", "[compile]") {
  const std::string output = GENERATE(
      as<std::string>{}, "x.cu(1): error: more than one instance of overloaded function \"solve\" has \"C\" linkage",
      "x.cu:3:6: error: conflicting declaration of C function 'void solve(float*)'",
      "ld: judge_shim.o: in function `judge_call_solve':\nundefined reference to `solve'");
  std::string message = judge::explain_compile_error(matmul_like(), output);
  CAPTURE(message);
  CHECK(contains(message, output));
  CHECK(contains(message, "expected signature: extern \"C\" void solve(const float* A, const float* B, float* C, "
                          "int M, int N, int K)"));
}

TEST_CASE("explain_compile_error keeps the first 60 lines and adds no hint to a plain error", "[compile]") {
  std::string output;
  for (int i = 1; i <= 100; ++i) output += "x.cu(" + std::to_string(i) + "): error: identifier \"y\" is undefined\n";
  std::string message = judge::explain_compile_error(matmul_like(), output);
  CHECK(contains(message, "x.cu(60)"));
  CHECK_FALSE(contains(message, "x.cu(61)"));
  CHECK(contains(message, "[... 40 more lines]"));
  CHECK_FALSE(contains(message, "expected signature"));
  CHECK_FALSE(contains(message, "bans"));
}

TEST_CASE("the toolchain follows JUDGE_NVCC, JUDGE_ARCHS and JUDGE_CACHE_DIR", "[compile]") {
  ::setenv("JUDGE_NVCC", "/opt/other/nvcc", 1);
  ::setenv("JUDGE_ARCHS", "80,sm_90a, 8.9", 1);
  ::setenv("JUDGE_CACHE_DIR", "/tmp/some-cache", 1);
  judge::toolchain tools = judge::default_toolchain();
  ::unsetenv("JUDGE_NVCC");
  ::unsetenv("JUDGE_ARCHS");
  ::unsetenv("JUDGE_CACHE_DIR");
  CHECK(tools.nvcc == "/opt/other/nvcc");
  CHECK(tools.archs == std::vector<std::string>{"80", "90a", "89"});
  CHECK(tools.cache_dir == "/tmp/some-cache");

  judge::toolchain defaults = judge::default_toolchain();
  CHECK(defaults.nvcc == JUDGE_NVCC);
  CHECK_FALSE(defaults.archs.empty());
  CHECK(defaults.cache_dir == fs::path(JUDGE_BUILD_DIR) / "runner-cache");
}

TEST_CASE("content hashes tell apart parts that concatenate to the same bytes", "[compile]") {
  CHECK(judge::content_hash().add("ab").add("c").hex() != judge::content_hash().add("a").add("bc").hex());
  CHECK(judge::content_hash().add("abc").hex() == judge::content_hash().add("abc").hex());
  CHECK(judge::content_hash().hex().size() == 16);
}

TEST_CASE("a missing source is an error naming the path", "[compile]") {
  try {
    judge::build_runner(matmul_like(), solutions / "no_such_solution.cu", runner_kind::solution, test_tools());
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), "no such file: "));
    CHECK(contains(e.what(), "no_such_solution.cu"));
  }
}

TEST_CASE("a source over 1 MiB is a compile error before nvcc runs", "[compile]") {
  judge_test::temp_folder dir;
  const fs::path big = dir.path() / "big.cu";
  std::ofstream(big) << std::string(1024 * 1024 + 1, ' ');
  auto result = judge::build_runner(matmul_like(), big, runner_kind::solution, test_tools());
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "source file is 1048577 bytes; the limit is 1 MiB"));
}

TEST_CASE("a good file without extern \"C\" builds a solution.so that is cached the second time, and the "
          "problem's runner",
          "[compile][nvcc]") {
  const auto tools = test_tools();
  auto first = judge::build_runner(matmul_like(), solutions / "good.cu", runner_kind::solution, tools);
  CAPTURE(first.message);
  REQUIRE(first.status == build_status::ok);
  CHECK(::access(first.runner.c_str(), X_OK) == 0);
  CHECK(first.runner.parent_path().parent_path() == tools.cache_dir / "matmul_like");
  CHECK(first.runner.parent_path().filename().string().rfind("runner-", 0) == 0);
  CHECK(first.solution.filename() == "solution.so");
  CHECK(first.solution.parent_path() == tools.cache_dir / "matmul_like" / first.content_hash);
  // The entry holds the object, ptxas's resource lines, whether its code uses the tensor cores and the
  // device code its device compilation made (one fatbin per unit, what the replaying runner loads) only:
  // no copy of the learner's sources, no objects, nothing else nvcc --keep left.
  const fs::path dir = first.solution.parent_path();
  std::vector<fs::path> entry;
  for (const auto& file : fs::directory_iterator(dir)) entry.push_back(file.path());
  std::sort(entry.begin(), entry.end());
  CHECK(entry == std::vector<fs::path>{dir / "device", dir / "ptxas_info.txt", first.solution, dir / "tensor_cores.txt"});
  CHECK(first.device_code == std::vector<fs::path>{dir / "device" / "good.fatbin"});
  std::vector<fs::path> device;
  for (const auto& file : fs::directory_iterator(dir / "device")) device.push_back(file.path());
  CHECK(device == first.device_code);
  // A plain FP32 kernel: never "uses the tensor cores" (unknown where the toolkit has no cuobjdump).
  CHECK(first.uses_tensor_cores != std::optional<bool>(true));
  // ptxas said what its one kernel uses, and the cached build still knows it.
  REQUIRE(first.kernels.size() == 1);
  CHECK(first.kernels[0].name == "matmul_kernel(float const*, float const*, float*, int, int, int)");
  CHECK(first.kernels[0].registers > 0);

  auto second = judge::build_runner(matmul_like(), solutions / "good.cu", runner_kind::solution, tools);
  CHECK(second.status == build_status::ok);
  CHECK(second.cached);
  CHECK(second.device_code == first.device_code); // a cached build names its device code too
  CHECK(second.kernels == first.kernels);
  CHECK(second.uses_tensor_cores == first.uses_tensor_cores);
  // The cached build reads the kept answer instead of running cuobjdump again: a kept "yes" is believed.
  {
    std::ofstream kept(first.solution.parent_path() / "tensor_cores.txt", std::ios::trunc);
    kept << "yes";
  }
  CHECK(judge::build_runner(matmul_like(), solutions / "good.cu", runner_kind::solution, tools).uses_tensor_cores ==
        std::optional<bool>(true));
  CHECK(second.runner == first.runner);
  CHECK(second.solution == first.solution);
  // Nothing is left behind but published entries.
  for (const auto& entry : fs::directory_iterator(tools.cache_dir / "matmul_like"))
    CHECK(entry.path().filename().string().rfind(".tmp-", 0) != 0);
}

TEST_CASE("a file that does not compile is a compile error with the compiler's message", "[compile][nvcc]") {
  auto result = judge::build_runner(matmul_like(), solutions / "broken.cu", runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "broken.cu(2): error: expected an expression"));
  // The learner sees their file's name, not the judge's folders.
  CHECK_FALSE(contains(result.message, solutions.string()));
  CHECK_FALSE(contains(result.message, "expected signature"));
}

TEST_CASE("a compile that fails after ptxas ran shows the error without ptxas's resource lines", "[compile][nvcc]") {
  auto result =
      judge::build_runner(matmul_like(), solutions / "host_error_after_ptxas.cu", runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "not_an_x86_instruction_after_ptxas"));
  CHECK_FALSE(contains(result.message, "ptxas info"));
  CHECK_FALSE(contains(result.message, "bytes stack frame"));
  CHECK(result.kernels.empty());
}

TEST_CASE("solve with other parameters is a compile error naming the expected signature", "[compile][nvcc]") {
  // extern "C" with other parameters conflicts with the judge's declaration; without extern "C" it is an
  // overload that leaves the judge's solve undefined at link time. Both must say what was expected.
  auto file = GENERATE(as<std::string>{}, "wrong_signature.cu", "wrong_count.cu", "overload.cu");
  auto result = judge::build_runner(matmul_like(), solutions / file, runner_kind::solution, test_tools());
  CAPTURE(file, result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "expected signature: extern \"C\" void solve(const float* A, const float* B, "
                                 "float* C, int M, int N, int K)"));
}

TEST_CASE("a call to cuBLAS is a compile error naming cuBLAS but links into a baseline runner", "[compile][nvcc]") {
  const auto tools = test_tools();
  auto solution = judge::build_runner(matmul_like(), solutions / "calls_cublas.cu", runner_kind::solution, tools);
  CAPTURE(solution.message);
  CHECK(solution.status == build_status::compile_error);
  CHECK(contains(solution.message, "solve() calls cuBLAS, which this problem bans"));

  auto baseline = judge::build_runner(matmul_like(), solutions / "calls_cublas.cu", runner_kind::baseline, tools);
  CAPTURE(baseline.message);
  CHECK(baseline.status == build_status::ok);
  CHECK(baseline.content_hash != solution.content_hash);
}

TEST_CASE("build_runners builds folders and changed files in parallel, each in its own cache entry",
          "[compile][nvcc]") {
  judge_test::temp_folder dir;
  const std::string good = read_file(solutions / "good.cu");
  std::ofstream(dir.path() / "same.cu") << good;
  std::ofstream(dir.path() / "changed.cu") << good << " ";
  std::vector<fs::path> sources = {dir.path() / "same.cu", dir.path() / "changed.cu", solutions / "folder"};

  // Called from the building threads, where Catch2 assertions are not allowed: only recorded here.
  std::vector<std::size_t> reported, totals;
  auto results = judge::build_runners(matmul_like(), sources, runner_kind::solution, test_tools(), 2,
                                      [&](std::size_t done, std::size_t total) {
                                        reported.push_back(done);
                                        totals.push_back(total);
                                      });
  REQUIRE(results.size() == 3);
  for (const auto& r : results) {
    CAPTURE(r.message);
    CHECK(r.status == build_status::ok);
  }
  CHECK(reported == std::vector<std::size_t>{1, 2, 3});
  CHECK(totals == std::vector<std::size_t>{3, 3, 3});
  CHECK(results[0].content_hash != results[1].content_hash);
  CHECK_FALSE(results[1].cached);

  // The same content under another name is the same runner.
  auto again = judge::build_runner(matmul_like(), solutions / "good.cu", runner_kind::solution, test_tools());
  CHECK(again.cached);
  CHECK(again.content_hash == results[0].content_hash);
}

TEST_CASE("solve with other pointer constness links, with or without extern \"C\", in one file or a folder",
          "[compile][nvcc]") {
  // float* where the declaration says const float* is the same ABI; LeetGPU accepts it and so does the judge.
  auto source = GENERATE(as<std::string>{}, "nonconst_extern_c.cu", "nonconst_cpp.cu", "nonconst_folder");
  auto result = judge::build_runner(matmul_like(), solutions / source, runner_kind::solution, test_tools());
  CAPTURE(source, result.message);
  CHECK(result.status == build_status::ok);
}

TEST_CASE("a solution that imports what solutions may not use is a compile error naming each thing and its rule",
          "[compile][nvcc]") {
  auto result =
      judge::build_runner(matmul_like(), solutions / "forbidden_calls.cu", runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "the solution uses fork: solutions may not start threads or processes"));
  CHECK(contains(result.message, "the solution uses syscall: solutions may not make raw system calls"));
}

TEST_CASE("a compile sees only the solution's own files", "[compile][nvcc]") {
  // A file next to the solution, but not part of it, cannot be included: the compile runs on a copy.
  judge_test::temp_folder dir;
  std::ofstream(dir.path() / "other_submission.cu") << "#error the judge let another file be included\n";
  std::ofstream(dir.path() / "nosy.cu") << "#include \"other_submission.cu\"\n" << read_file(solutions / "good.cu");
  auto result = judge::build_runner(matmul_like(), dir.path() / "nosy.cu", runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "other_submission.cu"));
  CHECK_FALSE(contains(result.message, "the judge let another file be included"));
}

TEST_CASE("an include or an .incbin of a host file in /etc is a compile error that quotes nothing of it",
          "[compile][nvcc]") {
  const fs::path hostile = fs::path(JUDGE_TEST_DATA_DIR).parent_path().parent_path() / "problems" / "matmul" /
                           "submissions" / "compile_error";
  const std::string source = GENERATE(as<std::string>{}, "includes_etc_shadow.cu", "incbin_host_file.cu");
  // What the file holds on this machine, where the test can read it: none of its lines may come back.
  std::error_code unreadable;
  const std::string host_file = read_file("/etc/shadow", unreadable).value_or("");
  auto result = judge::build_runner(matmul_like(), hostile / source, runner_kind::solution, test_tools());
  CAPTURE(source, result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK((contains(result.message, "No such file or directory") || contains(result.message, "file not found")));
  std::istringstream lines(host_file);
  for (std::string line; std::getline(lines, line);)
    if (line.size() > 8) CHECK_FALSE(contains(result.message, line.substr(0, line.find(':', line.find(':') + 1))));
}

TEST_CASE("the bytes of a system-call instruction in a solution's code are no compile error", "[compile][nvcc]") {
  // The system-call filter judges every call whatever instruction makes it; the compile does not look
  // at code bytes. One example holds the bytes in honest constants and displacements, the other hides
  // a real syscall in an immediate and makes an allowed call with it.
  const fs::path accepted =
      fs::path(JUDGE_TEST_DATA_DIR).parent_path().parent_path() / "problems" / "matmul" / "submissions" / "accepted";
  const std::string source =
      GENERATE(as<std::string>{}, "syscall_bytes_in_constants.cu", "syscall_hidden_in_an_immediate.cu");
  auto result = judge::build_runner(matmul_like(), accepted / source, runner_kind::solution, test_tools());
  CAPTURE(source, result.message);
  CHECK(result.status == build_status::ok);
}

TEST_CASE("Hopper's arch-specific instructions compile, as on LeetGPU's H100 and H200", "[compile][nvcc]") {
  // The judge's target on a Hopper GPU (and without a GPU, by default) is sm_90a, LeetGPU's.
  judge::toolchain tools = test_tools();
  tools.archs = {judge::compile_target_of("9.0")};
  auto hopper =
      judge::build_runner(matmul_like(), solutions / "hopper_only_instructions.cu", runner_kind::solution, tools);
  CAPTURE(hopper.message);
  CHECK(hopper.status == build_status::ok);
  // Plain sm_90, which the judge compiled for before, refuses them: what a LeetGPU solution then met here.
  tools.archs = {"90"};
  auto plain =
      judge::build_runner(matmul_like(), solutions / "hopper_only_instructions.cu", runner_kind::solution, tools);
  CHECK(plain.status == build_status::compile_error);
  CHECK(plain.message.find("not supported on .target 'sm_90'") != std::string::npos);
}

TEST_CASE("a device's compile target is its compute capability, arch-specific where LeetGPU's is", "[compile]") {
  CHECK(judge::compile_target_of("9.0") == "90a");
  CHECK(judge::compile_target_of("90") == "90a");
  CHECK(judge::compile_target_of("10.0") == "100a");
  CHECK(judge::compile_target_of("8.6") == "86");
  CHECK(judge::compile_target_of("12.0") == "120");
  CHECK(judge::compile_target_of("") == "");
}

TEST_CASE("a solution that includes solve.h compiles: the judge provides it", "[compile][nvcc]") {
  auto result =
      judge::build_runner(matmul_like(), solutions / "includes_solve_h.cu", runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::ok);
}

TEST_CASE("a solution that defines main() is a compile error naming it and the guard", "[compile][nvcc]") {
  auto result = judge::build_runner(matmul_like(), solutions / "own_main.cu", runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(result.message == "own_main.cu defines main() (line 8); the judge calls solve() itself: remove main() or "
                          "guard it with #ifndef ONLINE_JUDGE ... #endif");
}

TEST_CASE("a main() guarded by ONLINE_JUDGE, in a namespace or in a class is not the program's main",
          "[compile][nvcc]") {
  auto result =
      judge::build_runner(matmul_like(), solutions / "own_main_guarded.cu", runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::ok);
}

TEST_CASE("the signature check accepts pointee constness only", "[compile]") {
  const std::string check = judge::solve_check_header(matmul_like());
  CHECK(contains(check, "using expected = signature<void (*)(const float*, const float*, float*, int, int, int)>;"));
  CHECK(contains(check, "template <class T> struct loose<const T*> { using type = T*; };"));
  CHECK(contains(check, "solve() does not match the expected signature: extern \\\"C\\\" void solve("));
  const std::string adapter =
      judge::solve_adapter_source(matmul_like(), "solve(float*, float*, float*, int, int, int)");
  CHECK(contains(adapter, "void solve(float*, float*, float*, int, int, int);"));
  CHECK(contains(adapter, "const_cast<judge_solve_check::learner::param<1>>(B)"));
  CHECK(contains(adapter, ", M, N, K);"));
}

TEST_CASE("a C++ solve is recognised from its mangled name, a solve elsewhere is not", "[compile]") {
  CHECK(judge::demangled_solve("_Z5solvePfS_S_iii") == "solve(float*, float*, float*, int, int, int)");
  CHECK(judge::demangled_solve("_Z5solvePKfS0_Pfiii") == "solve(float const*, float const*, float*, int, int, int)");
  CHECK(judge::demangled_solve("solve") == "");
  CHECK(judge::demangled_solve("_ZN2ns5solveEPf") == ""); // ns::solve
  CHECK(judge::demangled_solve("_Z5solveIfEvPT_") == ""); // a template
  CHECK(judge::demangled_solve("_Z6solvedPf") == "");     // solved()
}

TEST_CASE("nm's portable output gives each defined symbol and its type", "[compile]") {
  auto symbols = judge::parse_nm_output("main T 0000000000000000 000000000000002a\n_Z5solvePfS_S_iii T 30 12\n"
                                        "_ZL6helperv t 60 8\n");
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[0].name == "main");
  CHECK(symbols[0].type == 'T');
  CHECK(symbols[2].type == 't');
}

TEST_CASE("the line of a main() definition is found, not a call through a name", "[compile]") {
  CHECK(judge::main_definition_line("int x;\nint main() {\n") == 2);
  CHECK(judge::main_definition_line("int main (int argc, char** argv)") == 1);
  CHECK(judge::main_definition_line("// its main() would\n/* int main() */ x = driver::main();\nobj.main();\n") == 0);
}

TEST_CASE("a student's .cu files in sub-folders are compiled together, even two of the same name", "[compile][nvcc]") {
  judge_test::temp_folder dir;
  const fs::path student = dir.path() / "alice";
  fs::create_directories(student / "kernels");
  fs::copy_file(solutions / "folder" / "solve.cu", student / "solve.cu");
  // kernel.cu under the name solve.cu, one folder down: its object must not overwrite the first one's.
  fs::copy_file(solutions / "folder" / "kernel.cu", student / "kernels" / "solve.cu");
  fs::copy_file(solutions / "folder" / "shape.cuh", student / "kernels" / "shape.cuh");
  fs::create_symlink("loop", student / "loop"); // no file of the solution, and no reason to abort
  const auto result = judge::build_runner(matmul_like(), student, runner_kind::solution, test_tools());
  CAPTURE(result.message);
  CHECK(result.status == build_status::ok);
}

TEST_CASE("once the toolchain is stopped no build starts, and none is a compile error", "[compile]") {
  std::atomic<bool> stop{true};
  judge::toolchain tools = test_tools();
  tools.stop = &stop;
  const std::vector<fs::path> sources = {solutions / "good.cu", solutions / "broken.cu"};
  const auto results = judge::build_runners(matmul_like(), sources, runner_kind::solution, tools, 2, {});
  REQUIRE(results.size() == 2);
  for (const auto& r : results) {
    CAPTURE(r.message);
    CHECK(r.status == build_status::internal_error);
    CHECK(judge_test::contains(r.message, "stopped"));
  }
}

TEST_CASE("a build queue hands out any build as soon as it is done, in any order asked", "[compile][nvcc]") {
  // A grading run asks for the first solution while the rest still compile; asking out of order, or for
  // a source that does not exist, must neither block on the others nor lose them.
  std::vector<judge::build_job> jobs = {{solutions / "good.cu", runner_kind::solution},
                                        {solutions / "no_such_file.cu", runner_kind::solution},
                                        {solutions / "broken.cu", runner_kind::solution}};
  judge::build_queue queue(matmul_like(), jobs, test_tools(), 2);
  std::vector<std::size_t> told;
  const judge::build_result& broken =
      queue.result(2, [&](std::size_t done, std::size_t total) { told.push_back(done * 10 + total); });
  CHECK(broken.status == build_status::compile_error);
  std::string missing;
  try {
    queue.result(1);
  } catch (const std::exception& e) {
    missing = e.what();
  }
  CHECK(judge_test::contains(missing, "no_such_file.cu"));
  CHECK(queue.result(0).status == build_status::ok);
  CHECK(queue.done() == 3);
  // Told once on waiting (with how many had ended then), and never a total other than the jobs'.
  for (std::size_t t : told) CHECK(t % 10 == 3);
  CHECK_THROWS(queue.all()); // the missing source, again
}

TEST_CASE("a compile cannot include a judge's file that a bound system folder holds", "[compile][nvcc]") {
  // A judge installed under /usr/local keeps its learners' solutions there: /usr is bound for the system.
  const fs::path prefix = "/usr/local/gpu-judge-compile-test-" + std::to_string(::getpid());
  std::error_code ec;
  fs::create_directories(prefix / "solutions" / "matmul", ec);
  if (ec) {
    WARN("cannot make a folder under /usr/local here (" << ec.message() << "); not checked");
    return;
  }
  struct remove_after {
    fs::path path;
    ~remove_after() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  } cleanup{prefix};
  const fs::path classmate = prefix / "solutions" / "matmul" / "bob.cu";
  fs::copy_file(solutions / "good.cu", classmate);
  const judge_test::temp_folder dir;
  const fs::path copier = dir.path() / "copier.cu";
  std::ofstream(copier) << "#include \"" << classmate.string() << "\"\n";
  judge::toolchain tools = test_tools();
  tools.masked_paths.push_back(prefix);
  auto result = judge::build_runner(matmul_like(), copier, runner_kind::solution, tools);
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK((contains(result.message, "No such file") || contains(result.message, "cannot open source file")));
  // Nor is the judge's folder named in what the learner reads.
  CHECK_FALSE(contains(result.message, prefix.string()));
}

TEST_CASE("a compile error that spells out its own path names no folder of the judge's", "[compile][nvcc]") {
  const fs::path hostile = fs::path(JUDGE_TEST_DATA_DIR).parent_path().parent_path() / "problems" / "matmul" /
                           "submissions" / "compile_error" / "spells_out_the_cache_path.cu";
  const judge::toolchain tools = test_tools();
  auto result = judge::build_runner(matmul_like(), hostile, runner_kind::solution, tools);
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "spells_out_the_cache_path.cu"));
  CHECK_FALSE(contains(result.message, tools.cache_dir.string()));
  CHECK_FALSE(contains(result.message, fs::canonical(tools.cache_dir).string()));
  CHECK_FALSE(contains(result.message, ".tmp-"));
}

TEST_CASE("a build that writes more than its cap is a compile error saying so, and the cache keeps none of it",
          "[compile][nvcc]") {
  // The runner is built (and cached) under the usual cap first; only the solution's build is capped.
  judge::toolchain tools = test_tools();
  REQUIRE(judge::build_runner(matmul_like(), solutions / "good.cu", runner_kind::solution, tools).status ==
          build_status::ok);
  const judge_test::temp_folder dir;
  const fs::path huge = dir.path() / "huge_object.cu";
  // 32 MiB of initialised data: a few bytes of source, an object of 32 MiB.
  std::ofstream(huge) << "__attribute__((used)) static const char table[32 << 20] = {1};\n"
                         "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) {\n"
                         "  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;\n}\n";
  tools.scratch_bytes = 8u << 20;
  auto result = judge::build_runner(matmul_like(), huge, runner_kind::solution, tools);
  CAPTURE(result.message);
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "the compile wrote more than 8 MiB"));
  CHECK_FALSE(fs::exists(tools.cache_dir / "matmul_like" / result.content_hash));
  for (const auto& entry : fs::recursive_directory_iterator(tools.cache_dir)) {
    CAPTURE(entry.path());
    CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
    if (entry.is_regular_file()) CHECK(entry.file_size() < (8u << 20));
  }
}
