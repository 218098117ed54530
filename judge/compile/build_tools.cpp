#include "judge/compile/build_tools.hpp"

#include "judge/compile/cache_entry.hpp"
#include "judge/compile/object_inspection.hpp"
#include "judge/compile/tensor_core_use.hpp"
#include "judge/sandbox/command_paths.hpp"
#include "judge/sandbox/judge_paths.hpp"
#include "judge/sandbox/process.hpp"
#include "judge/sandbox/sandbox_limits.hpp"
#include "judge/sandbox/tool_path.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

namespace judge {
namespace fs = std::filesystem;
namespace {

/// Output of one binutils tool over `file`; throws when the tool fails (the judge's fault, not the
/// learner's).
std::string tool_output(const toolchain& tools, const std::string& program, std::vector<std::string> args,
                        const fs::path& file, const fs::path& work_dir, build_clock::time_point deadline) {
  args.push_back(file.string());
  tool_run run = run_tool(tools, program, std::move(args), work_dir, deadline);
  if (!run.ok)
    throw std::runtime_error("cannot inspect " + file.filename().string() + " with " + program + ": " + run.output);
  return run.output;
}

/// [B] What the files in `folder` and below hold (links not followed).
std::uintmax_t folder_bytes(const fs::path& folder) {
  std::uintmax_t bytes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec), end = fs::recursive_directory_iterator();
       !ec && it != end; it.increment(ec)) {
    std::error_code not_a_file;
    if (it->is_regular_file(not_a_file) && !it->is_symlink(not_a_file)) bytes += it->file_size(not_a_file);
  }
  return bytes;
}

std::string mib_text(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

/// The compile error of a build that wrote more than its cap.
std::string over_scratch_cap(std::size_t cap) {
  return "the compile wrote more than " + mib_text(cap) +
         " (objects, nvcc's kept files and temporaries of all units together; the limit of every build): "
         "make the units' code or static data smaller";
}

/// The messages of a tool, with every folder of the judge's spelled as a learner may read it: the
/// staging folder as itself (solution_build then names the learner's files relative to it), alone as
/// ".", the runner cache and the judge's other folders as "<runner cache>" and "<judge>".
std::string learner_visible(const toolchain& tools, const fs::path& work_dir, const std::string& output) {
  std::vector<path_rewrite> rewrites = {{work_dir, work_dir.string(), "."}};
  rewrites.push_back({tools.cache_dir, "<runner cache>", "<runner cache>"});
  for (const fs::path& folder : tools.masked_paths) rewrites.push_back({folder, "<judge>", "<judge>"});
  return rewrite_paths(output, rewrites);
}

} // namespace

bool stopped(const toolchain& tools) { return tools.stop && tools.stop->load(); }

tool_run run_tool(const toolchain& tools, const std::string& program, std::vector<std::string> args,
                  const fs::path& work_dir, build_clock::time_point deadline) {
  if (stopped(tools)) return {false, false, "stopped before " + fs::path(program).filename().string() + " started"};
  // What the build wrote so far counts: each tool gets only what is left of the cap.
  const std::uintmax_t used = folder_bytes(work_dir);
  if (used >= tools.scratch_bytes) return {false, false, over_scratch_cap(tools.scratch_bytes)};
  process_options options;
  // By the path the links lead to: the private root binds the toolkit there (and no /opt).
  std::error_code ec;
  const fs::path real_program = program.find('/') != std::string::npos ? fs::canonical(program, ec) : fs::path();
  options.argv = {ec || real_program.empty() ? program : real_program.string()};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  options.env = child_environment();
  // nvcc's temporary files stay in the build folder, removed with it.
  options.env["TMPDIR"] = work_dir.string();
  options.working_dir = work_dir;
  options.output_cap = compiler_output_cap;
  options.sandbox = tools.sandbox;
  options.hidden_paths = tools.hidden_paths;
  // The tool sees the system (without /opt), its staging folder and what its command line names; nothing
  // else of the judge's tree, even where a system folder holds it. The toolkit may live outside /usr.
  options.host_opt = false;
  options.masked_paths = tools.masked_paths;
  options.writable_paths = {work_dir};
  options.scratch_bytes = static_cast<std::size_t>(tools.scratch_bytes - used);
  options.read_only_paths = paths_named_by(args);
  if (tools.nvcc.is_absolute()) options.read_only_paths.push_back(tools.nvcc.parent_path().parent_path());
  options.tmp_bytes = sandbox_limits::compile::tmp_bytes;
  options.memory_bytes = sandbox_limits::compile::memory_bytes;
  options.max_pids = sandbox_limits::compile::max_pids;
  options.address_space_bytes = sandbox_limits::compile::address_space_bytes;
  options.file_size_bytes = sandbox_limits::compile::file_size_bytes;
  auto left = std::max(build_clock::duration::zero(), deadline - build_clock::now());
  run_result run = run_to_completion(options, left);
  tool_run result;
  result.timed_out = run.status.killed_by_judge;
  result.ok = run.status.exited && run.status.exit_code == 0;
  result.output = learner_visible(tools, work_dir, run.out.kept + run.err.kept);
  if (!result.ok && !result.timed_out && result.output.empty())
    result.output = fs::path(program).filename().string() + " " + describe(run.status);
  // The scratch tmpfs full: the tool says so in its own words (and may have removed what it wrote).
  // Only the message's first line depends on it; the verdict is the same compile error either way.
  const bool full = !result.ok && !result.timed_out &&
                    (result.output.find("No space left on device") != std::string::npos ||
                     folder_bytes(work_dir) > tools.scratch_bytes);
  if (full)
    result.output = over_scratch_cap(tools.scratch_bytes) + "\n" + result.output;
  // Where no tmpfs bounded it (no PID namespace), what the tool wrote is measured afterwards.
  if (result.ok && folder_bytes(work_dir) > tools.scratch_bytes) {
      result.ok = false;
      result.output = over_scratch_cap(tools.scratch_bytes);
    }
  return result;
}

tool_run run_nvcc(const toolchain& tools, std::vector<std::string> args, const fs::path& work_dir,
                  build_clock::time_point deadline) {
  return run_tool(tools, tools.nvcc.string(), std::move(args), work_dir, deadline);
}

std::vector<std::string> code_flags(const toolchain& tools) {
  // LeetGPU's language options (C++20, constexpr host functions callable from device code, __device__
  // lambdas), so that its solutions compile here unchanged; -O3 and -lineinfo are the judge's own
  // (docs/problem-format.md, "How solutions are compiled").
  std::vector<std::string> flags = {"-std=c++20", "--expt-relaxed-constexpr", "--extended-lambda", "-O3", "-lineinfo"};
  for (const std::string& a : tools.archs)
    flags.push_back("--generate-code=arch=compute_" + a + ",code=[compute_" + a + ",sm_" + a + "]");
  flags.insert(flags.end(), tools.extra_flags.begin(), tools.extra_flags.end());
  return flags;
}

std::vector<defined_symbol> defined_symbols(const toolchain& tools, const fs::path& object, const fs::path& work_dir,
                                            build_clock::time_point deadline) {
  tool_run nm = run_tool(tools, "nm", {"-P", "--defined-only", object.string()}, work_dir, deadline);
  if (!nm.ok) throw std::runtime_error("cannot list the symbols of " + object.filename().string() + ": " + nm.output);
  return parse_nm_output(nm.output);
}

std::vector<std::string> inspect_object(const toolchain& tools, const fs::path& object, const fs::path& work_dir,
                                        build_clock::time_point deadline) {
  object_tool_output out;
  out.nm_undefined = tool_output(tools, "nm", {"-D", "--undefined-only"}, object, work_dir, deadline);
  out.readelf_dynamic = tool_output(tools, "readelf", {"-d", "-W"}, object, work_dir, deadline);
  out.readelf_segments = tool_output(tools, "readelf", {"-l", "-W"}, object, work_dir, deadline);
  return inspection_findings(out);
}

bool exports_solve(const toolchain& tools, const fs::path& object, const fs::path& work_dir,
                   build_clock::time_point deadline) {
  const std::string nm = tool_output(tools, "nm", {"-D", "-P", "--defined-only"}, object, work_dir, deadline);
  for (const defined_symbol& symbol : parse_nm_output(nm))
    if (symbol.name == "solve" && (symbol.type == 'T' || symbol.type == 'W')) return true;
  return false;
}

std::optional<bool> uses_tensor_cores(const toolchain& tools, const fs::path& solution,
                                      build_clock::time_point deadline) {
  const found_tool found = find_cuda_tool("cuobjdump", "", tools.nvcc);
  const std::string cuobjdump = found.executable.empty() ? std::string("cuobjdump") : found.executable.string();
  try {
    staging_dir scratch(solution.parent_path());
    tool_run sass = run_tool(tools, cuobjdump, {"-sass", solution.string()}, scratch.path(), deadline);
    if (!sass.ok) return std::nullopt;
    if (!tensor_core_opcodes(sass.output).empty()) return true;
    // Output cut at the cap may have left the tensor-core code out: then it is not known.
    if (sass.output.size() >= compiler_output_cap) return std::nullopt;
    return false;
  } catch (const std::exception&) { // no scratch folder (a read-only cache), or the tool could not start
    return std::nullopt;
  }
}

} // namespace judge
