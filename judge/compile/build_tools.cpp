#include "judge/compile/build_tools.hpp"

#include "judge/compile/cache_entry.hpp"
#include "judge/sandbox/command_paths.hpp"
#include "judge/base/file_input.hpp"
#include "judge/compile/object_inspection.hpp"
#include "judge/sandbox/process.hpp"
#include "judge/sandbox/sandbox_limits.hpp"
#include "judge/compile/tensor_core_use.hpp"
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

} // namespace

bool stopped(const toolchain& tools) { return tools.stop && tools.stop->load(); }

tool_run run_tool(const toolchain& tools, const std::string& program, std::vector<std::string> args,
                  const fs::path& work_dir, build_clock::time_point deadline) {
  if (stopped(tools)) return {false, false, "stopped before " + fs::path(program).filename().string() + " started"};
  process_options options;
  options.argv = {program};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  options.env = child_environment();
  // nvcc's temporary files stay in the build folder, removed with it.
  options.env["TMPDIR"] = work_dir.string();
  options.working_dir = work_dir;
  options.output_cap = compiler_output_cap;
  options.sandbox = tools.sandbox;
  options.hidden_paths = tools.hidden_paths;
  // The tool sees the system, its staging folder and what its command line names; nothing else of the
  // judge's tree. The toolkit may live outside /usr.
  options.writable_paths = {work_dir};
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
  result.output = run.out.kept + run.err.kept;
  if (!result.ok && !result.timed_out && result.output.empty()) result.output = program + " " + describe(run.status);
  return result;
}

tool_run run_nvcc(const toolchain& tools, std::vector<std::string> args, const fs::path& work_dir,
                  build_clock::time_point deadline) {
  return run_tool(tools, tools.nvcc.string(), std::move(args), work_dir, deadline);
}

std::vector<std::string> code_flags(const toolchain& tools) {
  std::vector<std::string> flags = {"-std=c++17", "-O3", "-lineinfo"};
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
  // Read by the judge itself: a byte scan needs no tool, and no tool's listing can hide bytes from it.
  out.elf_bytes = read_file(object);
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
