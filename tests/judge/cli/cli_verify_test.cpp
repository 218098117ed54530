// judge verify --compile-only end to end, without a GPU: the compile_error examples of a problem package
// must fail to compile, each for the reason its header comment gives, and every other example must
// compile. Each test runs the real `judge` executable on a scratch copy of the shipped problems.
#include "catch.hpp"
#include "judge_command.hpp"
#include "text_match.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

using judge_test::contains;
using judge_test::scratch_root;

namespace {
/// What `judge verify --compile-only` printed under the line of `example` (its reasons), up to the
/// next example's line; "" when the example is not listed.
std::string lines_under(const std::string& output, const std::string& example) {
  const std::size_t at = output.find(example);
  if (at == std::string::npos) return "";
  std::size_t begin = output.find('\n', at);
  std::string under;
  while (begin != std::string::npos && output.compare(begin + 1, 6, "      ") == 0) {
    const std::size_t end = output.find('\n', begin + 1);
    under += output.substr(begin + 1, end == std::string::npos ? std::string::npos : end - begin);
    begin = end;
  }
  return under;
}

/// The line `judge verify` printed for `example`; "" when it is not listed.
std::string line_of(const std::string& output, const std::string& example) {
  const std::size_t at = output.find(example);
  if (at == std::string::npos) return "";
  const std::size_t newline_before = output.rfind('\n', at);
  const std::size_t begin = newline_before == std::string::npos ? 0 : newline_before + 1;
  return output.substr(begin, output.find('\n', at) - begin); // npos - begin: to the end
}

/// The judge's environment for these tests. The judge bounds the memory of its compiles itself (the
/// sandbox); the outer bound only keeps a judge that does not (a build without the sandbox) from taking
/// the test machine down with includes_dev_zero.cu.
std::string compile_only_environment(const scratch_root& root) {
  return root.environment() + " prlimit --as=" + std::to_string(std::uint64_t(8) << 30) + " --";
}

/// A scratch problem whose compiles may take as long as a busy test machine needs: a compile cut off at
/// the problem's limit is a compile error too, and would pass for the wrong reason or fail an example
/// that must compile.
void allow_slow_compiles(const scratch_root& root, const std::string& problem) {
  const fs::path spec = root.dir / "problems" / problem / "problem.yaml";
  std::ifstream in(spec);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string field = "compile_seconds: ";
  const std::size_t at = text.find(field);
  REQUIRE(at != std::string::npos);
  text.replace(at + field.size(), text.find('\n', at) - at - field.size(), "900");
  std::ofstream(spec) << text;
}

struct refused_example {
  const char* file;                ///< in problems/<p>/submissions/compile_error/
  std::vector<std::string> any_of; ///< the reason names at least one of these
};
} // namespace

TEST_CASE("judge verify --compile-only refuses each hostile compile_error example of matmul for its own reason",
          "[cli][verify][fixtures]") {
  const scratch_root root;
  allow_slow_compiles(root, "matmul");
  const auto r = judge_test::run_judge("verify matmul --compile-only", compile_only_environment(root));
  CAPTURE(r.output);
  // Every example got its folder's outcome: compile_error ones did not compile, the others did.
  CHECK(r.status == 0);
  CHECK(contains(r.output, "0 mismatch(es)"));

  // The reasons: a forbidden symbol is named, an include is not found, main() is named.
  const std::vector<refused_example> refused = {
      {"forks_ipc_worker.cu", {"fork", "pipe", "_exit", "read", "write", "cudaIpc"}},
      {"includes_another_submission.cu", {"No such file"}},
      {"includes_a_classmate_from_the_install_tree.cu", {"No such file", "cannot open source file"}},
      {"spells_out_the_cache_path.cu", {"spells_out_the_cache_path.cu"}},
      {"includes_dev_zero.cu", {"No such file", "memory"}},
      {"emits_a_huge_object.cu", {"File size limit exceeded", "scratch space", "No space left"}},
      {"includes_etc_shadow.cu", {"No such file"}},
      {"incbin_host_file.cu", {"file not found", "No such file"}},
      {"includes_the_test_cases.cu", {"No such file"}},
      {"interrupts_the_judge.cu", {"kill", "getppid"}},
      {"main_by_assembler_name.cu", {"main()"}},
      {"plants_files_in_the_judge_tree.cu", {"basic_ofstream", "basic_filebuf", "ofstream"}},
      {"reads_mountinfo_for_the_secret.cu", {"fopen", "getline", "fclose"}},
      {"sends_inputs_over_a_socket.cu", {"socket", "connect", "send", "close", "htons", "htonl"}},
      {"sets_timing_method_from_constructor.cu", {"setenv"}},
      {"setsid_gpu_hog.cu", {"fork", "setsid"}},
      {"swaps_channel_descriptors.cu", {"pipe", "dup"}},
      {"syscall_through_libc.cu", {"syscall"}},
      {"thread_named_like_cuda.cu", {"pthread_create", "pthread_setname_np", "pthread_self", "pthread_detach"}},
  };
  // A hint an example declares needs the GPU's figures: without a run it is said to be unchecked, not passed.
  CHECK(contains(lines_under(r.output, "accepted/01_naive_row_per_thread_x.cu"),
                 "expected hint uncoalesced_global: not checked (not run: hints need the GPU's figures)"));
  for (const refused_example& e : refused) {
    const std::string reason = lines_under(r.output, std::string("compile_error/") + e.file);
    CAPTURE(e.file, reason);
    bool named = false;
    for (const std::string& word : e.any_of) named = named || contains(reason, word);
    CHECK(named);
  }
  // Code whose bytes hold a system-call instruction compiles: the filter judges calls, not bytes. Those
  // with a forbidden call are run-time errors on a GPU; here they must compile like every other.
  for (const char* example : {"accepted/syscall_bytes_in_constants.cu", "accepted/syscall_hidden_in_an_immediate.cu",
                              "run_time_error/raw_syscall_instruction.cu"}) {
    const std::string line = line_of(r.output, example);
    CAPTURE(example, line);
    CHECK(contains(line, "(not run)"));
  }
}

TEST_CASE("judge verify --compile-only refuses the spawning compile_error example of vector_add, and compiles the rest",
          "[cli][verify][fixtures]") {
  const scratch_root root;
  allow_slow_compiles(root, "vector_add");
  const auto r = judge_test::run_judge("verify vector_add --compile-only", compile_only_environment(root));
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "0 mismatch(es)"));
  CHECK(contains(lines_under(r.output, "compile_error/spawns_a_shell.cu"), "posix_spawn"));
  CHECK(contains(line_of(r.output, "accepted/syscall_bytes_in_constants.cu"), "(not run)"));
}

TEST_CASE("judge verify --compile-only counts a compile_error example that compiles as a mismatch", "[cli][verify]") {
  const scratch_root root;
  const fs::path submissions = root.dir / "problems/vector_add/submissions";
  fs::remove_all(submissions);
  const std::string adds = "__global__ void add(const float* A, const float* B, float* C, int N) {\n"
                           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < N) C[i] = A[i] + B[i];\n"
                           "}\n"
                           "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {\n"
                           "  add<<<(N + 255) / 256, 256>>>(A, B, C, N);\n"
                           "  cudaDeviceSynchronize();\n"
                           "}\n";
  root.write("problems/vector_add/submissions/accepted/adds.cu", adds);
  root.write("problems/vector_add/submissions/compile_error/compiles_after_all.cu", adds);
  root.write("problems/vector_add/submissions/compile_error/missing_semicolon.cu",
             "extern \"C\" void solve(const float* A, const float* B, float* C, int N) { int x = 0 }\n");
  allow_slow_compiles(root, "vector_add");

  const auto r = judge_test::run_judge("verify vector_add --compile-only", compile_only_environment(root));
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "1 mismatch(es)"));
  const std::string compiled = lines_under(r.output, "compile_error/compiles_after_all.cu");
  CHECK(contains(compiled, "it compiled: its folder says it must not"));
  // The example that did fail to compile shows why, so an author sees it failed for the intended reason.
  CHECK(contains(lines_under(r.output, "compile_error/missing_semicolon.cu"), "error"));
  CHECK(lines_under(r.output, "accepted/adds.cu").empty());
}

TEST_CASE("judge verify --compile-only names a baseline or a starter that does not build with its file and line",
          "[cli][verify]") {
  const scratch_root root;
  const fs::path submissions = root.dir / "problems/vector_add/submissions";
  fs::remove_all(submissions);
  root.write("problems/vector_add/submissions/accepted/adds.cu",
             "__global__ void add(const float* A, const float* B, float* C, int N) {\n"
             "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < N) C[i] = A[i] + B[i];\n"
             "}\n"
             "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {\n"
             "  add<<<(N + 255) / 256, 256>>>(A, B, C, N);\n"
             "}\n");
  root.write("problems/vector_add/baseline.cu", "this is not C++\n");
  root.write("problems/vector_add/starter.cu",
             "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {\n"
             "  int unfinished = \n"
             "}\n");
  allow_slow_compiles(root, "vector_add");
  const auto r = judge_test::run_judge("verify vector_add --compile-only", compile_only_environment(root));
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "2 mismatch(es)"));
  CHECK(contains(r.output, "the baseline (baseline.cu) does not build"));
  CHECK(contains(r.output, "baseline.cu(1)"));
  CHECK(contains(r.output, "the starter (starter.cu) does not build"));
  CHECK(contains(r.output, "starter.cu(3)"));
  // The examples themselves are fine and say so.
  CHECK(contains(line_of(r.output, "accepted/adds.cu"), "(not run)"));
}

TEST_CASE("judge verify --compile-only names a GPU reference that does not build once", "[cli][verify]") {
  const scratch_root root;
  fs::remove_all(root.dir / "problems/vector_add/submissions");
  root.write("problems/vector_add/submissions/accepted/empty.cu",
             "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}\n");
  root.write("problems/vector_add/reference_gpu.cu",
             "extern \"C\" void judge_reference_solve(void* const* buffers, const int* sizes, const float* scalars) {\n"
             "  this is not C++;\n"
             "}\n");
  allow_slow_compiles(root, "vector_add");
  const auto r = judge_test::run_judge("verify vector_add --compile-only", compile_only_environment(root));
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "cannot compile reference_gpu.cu of problem vector_add"));
  CHECK(contains(r.output, "reference_gpu.cu(2)"));
}
