#include "judge/compile/solution_build.hpp"

#include "judge/compile/build_tools.hpp"
#include "judge/base/file_input.hpp"
#include "judge/problem/solution_files.hpp"
#include "judge/compile/solve_binding.hpp"
#include "judge/base/text.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

namespace judge {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t max_source_bytes = 1024 * 1024;

/// The solution's files, copied alone into a folder so that the compile sees only them: an
/// #include "../other.cu" finds nothing of the judge's.
struct solution_copy {
  std::vector<fs::path> units; ///< the copies of the units, in the order of the solution's units
  std::string refused;         ///< why the solution cannot be copied ("" when it was)
};

/// Copies a single file by its name, a folder with its layout, into `dir`. Links inside a folder are
/// not followed (the copy runs outside the sandbox, and a link could name any file the judge can read):
/// linked headers are left out, and a linked unit is refused.
solution_copy copy_solution(const fs::path& source, const std::vector<fs::path>& units,
                            const std::vector<fs::path>& hashed, const fs::path& dir) {
  solution_copy copy;
  fs::create_directories(dir);
  const bool folder = fs::is_directory(source);
  auto copy_of = [&](const fs::path& file) { return dir / (folder ? fs::relative(file, source) : file.filename()); };
  for (const fs::path& unit : units)
    if (folder && fs::is_symlink(unit)) {
      copy.refused = fs::relative(unit, source).string() + " is a symbolic link: submit the file itself";
      return copy;
    }
  for (const fs::path& file : hashed) {
    if (folder && fs::is_symlink(file)) continue;
    const fs::path target = copy_of(file);
    fs::create_directories(target.parent_path());
    fs::copy_file(file, target, fs::copy_options::overwrite_existing);
  }
  for (const fs::path& unit : units) copy.units.push_back(copy_of(unit));
  return copy;
}

/// Whether nvcc refused a unit because its own extern "C" solve() conflicts with the declaration the
/// judge included first (step 2 in solve_binding.hpp).
bool solve_conflicts(const std::string& output) {
  return output.find("solve") != std::string::npos &&
         (output.find("incompatible") != std::string::npos || output.find("conflicting") != std::string::npos ||
          output.find("has \"C\" linkage") != std::string::npos);
}

std::string display_limit(double seconds) {
  std::string text = std::to_string(seconds);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

} // namespace

solution_build::solution_build(const problem_spec& spec, fs::path source, runner_kind kind, const toolchain& tools)
    : m_spec(spec), m_source(std::move(source)), m_kind(kind), m_tools(tools), m_start(build_clock::now()),
      m_deadline(m_start + std::chrono::duration_cast<build_clock::duration>(
                               std::chrono::duration<double>(spec.limits.compile_seconds))) {}

const std::vector<named_step<solution_build>>& solution_build::steps() {
  // From staging on, what throws (a file the judge cannot write, a tool that cannot start) is the
  // judge's failure, not the learner's.
  auto staged_step = [](step_end (solution_build::*step)()) {
    return [step](solution_build& b) { return b.staged(step); };
  };
  static const std::vector<named_step<solution_build>> list = {
      {"check the sources", &solution_build::check_sources},
      {"build the problem's runner", &solution_build::build_problem_runner},
      {"hash the build's inputs", &solution_build::hash_inputs},
      {"look up the cache", &solution_build::look_up_cache},
      {"stage the sources", staged_step(&solution_build::stage_sources)},
      {"compile the units", staged_step(&solution_build::compile_units)},
      {"refuse a main()", staged_step(&solution_build::refuse_main)},
      {"link solution.so", staged_step(&solution_build::link_solution)},
      {"inspect solution.so", staged_step(&solution_build::inspect_solution)},
      {"find tensor-core use", staged_step(&solution_build::find_tensor_core_use)},
      {"publish to the cache", staged_step(&solution_build::publish_to_cache)},
  };
  return list;
}

build_result solution_build::run(const step_observer& on_step) {
  run_steps(
      *this, steps(), [this] { return stopped(m_tools); },
      [](solution_build& b) { b.end(build_status::internal_error, "stopped: the compile was interrupted"); }, on_step);
  return m_result;
}

step_end solution_build::end(build_status status, std::string message) {
  m_result.status = status;
  m_result.message = std::move(message);
  m_result.seconds = std::chrono::duration<double>(build_clock::now() - m_start).count();
  return step_end::last;
}

step_end solution_build::staged(step_end (solution_build::*step)()) {
  try {
    return (this->*step)();
  } catch (const std::exception& e) {
    return end(build_status::internal_error, std::string("cannot build the solution: ") + e.what());
  }
}

step_end solution_build::check_sources() {
  std::error_code ec;
  if (!fs::exists(m_source, ec)) throw std::runtime_error("no such file: " + m_source.string());
  m_files.units = solution_units(m_source);
  if (m_files.units.empty()) throw std::runtime_error("no .cu file in " + m_source.string());
  if (!fs::is_directory(m_source)) {
    m_files.hashed = m_files.units;
  } else {
    // Links to folders are not followed (solution_units() does not follow them either), and a broken
    // link or a link loop is no file of the solution: neither may abort the run.
    for (fs::recursive_directory_iterator it(m_source, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
      std::error_code not_a_file;
      if (it->is_regular_file(not_a_file)) m_files.hashed.push_back(it->path());
    }
    std::sort(m_files.hashed.begin(), m_files.hashed.end());
  }
  for (const fs::path& unit : m_files.units) {
    auto bytes = fs::file_size(unit);
    if (bytes > max_source_bytes)
      return end(build_status::compile_error, unit.filename().string() + ": the source file is " +
                                                  std::to_string(bytes) + " bytes; the limit is 1 MiB");
  }
  if (!fs::is_regular_file(m_tools.harness_library))
    return end(build_status::internal_error, "the harness library " + m_tools.harness_library.string() +
                                                 " is not built (build target judge_harness)");
  return step_end::next;
}

step_end solution_build::build_problem_runner() {
  try {
    m_runner = build_shared_runner(m_spec, m_tools, m_deadline);
  } catch (const std::exception& e) {
    return end(build_status::internal_error, e.what());
  }
  if (!m_runner.ok) return end(build_status::internal_error, m_runner.message);
  m_result.runner = m_runner.executable;
  return step_end::next;
}

step_end solution_build::hash_inputs() {
  m_declaration = solve_declaration_header(m_spec);
  if (m_kind == runner_kind::baseline) m_link_libraries = m_spec.baseline.libraries;
  m_result.content_hash =
      solution_entry_key(m_source, m_files.hashed, m_kind, m_declaration, m_runner.hash, m_link_libraries);
  m_entry = m_tools.cache_dir / m_spec.name / m_result.content_hash;
  m_result.solution = m_entry / cached_solution::object_file;
  return step_end::next;
}

step_end solution_build::look_up_cache() {
  if (read_solution_entry(m_entry, m_kind, m_result)) return end(build_status::ok, "");
  return step_end::next;
}

step_end solution_build::stage_sources() {
  m_staging.emplace(m_entry);
  m_work = m_staging->path();
  // The learner's files, alone in src/: the compile sees them and the judge's generated headers only.
  m_src = m_work / "src";
  solution_copy copy = copy_solution(m_source, m_files.units, m_files.hashed, m_src);
  if (!copy.refused.empty()) return end(build_status::compile_error, copy.refused);
  m_units = std::move(copy.units);
  // The only folder on the learner's include path: solve.h, the declaration also included first.
  const fs::path include_dir = m_work / "include";
  fs::create_directories(include_dir);
  m_declaration_file = include_dir / "solve.h";
  write_text(m_declaration_file, m_declaration);
  m_check_file = m_work / "solve_check.h";
  write_text(m_check_file, solve_check_header(m_spec));
  // NVTX_DISABLE: the toolkit's header libraries (CUB, Thrust) mark ranges with NVTX, whose first use
  // loads a profiling tool named by the environment (dlopen, dlsym, dlclose). Compiled out, the ranges
  // cost nothing and the solution imports no loader function, so loading stays refused to learner code.
  m_learner_flags = {
      std::string("-D") + judge_macro, "-DNVTX_DISABLE", "-I", include_dir.string(), "-Xcompiler", "-fPIC"};
  return step_end::next;
}

step_end solution_build::compile_units() {
  // A learner's units only: ptxas says what each kernel uses (registers, shared memory, spills).
  const std::vector<std::string> resource_usage = {"-Xptxas", "-v"};
  for (const fs::path& unit : m_units) {
    // Units may sit in sub-folders (src/a.cu, kernels/a.cu): one object name each.
    std::string stem = fs::relative(unit, m_src).replace_extension().string();
    std::replace(stem.begin(), stem.end(), '/', '_');
    const std::string object = (m_work / (stem + ".o")).string();
    std::vector<std::string> extra = resource_usage;
    extra.insert(extra.end(), {"-include", m_declaration_file.string()});
    std::vector<std::string> kept = keep_flags();
    extra.insert(extra.end(), kept.begin(), kept.end());
    tool_run compiled = compile(unit, extra, object);
    if (!compiled.ok && !compiled.timed_out && solve_conflicts(compiled.output)) {
      // Step 2 (solve_binding.hpp): the unit without the judge's declaration, then the check.
      const fs::path checked = m_work / ("judge_checked_" + stem + ".cu");
      write_text(checked, "#include \"" + unit.string() + "\"\n#include \"" + m_check_file.string() + "\"\n");
      std::vector<std::string> retry_flags = resource_usage;
      kept = keep_flags();
      retry_flags.insert(retry_flags.end(), kept.begin(), kept.end());
      tool_run retried = compile(checked, retry_flags, object);
      if (retried.ok) compiled = retried;
    }
    if (!compiled.ok) return failed(compiled);
    take_device_code(stem);
    if (m_kind == runner_kind::solution) m_ptxas_info += ptxas_info_only(compiled.output);
    m_objects.push_back(object);
  }
  return step_end::next;
}

step_end solution_build::refuse_main() {
  // A main() has no place in a solution the judge calls: refused by the symbol tables rather than the
  // source, so that a main() in a namespace, a class or a comment does not count, and by unit, so that
  // the message names the file and line.
  for (std::size_t i = 0; i < m_objects.size(); ++i) {
    for (const defined_symbol& symbol : defined_symbols(m_tools, m_objects[i], m_work, m_deadline)) {
      if (symbol.name != "main" || symbol.type != 'T') continue;
      const int line = main_definition_line(read_file(m_units[i]));
      return end(build_status::compile_error,
                 m_units[i].filename().string() + " defines main()" +
                     (line > 0 ? " (line " + std::to_string(line) + ")" : "") +
                     "; the judge calls solve() itself: remove main() or guard it with #ifndef " + judge_macro +
                     " ... #endif");
    }
  }
  return step_end::next;
}

step_end solution_build::link_solution() {
  // The learner's shared object: their units only, the CUDA runtime shared with the runner, and
  // every symbol resolved now (--no-undefined), so that a missing function is a link error here and
  // not a failed dlopen later.
  m_solution = m_work / cached_solution::object_file;
  tool_run linked = link(m_objects);
  if (!linked.ok) return failed(linked);
  if (exports_solve(m_tools, m_solution, m_work, m_deadline)) return step_end::next;
  // Step 3 (solve_binding.hpp): a C++ solve() with other pointer constness gets an adapter.
  std::vector<std::string> found;
  for (const std::string& object : m_objects)
    for (const defined_symbol& symbol : defined_symbols(m_tools, object, m_work, m_deadline)) {
      const std::string declaration = symbol.type == 'T' ? demangled_solve(symbol.name) : "";
      if (!declaration.empty()) found.push_back(declaration);
    }
  bool adapted = false;
  if (found.size() == 1) {
    const fs::path adapter = m_work / "judge_solve_adapter.cpp";
    write_text(adapter, solve_adapter_source(m_spec, found.front()));
    const std::string adapter_object = (m_work / "judge_solve_adapter.o").string();
    if (compile(adapter, {}, adapter_object).ok) {
      std::vector<std::string> with_adapter = m_objects;
      with_adapter.push_back(adapter_object);
      // Linked afresh: the sandboxed linker sees an existing file it is given as read-only.
      fs::remove(m_solution);
      linked = link(with_adapter);
      if (!linked.ok) return failed(linked);
      adapted = exports_solve(m_tools, m_solution, m_work, m_deadline);
    }
  }
  // The words the linker used when the runner was linked with the solution, so that the message
  // (explain_compile_error) is the same.
  if (!adapted) return failed(tool_run{false, false, "undefined reference to `solve'"});
  return step_end::next;
}

step_end solution_build::inspect_solution() {
  // The judge's own baseline (cuBLAS) is trusted; a learner's object is inspected before any runner
  // loads it.
  if (m_kind != runner_kind::solution) return step_end::next;
  const std::vector<std::string> findings = inspect_object(m_tools, m_solution, m_work, m_deadline);
  if (findings.empty()) return step_end::next;
  std::string message;
  for (const std::string& finding : findings) message += (message.empty() ? "" : "\n") + ("the solution " + finding);
  return end(build_status::compile_error, message);
}

step_end solution_build::find_tensor_core_use() {
  // Found before the entry is published, so that every entry has the answer.
  if (m_kind == runner_kind::solution) m_result.uses_tensor_cores = uses_tensor_cores(m_tools, m_solution, m_deadline);
  return step_end::next;
}

step_end solution_build::publish_to_cache() {
  publish_solution_entry(*m_staging, m_kind, m_ptxas_info, m_result.uses_tensor_cores);
  m_result.kernels = parse_ptxas_resources(m_ptxas_info);
  if (m_kind == runner_kind::solution) m_result.device_code = device_code_files(m_entry);
  return end(build_status::ok, "");
}

step_end solution_build::failed(const tool_run& tool) {
  if (tool.timed_out)
    return end(build_status::compile_error, "compiling took longer than the limit of " +
                                                display_limit(m_spec.limits.compile_seconds) +
                                                " s (problem.yaml: limits.compile_seconds)");
  // ptxas's resource lines (-Xptxas -v) are figures for the report, not messages.
  return end(build_status::compile_error, explain_compile_error(m_spec, clean(without_ptxas_info(tool.output))));
}

std::string solution_build::clean(std::string output) const {
  // Messages name the learner's files as they know them, not by the judge's folders.
  output = replace_all(output, m_src.string() + "/", "");
  output = replace_all(output, m_work.string() + "/", "");
  output = replace_all(output, m_runner.executable.parent_path().string() + "/", "");
  return output;
}

tool_run solution_build::compile(const fs::path& unit, const std::vector<std::string>& extra,
                                 const std::string& object) const {
  std::vector<std::string> args = code_flags(m_tools);
  args.insert(args.end(), m_learner_flags.begin(), m_learner_flags.end());
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"-c", unit.string(), "-o", object});
  return run_nvcc(m_tools, args, m_work, m_deadline);
}

tool_run solution_build::link(const std::vector<std::string>& objects) const {
  std::vector<std::string> args = code_flags(m_tools);
  args.insert(args.end(), objects.begin(), objects.end());
  args.insert(args.end(), {"-shared", "-cudart", "shared", "-Xlinker", "--no-undefined"});
  if (!m_link_libraries.empty()) {
    args.push_back("-L" + m_tools.cuda_library_dir.string());
    for (const auto& library : m_link_libraries) args.push_back("-l" + library);
    args.insert(args.end(), {"-Xlinker", "-rpath," + m_tools.cuda_library_dir.string()});
  }
  args.insert(args.end(), {"-o", m_solution.string()});
  return run_nvcc(m_tools, args, m_work, m_deadline);
}

std::vector<std::string> solution_build::keep_flags() const {
  // nvcc keeps its intermediate files in the compile's own working folder (the staging folder, which
  // the sandbox's user may write: a folder the judge made inside it would not be); named by its
  // relative path, because a path named on the command line is bound read-only in the sandbox.
  if (m_kind != runner_kind::solution) return {};
  return {"--keep", "--keep-dir", "."};
}

void solution_build::take_device_code(const std::string& stem) const {
  // A unit's device code as its device compilation produced it: nvcc --keep leaves the fatbin it
  // embeds in the object, made from the unit's device code alone.
  if (m_kind != runner_kind::solution) return;
  const fs::path device_dir = m_work / cached_solution::device_code_folder;
  fs::create_directories(device_dir);
  for (const auto& entry : fs::directory_iterator(m_work))
    if (entry.is_regular_file() && entry.path().extension() == ".fatbin")
      fs::rename(entry.path(), device_dir / (stem + ".fatbin"));
}

} // namespace judge
