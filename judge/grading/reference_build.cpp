#include "judge/grading/reference_build.hpp"

#include "judge/compile/content_hash.hpp"
#include "judge/base/install_layout.hpp"
#include "judge/base/file_output.hpp"
#include "judge/sandbox/process.hpp"

#include <chrono>
#include <mutex>
#include <sstream>
#include <system_error>

#include <unistd.h>

namespace judge {
namespace fs = std::filesystem;
namespace {

/// Bump when the way references are built changes, so that old cache entries are not reused.
constexpr const char* cache_format = "gpu-judge cpu reference v1";
/// [s] A reference is a page of trusted C++; this only stops a hung compiler from hanging the judge.
constexpr double compile_limit_seconds = 300;
/// Compiler lines kept in a message; the first errors are the ones that matter.
constexpr std::size_t message_lines = 40;

const fs::path& header_dir() {
  static const fs::path dir = judge_layout().reference_header_dir;
  return dir;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

/// The compiler's output as an instructor reads it: "reference.cpp:7:3: error: ...",
/// "common/cpu_reference.h:..." and no temporary paths, cut after `message_lines` lines.
std::string clean_output(std::string output, const problem_spec& spec, const fs::path& staging) {
  replace_all(output, staging.parent_path().string() + "/", "");
  replace_all(output, fs::absolute(spec.dir).string() + "/", "");
  replace_all(output, spec.dir.string() + "/", "");
  replace_all(output, header_dir().parent_path().string() + "/", "");
  std::istringstream in(output);
  std::string line, kept;
  std::size_t lines = 0, dropped = 0;
  while (std::getline(in, line))
    if (lines++ < message_lines)
      kept += line + "\n";
    else
      ++dropped;
  if (dropped) kept += "(" + std::to_string(dropped) + " more lines)\n";
  while (!kept.empty() && kept.back() == '\n') kept.pop_back();
  return kept;
}

} // namespace

std::vector<std::string> reference_compile_flags() {
  // -ffp-contract=off: the reference's sums stay separate multiplies and adds on every host (GCC and
  // Clang may otherwise fuse them into FMAs where the architecture has them). --no-undefined: a missing symbol is a
  // compile error with a message here, not a dlopen failure later.
  std::vector<std::string> flags = {"-std=c++17", "-O3", "-ffp-contract=off", "-fPIC", "-shared", "-pthread"};
  flags.insert(flags.end(), {"-fvisibility=hidden", "-Wl,--no-undefined", "-I" + header_dir().string()});
  return flags;
}

reference_build build_cpu_reference(const problem_spec& spec, const toolchain& tools) {
  reference_build build;
  const fs::path source = spec.dir / "reference.cpp";
  auto fail = [&](reference_build_status status, std::string message) {
    build.status = status;
    build.message = std::move(message);
    return build;
  };
  std::error_code ec;
  if (!fs::is_regular_file(source, ec))
    return fail(reference_build_status::missing,
                "problem " + spec.name + " has no CPU reference: " + source.string() +
                    " does not exist (every problem needs one; see docs/problem-format.md)");

  const std::vector<std::string> flags = reference_compile_flags();
  content_hash hash;
  try {
    hash.add(cache_format).add_file(source).add_file(header_dir() / "cpu_reference.h").add(tools.host_cxx.string());
  } catch (const std::exception& e) {
    return fail(reference_build_status::internal_error, e.what());
  }
  for (const std::string& flag : flags) hash.add(flag);
  const fs::path dir = tools.cache_dir / spec.name;
  build.library = dir / ("cpu-reference-" + hash.hex() + ".so");

  // One build per process at a time; a second caller then finds it done.
  static std::mutex building;
  std::lock_guard<std::mutex> lock(building);
  if (fs::exists(build.library, ec)) {
    mark_cache_entry_used(build.library); // `judge cache prune` keeps what is in use
    build.cached = true;
    build.status = reference_build_status::ok;
    return build;
  }

  staged_path staged(build.library);
  const fs::path& staging = staged.path();
  try {
    fs::create_directories(dir);
    process_options options;
    options.argv = {tools.host_cxx.string()};
    options.argv.insert(options.argv.end(), flags.begin(), flags.end());
    options.argv.insert(options.argv.end(), {"-o", staging.string(), fs::absolute(source).string()});
    options.env = child_environment();
    options.working_dir = dir;
    // Trusted instructor code, so no sandbox; the limit only guards against a hung compiler.
    const run_result run = run_to_completion(options, std::chrono::duration<double>(compile_limit_seconds));
    if (!(run.status.exited && run.status.exit_code == 0)) {
      fs::remove(staging, ec);
      if (run.status.killed_by_judge)
        return fail(reference_build_status::compile_error,
                    "compiling the CPU reference of problem " + spec.name + " (" + source.string() +
                        ") took longer than " + std::to_string(static_cast<int>(compile_limit_seconds)) + " s");
      std::string output = clean_output(run.out.kept + run.err.kept, spec, staging);
      if (output.empty()) output = tools.host_cxx.string() + " " + describe(run.status);
      return fail(reference_build_status::compile_error, "the CPU reference of problem " + spec.name +
                                                             " does not compile (" + source.string() + "):\n" + output);
    }
    staged.publish(on_existing::replace);
  } catch (const std::exception& e) {
    fs::remove(staging, ec);
    return fail(reference_build_status::internal_error, "cannot build the CPU reference of problem " + spec.name +
                                                            " with " + tools.host_cxx.string() + ": " + e.what());
  }
  build.status = reference_build_status::ok;
  return build;
}

} // namespace judge
