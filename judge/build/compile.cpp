#include "compile.hpp"

#include "command_paths.hpp"
#include "content_hash.hpp"
#include "file_input.hpp"
#include "install_layout.hpp"
#include "file_output.hpp"
#include "object_inspection.hpp"
#include "process.hpp"
#include "sandbox_limits.hpp"
#include "secret.hpp"
#include "solution_files.hpp"
#include "solve_binding.hpp"
#include "tensor_core_use.hpp"
#include "text.hpp"
#include "tool_path.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

namespace judge {
namespace fs = std::filesystem;
namespace {

using clock = std::chrono::steady_clock;

constexpr std::uintmax_t max_source_bytes = 1024 * 1024;
constexpr std::size_t compiler_output_cap = 1024 * 1024; // [B] per stream; messages are trimmed anyway
/// Bump when the way runners are built changes, so that old cache entries are not reused.
constexpr const char* cache_format = "gpu-judge runner v4 (solution.so, runtime calls exported for recording)";
/// Part of a solution's cache key only: its entries hold ptxas's resource lines and the tensor-core
/// answer since this format, so older entries (without them) are not reused.
constexpr const char* solution_entry_format = "solution.so + ptxas_info.txt + tensor_cores.txt + device/*.fatbin";
/// ptxas's -v lines of the solution's units, in its cache entry (kernel_resources.hpp reads them).
constexpr const char* ptxas_info_file = "ptxas_info.txt";
/// Whether the solution's machine code has tensor-core instructions, as found when it was built: "yes",
/// "no" or "unknown". Kept so that a cached build does not run cuobjdump (in the sandbox) again.
constexpr const char* tensor_cores_file = "tensor_cores.txt";
/// The folder of a solution's cache entry that holds its device code, one fatbin per unit, as nvcc's
/// device compilation wrote it (--keep): what the replaying runner loads, never the shared object's own
/// copy, which host code (inline assembly, .incbin) could have filled with anybody's machine code.
constexpr const char* device_code_folder = "device";

/// The fatbins of a cache entry, in name order.
std::vector<fs::path> device_code_files(const fs::path& entry) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(entry / device_code_folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".fatbin") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string tensor_cores_text(const std::optional<bool>& uses) { return uses ? (*uses ? "yes" : "no") : "unknown"; }

/// The answer kept in a cache entry: unknown when the file is missing or says anything else.
std::optional<bool> kept_tensor_cores(const fs::path& entry) {
  std::error_code unreadable;
  const auto text = read_file(entry / tensor_cores_file, unreadable);
  if (text && *text == "yes") return true;
  if (text && *text == "no") return false;
  return std::nullopt;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

/// "90", "sm_90", "9.0" and "90a" name an architecture; the result is the form nvcc's flags take ("90").
std::vector<std::string> parse_archs(const std::string& text) {
  std::vector<std::string> archs;
  std::string item;
  auto flush = [&] {
    std::string a;
    for (char c : item)
      if (c != '.' && c != ' ') a += c;
    for (const char* prefix : {"sm_", "compute_"})
      if (a.rfind(prefix, 0) == 0) a.erase(0, std::char_traits<char>::length(prefix));
    if (!a.empty() && std::find(archs.begin(), archs.end(), a) == archs.end()) archs.push_back(a);
    item.clear();
  };
  for (char c : text) {
    if (c == ',' || c == ';')
      flush();
    else
      item += c;
  }
  flush();
  return archs;
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

/// Flags of every nvcc call that produces device code.
std::vector<std::string> code_flags(const toolchain& tools) {
  std::vector<std::string> flags = {"-std=c++17", "-O3", "-lineinfo"};
  for (const std::string& a : tools.archs)
    flags.push_back("--generate-code=arch=compute_" + a + ",code=[compute_" + a + ",sm_" + a + "]");
  flags.insert(flags.end(), tools.extra_flags.begin(), tools.extra_flags.end());
  return flags;
}

/// The .cu files of a solution (solution_units()), and every file whose bytes make up the solution (a
/// folder's headers too).
struct solution_files {
  std::vector<fs::path> units;
  std::vector<fs::path> hashed;
};

solution_files find_solution_files(const fs::path& source) {
  std::error_code ec;
  if (!fs::exists(source, ec)) throw std::runtime_error("no such file: " + source.string());
  solution_files files;
  files.units = solution_units(source);
  if (files.units.empty()) throw std::runtime_error("no .cu file in " + source.string());
  if (!fs::is_directory(source)) {
    files.hashed = files.units;
    return files;
  }
  // Links to folders are not followed (solution_units() does not follow them either), and a broken link
  // or a link loop is no file of the solution: neither may abort the run.
  for (fs::recursive_directory_iterator it(source, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code not_a_file;
    if (it->is_regular_file(not_a_file)) files.hashed.push_back(it->path());
  }
  std::sort(files.hashed.begin(), files.hashed.end());
  return files;
}

/// A fresh folder next to where a cache entry will live (file_output.hpp); removed unless published.
class staging_dir {
public:
  explicit staging_dir(const fs::path& final_dir) : m_staged(final_dir) { fs::create_directories(path()); }
  const fs::path& path() const { return m_staged.path(); }
  /// Renames the folder to the final name in one step. If another judge published the same content
  /// first, its entry is kept and this one is dropped.
  void publish() {
    reclaim();
    m_staged.publish(on_existing::keep);
  }

private:
  /// A judge run as root compiles as the sandbox's unprivileged user, whose files these are: they become
  /// the judge's, and no one else's to write, before the entry is published, so that no later sandboxed
  /// child (the same user) could change a cached runner or solution. Links are changed, never followed.
  void reclaim() const {
    if (::getuid() != 0) return;
    std::error_code ec;
    auto own = [](const fs::path& path) {
      struct stat info {};
      if (::lstat(path.c_str(), &info) != 0) return;
      if (info.st_uid != 0 || info.st_gid != 0) (void)::lchown(path.c_str(), 0, 0);
      if (!S_ISLNK(info.st_mode) && (info.st_mode & (S_IWGRP | S_IWOTH)))
        (void)::chmod(path.c_str(), info.st_mode & ~(S_IWGRP | S_IWOTH) & 07777);
    };
    own(path());
    for (auto it = fs::recursive_directory_iterator(path(), ec), end = fs::recursive_directory_iterator();
         !ec && it != end; it.increment(ec))
      own(it->path());
  }

  staged_path m_staged;
};

bool stopped(const toolchain& tools) { return tools.stop && tools.stop->load(); }

struct step_result {
  bool ok = false;
  bool timed_out = false;
  std::string output; ///< stdout + stderr of the tool
};

step_result run_tool(const toolchain& tools, const std::string& program, std::vector<std::string> args,
                     const fs::path& work_dir, clock::time_point deadline) {
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
  auto left = std::max(clock::duration::zero(), deadline - clock::now());
  run_result run = run_to_completion(options, left);
  step_result step;
  step.timed_out = run.status.killed_by_judge;
  step.ok = run.status.exited && run.status.exit_code == 0;
  step.output = run.out.kept + run.err.kept;
  if (!step.ok && !step.timed_out && step.output.empty()) step.output = program + " " + describe(run.status);
  return step;
}

step_result run_nvcc(const toolchain& tools, std::vector<std::string> args, const fs::path& work_dir,
                     clock::time_point deadline) {
  return run_tool(tools, tools.nvcc.string(), std::move(args), work_dir, deadline);
}

/// The symbols `object` defines (nm from binutils, which nvcc's host toolchain brings along).
std::vector<defined_symbol> defined_symbols(const toolchain& tools, const fs::path& object, const fs::path& work_dir,
                                            clock::time_point deadline) {
  step_result nm = run_tool(tools, "nm", {"-P", "--defined-only", object.string()}, work_dir, deadline);
  if (!nm.ok) throw std::runtime_error("cannot list the symbols of " + object.filename().string() + ": " + nm.output);
  return parse_nm_output(nm.output);
}

/// Whether `solution` (a built solution.so) issues tensor-core instructions: cuobjdump, from nvcc's
/// toolkit (find_cuda_tool), disassembles its machine code, in a scratch folder of its own
/// (removed after) so that nothing it might write lands in the cache entry. nullopt when it cannot.
std::optional<bool> uses_tensor_cores(const toolchain& tools, const fs::path& solution, clock::time_point deadline) {
  const found_tool found = find_cuda_tool("cuobjdump", "", tools.nvcc);
  const std::string cuobjdump = found.executable.empty() ? std::string("cuobjdump") : found.executable.string();
  try {
    staging_dir scratch(solution.parent_path());
    step_result sass = run_tool(tools, cuobjdump, {"-sass", solution.string()}, scratch.path(), deadline);
    if (!sass.ok) return std::nullopt;
    if (!tensor_core_opcodes(sass.output).empty()) return true;
    // Output cut at the cap may have left the tensor-core code out: then it is not known.
    if (sass.output.size() >= compiler_output_cap) return std::nullopt;
    return false;
  } catch (const std::exception&) { // no scratch folder (a read-only cache), or the tool could not start
    return std::nullopt;
  }
}

/// Whether nvcc refused a unit because its own extern "C" solve() conflicts with the declaration the
/// judge included first (step 2 in solve_binding.hpp).
bool solve_conflicts(const std::string& output) {
  return output.find("solve") != std::string::npos &&
         (output.find("incompatible") != std::string::npos || output.find("conflicting") != std::string::npos ||
          output.find("has \"C\" linkage") != std::string::npos);
}

/// The runner executable of a problem: the harness, the call shim and the GPU reference, built once per
/// problem and toolchain. Every solution of the problem runs in it, loading its own solution.so.
struct shared_runner {
  bool ok = false;
  std::string message;
  std::string hash;
  fs::path executable;
};

shared_runner build_shared_runner(const problem_spec& spec, const toolchain& tools, clock::time_point deadline) {
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
    step_result step = run_nvcc(tools, args, staging.path(), deadline);
    if (!step.ok) {
      runner.message = "cannot compile " + unit.filename().string() + " of problem " + spec.name +
                       (step.timed_out ? " within the compile time limit" : ":\n" + step.output);
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
  step_result linked = run_nvcc(tools, link, staging.path(), deadline);
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

/// The solution's files, copied alone into a folder so that the compile sees only them: an
/// #include "../other.cu" finds nothing of the judge's.
struct solution_copy {
  std::vector<fs::path> units; ///< the copies of the units, in the order of solution_files::units
  std::string refused;         ///< why the solution cannot be copied ("" when it was)
};

/// Copies a single file by its name, a folder with its layout, into `dir`. Links inside a folder are
/// not followed (the copy runs outside the sandbox, and a link could name any file the judge can read):
/// linked headers are left out, and a linked unit is refused.
solution_copy copy_solution(const fs::path& source, const solution_files& files, const fs::path& dir) {
  solution_copy copy;
  fs::create_directories(dir);
  const bool folder = fs::is_directory(source);
  auto copy_of = [&](const fs::path& file) { return dir / (folder ? fs::relative(file, source) : file.filename()); };
  for (const fs::path& unit : files.units)
    if (folder && fs::is_symlink(unit)) {
      copy.refused = fs::relative(unit, source).string() + " is a symbolic link: submit the file itself";
      return copy;
    }
  for (const fs::path& file : files.hashed) {
    if (folder && fs::is_symlink(file)) continue;
    const fs::path target = copy_of(file);
    fs::create_directories(target.parent_path());
    fs::copy_file(file, target, fs::copy_options::overwrite_existing);
  }
  for (const fs::path& unit : files.units) copy.units.push_back(copy_of(unit));
  return copy;
}

/// Output of one binutils tool over `file`; throws when the tool fails (the judge's fault, not the
/// learner's).
std::string tool_output(const toolchain& tools, const std::string& program, std::vector<std::string> args,
                        const fs::path& file, const fs::path& work_dir, clock::time_point deadline) {
  args.push_back(file.string());
  step_result step = run_tool(tools, program, std::move(args), work_dir, deadline);
  if (!step.ok)
    throw std::runtime_error("cannot inspect " + file.filename().string() + " with " + program + ": " + step.output);
  return step.output;
}

/// What object_inspection finds in `object` (a shared object); empty when it may be loaded.
std::vector<std::string> inspect_object(const toolchain& tools, const fs::path& object, const fs::path& work_dir,
                                        clock::time_point deadline) {
  object_tool_output out;
  out.nm_undefined = tool_output(tools, "nm", {"-D", "--undefined-only"}, object, work_dir, deadline);
  out.readelf_dynamic = tool_output(tools, "readelf", {"-d", "-W"}, object, work_dir, deadline);
  out.readelf_segments = tool_output(tools, "readelf", {"-l", "-W"}, object, work_dir, deadline);
  // Read by the judge itself: a byte scan needs no tool, and no tool's listing can hide bytes from it.
  out.elf_bytes = read_file(object);
  return inspection_findings(out);
}

/// Whether the shared object `object` exports a function `solve`.
bool exports_solve(const toolchain& tools, const fs::path& object, const fs::path& work_dir,
                   clock::time_point deadline) {
  const std::string nm = tool_output(tools, "nm", {"-D", "-P", "--defined-only"}, object, work_dir, deadline);
  for (const defined_symbol& symbol : parse_nm_output(nm))
    if (symbol.name == "solve" && (symbol.type == 'T' || symbol.type == 'W')) return true;
  return false;
}

std::string display_limit(double seconds) {
  std::string text = std::to_string(seconds);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

} // namespace

void mark_cache_entry_used(const fs::path& entry) {
  std::error_code ignored;
  fs::last_write_time(entry, fs::file_time_type::clock::now(), ignored);
}

toolchain default_toolchain() {
  toolchain tools;
  tools.nvcc = env_or("JUDGE_NVCC", JUDGE_NVCC);
  tools.archs = parse_archs(env_or("JUDGE_ARCHS", JUDGE_DEFAULT_ARCHS));
  tools.harness_library = judge_layout().harness_library;
  tools.cache_dir = env_or("JUDGE_CACHE_DIR", judge_layout().runner_cache.string());
  tools.cupti_library = JUDGE_CUPTI_LIBRARY;
  tools.seccomp_library = judge_layout().seccomp_library;
  tools.cuda_library_dir = JUDGE_CUDA_LIBRARY_DIR;
  tools.hidden_paths = hidden_from_learner_code();
  tools.host_cxx = env_or("JUDGE_HOST_CXX", JUDGE_HOST_CXX);
  return tools;
}

std::string solve_declaration_header(const problem_spec& spec) {
  // Declared extern "C" before the learner's file: a definition written without extern "C" then gets
  // C linkage from this declaration, and one with other parameters is a compile error.
  return "// The declaration of solve() the problem expects (generated by the judge).\n"
         "#pragma once\n"
         "#include <cuda_runtime.h>\n" +
         spec.solve_declaration() + ";\n";
}

std::string solve_call_shim(const problem_spec& spec) {
  std::string types, args;
  int buffer = 0, size = 0, scalar = 0;
  for (const parameter& p : spec.signature) {
    if (!args.empty()) {
      types += ", ";
      args += ", ";
    }
    types += p.c_type;
    if (p.role == param_role::size)
      args += "sizes[" + std::to_string(size++) + "]";
    else if (p.role == param_role::scalar)
      args += "scalars[" + std::to_string(scalar++) + "]";
    else
      args += "static_cast<" + p.c_type + ">(buffers[" + std::to_string(buffer++) + "])";
  }
  return "// Unpacks the harness's generic call into " + spec.name +
         "'s solve(), found in the solution's shared object\n"
         "// (generated by the judge).\n"
         "#include <cuda_runtime.h>\n\n"
         "extern \"C\" {\n"
         "typedef void (*judge_solve_fn)(void); // as in harness/call/solve_abi.h\n"
         "void judge_call_solve(judge_solve_fn solve, void* const* buffers, const int* sizes, const float* scalars) {\n"
         "  (void)buffers;\n"
         "  (void)sizes;\n"
         "  (void)scalars;\n"
         "  using signature = void (*)(" +
         types +
         ");\n"
         "  reinterpret_cast<signature>(solve)(" +
         args + ");\n}\n}\n";
}

build_result build_runner(const problem_spec& spec, const fs::path& source, runner_kind kind, const toolchain& tools) {
  const auto start = clock::now();
  const auto deadline =
      start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(spec.limits.compile_seconds));
  build_result result;
  auto finish = [&](build_status status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    result.seconds = std::chrono::duration<double>(clock::now() - start).count();
    return result;
  };

  const solution_files files = find_solution_files(source);
  for (const fs::path& unit : files.units) {
    auto bytes = fs::file_size(unit);
    if (bytes > max_source_bytes)
      return finish(build_status::compile_error, unit.filename().string() + ": the source file is " +
                                                     std::to_string(bytes) + " bytes; the limit is 1 MiB");
  }
  if (!fs::is_regular_file(tools.harness_library))
    return finish(build_status::internal_error, "the harness library " + tools.harness_library.string() +
                                                    " is not built (build target judge_harness)");

  shared_runner runner;
  try {
    runner = build_shared_runner(spec, tools, deadline);
  } catch (const std::exception& e) {
    return finish(build_status::internal_error, e.what());
  }
  if (!runner.ok) return finish(build_status::internal_error, runner.message);
  result.runner = runner.executable;

  const std::string declaration = solve_declaration_header(spec);
  std::vector<std::string> link_libraries;
  if (kind == runner_kind::baseline) link_libraries = spec.baseline.libraries;
  content_hash hash;
  hash.add(cache_format).add(kind == runner_kind::baseline ? "baseline" : "solution");
  // A folder's layout matters (#include "kernels/tile.cuh"); a single file's name does not.
  for (const fs::path& file : files.hashed)
    hash.add(file == source ? "" : fs::relative(file, source).string()).add_file(file);
  hash.add(declaration).add(runner.hash);
  for (const auto& library : link_libraries) hash.add(library);
  if (kind == runner_kind::solution) hash.add(solution_entry_format);
  result.content_hash = hash.hex();

  const fs::path final_dir = tools.cache_dir / spec.name / result.content_hash;
  result.solution = final_dir / "solution.so";
  if (fs::exists(result.solution)) {
    mark_cache_entry_used(final_dir);
    result.cached = true;
    std::error_code unreadable; // an entry without the file (published by hand) just has no kernels
    if (kind == runner_kind::solution) {
      if (auto ptxas_info = read_file(final_dir / ptxas_info_file, unreadable))
        result.kernels = parse_ptxas_resources(*ptxas_info);
      result.uses_tensor_cores = kept_tensor_cores(final_dir);
      result.device_code = device_code_files(final_dir);
    }
    return finish(build_status::ok, "");
  }

  try {
    staging_dir staging(final_dir);
    const fs::path work = staging.path();
    // The learner's files, alone in src/: the compile sees them and the judge's generated headers only.
    const fs::path src = work / "src";
    const solution_copy copy = copy_solution(source, files, src);
    if (!copy.refused.empty()) return finish(build_status::compile_error, copy.refused);
    const std::vector<fs::path>& units = copy.units;
    // The only folder on the learner's include path: solve.h, the declaration also included first.
    const fs::path include_dir = work / "include";
    fs::create_directories(include_dir);
    const fs::path declaration_file = include_dir / "solve.h";
    write_text(declaration_file, declaration);
    const fs::path check_file = work / "solve_check.h";
    write_text(check_file, solve_check_header(spec));
    // NVTX_DISABLE: the toolkit's header libraries (CUB, Thrust) mark ranges with NVTX, whose first use
    // loads a profiling tool named by the environment (dlopen, dlsym, dlclose). Compiled out, the ranges
    // cost nothing and the solution imports no loader function, so loading stays refused to learner code.
    const std::vector<std::string> learner_flags = {std::string("-D") + judge_macro, "-DNVTX_DISABLE", "-I",
                                                    include_dir.string(), "-Xcompiler", "-fPIC"};
    // Messages name the learner's files as they know them, not by the judge's folders.
    auto clean = [&](std::string output) {
      output = replace_all(output, src.string() + "/", "");
      output = replace_all(output, work.string() + "/", "");
      output = replace_all(output, runner.executable.parent_path().string() + "/", "");
      return output;
    };
    auto failed = [&](const step_result& step) {
      if (stopped(tools)) return finish(build_status::internal_error, "stopped: the compile was interrupted");
      if (step.timed_out)
        return finish(build_status::compile_error, "compiling took longer than the limit of " +
                                                       display_limit(spec.limits.compile_seconds) +
                                                       " s (problem.yaml: limits.compile_seconds)");
      // ptxas's resource lines (-Xptxas -v) are figures for the report, not messages.
      return finish(build_status::compile_error, explain_compile_error(spec, clean(without_ptxas_info(step.output))));
    };

    auto compile = [&](const fs::path& unit, const std::vector<std::string>& extra, const std::string& object) {
      std::vector<std::string> args = code_flags(tools);
      args.insert(args.end(), learner_flags.begin(), learner_flags.end());
      args.insert(args.end(), extra.begin(), extra.end());
      args.insert(args.end(), {"-c", unit.string(), "-o", object});
      return run_nvcc(tools, args, work, deadline);
    };
    // A unit's device code as its device compilation produced it: nvcc --keep leaves the fatbin it
    // embeds in the object, made from the unit's device code alone.
    const fs::path device_dir = work / device_code_folder;
    // nvcc keeps its intermediate files in the compile's own working folder (the staging folder, which
    // the sandbox's user may write: a folder the judge made inside it would not be); named by its
    // relative path, because a path named on the command line is bound read-only in the sandbox.
    auto keep_flags = [&]() -> std::vector<std::string> {
      if (kind != runner_kind::solution) return {};
      return {"--keep", "--keep-dir", "."};
    };
    auto take_device_code = [&](const std::string& stem) {
      if (kind != runner_kind::solution) return;
      fs::create_directories(device_dir);
      for (const auto& entry : fs::directory_iterator(work))
        if (entry.is_regular_file() && entry.path().extension() == ".fatbin")
          fs::rename(entry.path(), device_dir / (stem + ".fatbin"));
    };
    std::vector<std::string> objects;
    // A learner's units only: ptxas says what each kernel uses (registers, shared memory, spills).
    const std::vector<std::string> resource_usage = {"-Xptxas", "-v"};
    std::string ptxas_info;
    for (const fs::path& unit : units) {
      // Units may sit in sub-folders (src/a.cu, kernels/a.cu): one object name each.
      std::string stem = fs::relative(unit, src).replace_extension().string();
      std::replace(stem.begin(), stem.end(), '/', '_');
      const std::string object = (work / (stem + ".o")).string();
      std::vector<std::string> extra = resource_usage;
      extra.insert(extra.end(), {"-include", declaration_file.string()});
      std::vector<std::string> kept = keep_flags();
      extra.insert(extra.end(), kept.begin(), kept.end());
      step_result step = compile(unit, extra, object);
      if (!step.ok && !step.timed_out && solve_conflicts(step.output)) {
        // Step 2 (solve_binding.hpp): the unit without the judge's declaration, then the check.
        const fs::path checked = work / ("judge_checked_" + stem + ".cu");
        write_text(checked, "#include \"" + unit.string() + "\"\n#include \"" + check_file.string() + "\"\n");
        std::vector<std::string> retry_flags = resource_usage;
        kept = keep_flags();
        retry_flags.insert(retry_flags.end(), kept.begin(), kept.end());
        step_result retried = compile(checked, retry_flags, object);
        if (retried.ok) step = retried;
      }
      if (!step.ok) return failed(step);
      take_device_code(stem);
      if (kind == runner_kind::solution) ptxas_info += ptxas_info_only(step.output);
      objects.push_back(object);
    }

    // A main() has no place in a solution the judge calls: refused by the symbol tables rather than the
    // source, so that a main() in a namespace, a class or a comment does not count, and by unit, so that
    // the message names the file and line.
    for (std::size_t i = 0; i < objects.size(); ++i) {
      for (const defined_symbol& symbol : defined_symbols(tools, objects[i], work, deadline)) {
        if (symbol.name != "main" || symbol.type != 'T') continue;
        const int line = main_definition_line(read_file(units[i]));
        return finish(build_status::compile_error,
                      units[i].filename().string() + " defines main()" +
                          (line > 0 ? " (line " + std::to_string(line) + ")" : "") +
                          "; the judge calls solve() itself: remove main() or guard it with #ifndef " + judge_macro +
                          " ... #endif");
      }
    }

    // The learner's shared object: their units only, the CUDA runtime shared with the runner, and
    // every symbol resolved now (--no-undefined), so that a missing function is a link error here and
    // not a failed dlopen later.
    const fs::path solution = work / "solution.so";
    auto link = [&](const std::vector<std::string>& learner_objects) {
      std::vector<std::string> args = code_flags(tools);
      args.insert(args.end(), learner_objects.begin(), learner_objects.end());
      args.insert(args.end(), {"-shared", "-cudart", "shared", "-Xlinker", "--no-undefined"});
      if (!link_libraries.empty()) {
        args.push_back("-L" + tools.cuda_library_dir.string());
        for (const auto& library : link_libraries) args.push_back("-l" + library);
        args.insert(args.end(), {"-Xlinker", "-rpath," + tools.cuda_library_dir.string()});
      }
      args.insert(args.end(), {"-o", solution.string()});
      return run_nvcc(tools, args, work, deadline);
    };
    step_result linked = link(objects);
    if (!linked.ok) return failed(linked);
    if (!exports_solve(tools, solution, work, deadline)) {
      // Step 3 (solve_binding.hpp): a C++ solve() with other pointer constness gets an adapter.
      std::vector<std::string> found;
      for (const std::string& object : objects)
        for (const defined_symbol& symbol : defined_symbols(tools, object, work, deadline)) {
          const std::string declaration = symbol.type == 'T' ? demangled_solve(symbol.name) : "";
          if (!declaration.empty()) found.push_back(declaration);
        }
      bool adapted = false;
      if (found.size() == 1) {
        const fs::path adapter = work / "judge_solve_adapter.cpp";
        write_text(adapter, solve_adapter_source(spec, found.front()));
        const std::string adapter_object = (work / "judge_solve_adapter.o").string();
        if (compile(adapter, {}, adapter_object).ok) {
          std::vector<std::string> with_adapter = objects;
          with_adapter.push_back(adapter_object);
          // Linked afresh: the sandboxed linker sees an existing file it is given as read-only.
          fs::remove(solution);
          linked = link(with_adapter);
          if (!linked.ok) return failed(linked);
          adapted = exports_solve(tools, solution, work, deadline);
        }
      }
      // The words the linker used when the runner was linked with the solution, so that the message
      // (explain_compile_error) is the same.
      if (!adapted) return failed(step_result{false, false, "undefined reference to `solve'"});
    }

    // The judge's own baseline (cuBLAS) is trusted; a learner's object is inspected before any runner
    // loads it.
    if (kind == runner_kind::solution) {
      const std::vector<std::string> findings = inspect_object(tools, solution, work, deadline);
      if (!findings.empty()) {
        std::string message;
        for (const std::string& finding : findings)
          message += (message.empty() ? "" : "\n") + ("the solution " + finding);
        return finish(build_status::compile_error, message);
      }
    }

    // The cache entry holds solution.so and, for a solution, ptxas's resource lines and whether its code
    // uses the tensor cores (found before the entry is published, so that every entry has the answer).
    const fs::path ptxas_info_path = work / ptxas_info_file;
    const fs::path tensor_cores_path = work / tensor_cores_file;
    if (kind == runner_kind::solution) {
      write_text(ptxas_info_path, ptxas_info);
      result.uses_tensor_cores = uses_tensor_cores(tools, solution, deadline);
      write_text(tensor_cores_path, tensor_cores_text(result.uses_tensor_cores));
    }
    for (const auto& entry : fs::directory_iterator(work))
      if (entry.path() != solution && entry.path() != ptxas_info_path && entry.path() != tensor_cores_path &&
          entry.path() != device_dir)
        fs::remove_all(entry.path());
    staging.publish();
    result.kernels = parse_ptxas_resources(ptxas_info);
    if (kind == runner_kind::solution) result.device_code = device_code_files(final_dir);
  } catch (const std::exception& e) {
    return finish(build_status::internal_error, std::string("cannot build the solution: ") + e.what());
  }
  return finish(build_status::ok, "");
}

} // namespace judge
