// One solution's (or baseline's) build, build_runner() in compile.hpp, as named steps (named_steps.hpp),
// each with one job: check the sources, build the problem's runner, hash the build's inputs, look them up
// in the cache, stage the sources, compile the units, refuse a main(), link solution.so, inspect it, find
// its tensor-core use, publish it to the cache. The toolchain's stop (Ctrl-C) is looked at between the
// steps: once set, no further step starts and the build ends as internal_error "stopped: the compile was
// interrupted", never the learner's fault.
#pragma once

#include "judge/compile/cache_entry.hpp"
#include "judge/compile/compile.hpp"
#include "judge/base/named_steps.hpp"
#include "judge/compile/runner_build.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace judge {

class solution_build {
public:
  /// `spec` and `tools` must outlive the build.
  solution_build(const problem_spec& spec, std::filesystem::path source, runner_kind kind, const toolchain& tools);
  solution_build(const solution_build&) = delete;
  solution_build& operator=(const solution_build&) = delete;

  /// The steps, in the order run() takes them.
  static const std::vector<named_step<solution_build>>& steps();

  /// Runs the steps (once); `on_step` is told each one's name as it starts. Throws what build_runner
  /// throws (a source that does not exist).
  build_result run(const step_observer& on_step = {});

private:
  /// The .cu files of a solution (solution_units()), and every file whose bytes make up the solution (a
  /// folder's headers too).
  struct solution_files {
    std::vector<std::filesystem::path> units;
    std::vector<std::filesystem::path> hashed;
  };

  step_end check_sources();
  step_end build_problem_runner();
  step_end hash_inputs();
  step_end look_up_cache();
  step_end stage_sources();
  step_end compile_units();
  step_end refuse_main();
  step_end link_solution();
  step_end inspect_solution();
  step_end find_tensor_core_use();
  step_end publish_to_cache();

  /// Ends the build with `status` and `message`, and its time.
  step_end end(build_status status, std::string message);
  /// Runs `step` of the staged part of the build, where any exception is the judge's failure.
  step_end staged(step_end (solution_build::*step)());
  /// The compile error (or time-out) of a failed compile or link, in the learner's words.
  step_end failed(const tool_run& tool);
  /// `output` with the judge's folders taken out of the paths it names.
  std::string clean(std::string output) const;
  tool_run compile(const std::filesystem::path& unit, const std::vector<std::string>& extra,
                   const std::string& object) const;
  tool_run link(const std::vector<std::string>& objects) const;
  /// nvcc's flags that keep a solution unit's device code (none for a baseline).
  std::vector<std::string> keep_flags() const;
  /// Moves the fatbin nvcc --keep left of unit `stem` into the staged device/ folder (a solution's only).
  void take_device_code(const std::string& stem) const;

  const problem_spec& m_spec;
  const std::filesystem::path m_source;
  const runner_kind m_kind;
  const toolchain& m_tools;
  const build_clock::time_point m_start;
  const build_clock::time_point m_deadline;
  build_result m_result;

  solution_files m_files;
  shared_runner m_runner;
  std::string m_declaration;                  ///< solve.h: what every unit sees first
  std::vector<std::string> m_link_libraries;  ///< a baseline's (cuBLAS)
  std::filesystem::path m_entry;              ///< the cache entry's final folder
  std::optional<staging_dir> m_staging;       ///< where the entry is made; removed unless published
  std::filesystem::path m_work, m_src;        ///< the staging folder, and the learner's files in it
  std::vector<std::filesystem::path> m_units; ///< the staged copies of the units
  std::filesystem::path m_declaration_file, m_check_file;
  std::vector<std::string> m_learner_flags;
  std::vector<std::string> m_objects; ///< one per unit, in their order
  std::string m_ptxas_info;           ///< ptxas's resource lines of the units
  std::filesystem::path m_solution;   ///< the staged solution.so
};

} // namespace judge
