#include "judge/compile/runner_build.hpp"

#include "judge/compile/cache_entry.hpp"
#include "judge/compile/content_hash.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace judge {
namespace fs = std::filesystem;

shared_runner build_shared_runner(const problem_spec& spec, const toolchain& tools, build_clock::time_point deadline) {
  shared_runner runner;
  const fs::path reference = spec.dir / "reference_gpu.cu";
  if (!fs::is_regular_file(reference)) {
    runner.message = "problem " + spec.name + " has no reference_gpu.cu (" + reference.string() + ")";
    return runner;
  }
  const std::string shim = solve_call_shim(spec);
  content_hash hash;
  hash.add(cache_format).add(shim).add_file(reference).add(tools.nvcc.string());
  for (const auto& flag : code_flags(tools)) hash.add(flag);
  hash.add_file(tools.harness_library).add(tools.cupti_library.string()).add(tools.cuda_library_dir.string());
  hash.add(tools.seccomp_library.string());
  runner.hash = hash.hex();
  const fs::path dir = tools.cache_dir / spec.name / ("runner-" + runner.hash);
  runner.executable = dir / "runner";

  // One build per process at a time; parallel solution builds then find it done.
  static std::mutex building;
  std::lock_guard<std::mutex> lock(building);
  if (fs::exists(runner.executable)) {
    mark_cache_entry_used(dir);
    runner.ok = true;
    return runner;
  }
  staging_dir staging(dir);
  write_text(staging.path() / "judge_shim.cu", shim);
  const std::vector<std::pair<fs::path, fs::path>> units = {{staging.path() / "judge_shim.cu", "judge_shim.o"},
                                                            {reference, "reference_gpu.o"}};
  std::vector<std::string> link = code_flags(tools);
  for (const auto& [unit, object] : units) {
    std::vector<std::string> args = code_flags(tools);
    args.insert(args.end(), {"-c", unit.string(), "-o", (staging.path() / object).string()});
    tool_run compiled = run_nvcc(tools, args, staging.path(), deadline);
    if (!compiled.ok) {
      runner.message = "cannot compile " + unit.filename().string() + " of problem " + spec.name +
                       (compiled.timed_out ? " within the compile time limit" : ":\n" + compiled.output);
      return runner;
    }
    link.push_back((staging.path() / object).string());
  }
  // The CUDA runtime is shared, so that the solution.so the runner loads (also -cudart shared) uses the
  // same runtime instance: one context, one error state, kernels registered in one place.
  // The runtime calls the work recorder follows are defined in the harness (harness/record/
  // runtime_interposer.cpp) and exported, so that the learner's shared object, loaded later, binds to them
  // before libcudart; every other symbol of the runner stays hidden from it.
  link.insert(link.end(), {"-Xlinker", "--export-dynamic-symbol=cuda*", "-Xlinker", "--export-dynamic-symbol=__cuda*"});
  link.insert(link.end(),
              {tools.harness_library.string(), tools.cupti_library.string(),
               "-L" + tools.seccomp_library.parent_path().string(), "-lseccomp", "-cudart", "shared", "-ldl",
               "-lpthread", "-Xlinker", "-rpath," + tools.cupti_library.parent_path().string(), "-Xlinker",
               "-rpath," + tools.cuda_library_dir.string(), "-o", (staging.path() / "runner").string()});
  tool_run linked = run_nvcc(tools, link, staging.path(), deadline);
  if (!linked.ok) {
    runner.message = "cannot link the runner of problem " + spec.name +
                     (linked.timed_out ? " within the compile time limit" : ":\n" + linked.output);
    return runner;
  }
  for (const auto& unit : units) fs::remove(staging.path() / unit.second);
  staging.publish();
  runner.ok = true;
  return runner;
}

} // namespace judge
