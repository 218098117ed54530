#include "judge/compile/object_inspection.hpp"

#include "common/demangle.hpp"

#include <sstream>

namespace judge {
namespace {

// ---------------------------------------------------------------------------------------------------
// The rules, in one place. A solution's object may import a symbol only when the first rule that
// matches its name allows it; a symbol no rule matches is refused. Names are matched after demangling,
// on the qualified name without return type or parameters ("std::thread::_M_start_thread",
// "std::operator<< <std::char_traits<char> >"), C names as they are.
//
// What is allowed, and why it is harmless inside the runner:
//  - the CUDA runtime (cuda*) a kernel author needs, and the __cuda* registration and launch helpers
//    nvcc emits; not what shares memory with other processes (IPC, exported pools, external memory),
//    runs host code from the GPU's queue (host functions, callbacks, user objects), resets or
//    reconfigures the device, drives the profiler, or looks up driver functions by name;
//  - printf-like output to stdout/stderr (C stdio and iostream's cout/cerr): the judge captures it;
//  - memory (malloc family, operator new/delete), mem*/str* basics, number parsing, C99 math;
//  - the C++ runtime: exceptions, unwinding, guards, strings, string streams, containers' helpers,
//    chrono clocks, std::random_device, and the toolchain's own weak references;
//  - exit, abort, atexit, rand/srand, getenv, clock_gettime.
// Everything else is refused: processes and threads, signals, sessions, file descriptors and files,
// the environment, dynamic loading, raw system calls, the network, other processes' memory, the
// security settings, the CUDA driver API and any library the problem bans. Denials come first so that
// their message, not the generic one, names the reason.
// ---------------------------------------------------------------------------------------------------

enum class match { name, prefix };

struct symbol_rule {
  const char* pattern;
  match how;
  const char* refusal; ///< nullptr: allowed
};

constexpr const char* no_processes = "solutions may not start threads or processes";
constexpr const char* no_programs = "solutions may not run other programs";
constexpr const char* no_signals = "solutions may not send or handle signals";
constexpr const char* no_sessions = "solutions may not leave the judge's process group or session";
constexpr const char* no_descriptors = "solutions may not use or change file descriptors (print with printf or "
                                       "std::cout)";
constexpr const char* no_files = "solutions may not open, list or change files (print with printf or std::cout)";
constexpr const char* no_environment = "solutions may not change the environment";
constexpr const char* no_loading = "solutions may not load libraries or look up functions by name";
constexpr const char* no_syscalls = "solutions may not make raw system calls";
constexpr const char* no_network = "solutions may not use the network";
constexpr const char* no_other_processes = "solutions may not inspect or change other processes";
constexpr const char* no_security = "solutions may not change the process's security settings";
constexpr const char* no_memory_mapping = "solutions may not map or protect memory themselves (use malloc, new or "
                                          "cudaMalloc)";
constexpr const char* no_sharing = "solutions may not share GPU memory with other processes";
constexpr const char* no_host_callbacks = "solutions may not run host code from the GPU's queue";
constexpr const char* no_device_setup = "solutions may not reset or reconfigure the device the judge set up";
constexpr const char* no_profiler = "the profiler belongs to the judge's timing";
constexpr const char* no_cuda_libraries = "solutions may use the CUDA runtime, not CUDA's libraries (cuBLAS, cuFFT, "
                                          "...): write the kernel yourself";
constexpr const char* no_driver_api = "solutions may call the CUDA runtime (cuda*), not the CUDA driver API (cu*)";

const symbol_rule rules[] = {
    // Processes, threads, programs.
    {"fork", match::name, no_processes},
    {"vfork", match::name, no_processes},
    {"clone", match::name, no_processes},
    {"clone3", match::name, no_processes},
    {"pthread_mutex_lock", match::name, nullptr}, // std::mutex: harmless without a second thread
    {"pthread_mutex_unlock", match::name, nullptr},
    {"pthread_once", match::name, nullptr}, // std::call_once
    {"pthread_kill", match::name, no_signals},
    {"pthread_", match::prefix, no_processes},
    {"std::thread", match::name, no_processes},
    {"std::jthread", match::name, no_processes},
    {"thrd_", match::prefix, no_processes},
    {"posix_spawn", match::prefix, no_programs},
    {"exec", match::prefix, no_programs},
    {"fexecve", match::name, no_programs},
    {"system", match::name, no_programs},
    {"popen", match::name, no_programs},
    // Signals and sessions.
    {"kill", match::name, no_signals},
    {"killpg", match::name, no_signals},
    {"tgkill", match::name, no_signals},
    {"raise", match::name, no_signals},
    {"signal", match::name, no_signals},
    {"sigaction", match::name, no_signals},
    {"sigqueue", match::name, no_signals},
    {"setsid", match::name, no_sessions},
    {"setpgid", match::name, no_sessions},
    {"setpgrp", match::name, no_sessions},
    {"daemon", match::name, no_sessions},
    // File descriptors and files.
    {"dup", match::name, no_descriptors},
    {"dup2", match::name, no_descriptors},
    {"dup3", match::name, no_descriptors},
    {"close", match::name, no_descriptors},
    {"close_range", match::name, no_descriptors},
    {"fcntl", match::name, no_descriptors},
    {"fcntl64", match::name, no_descriptors},
    {"ioctl", match::name, no_descriptors},
    {"pipe", match::name, no_descriptors},
    {"pipe2", match::name, no_descriptors},
    {"read", match::name, no_descriptors},
    {"write", match::name, no_descriptors},
    {"fdopen", match::name, no_descriptors},
    {"std::basic_ifstream", match::name, no_files},
    {"std::basic_ofstream", match::name, no_files},
    {"std::basic_fstream", match::name, no_files},
    {"std::basic_filebuf", match::name, no_files},
    {"std::filesystem", match::name, no_files},
    {"std::__basic_file", match::name, no_files},
    {"fopen", match::prefix, no_files},
    {"freopen", match::prefix, no_files},
    {"open", match::prefix, no_files}, // open, open64, openat, opendir
    {"creat", match::prefix, no_files},
    {"fdopendir", match::name, no_files},
    {"readdir", match::prefix, no_files},
    {"scandir", match::prefix, no_files},
    {"unlink", match::prefix, no_files},
    {"remove", match::name, no_files},
    {"rename", match::prefix, no_files},
    {"mkdir", match::prefix, no_files},
    {"rmdir", match::name, no_files},
    // The environment, loading, raw system calls.
    {"setenv", match::name, no_environment},
    {"putenv", match::name, no_environment},
    {"unsetenv", match::name, no_environment},
    {"clearenv", match::name, no_environment},
    {"dl", match::prefix, no_loading}, // dlopen, dlsym, dlmopen, dladdr, dl_iterate_phdr
    {"cudaGetDriverEntryPoint", match::prefix, no_loading},
    {"cudaGetExportTable", match::name, no_loading},
    {"syscall", match::name, no_syscalls},
    // Network, other processes, security settings, memory mapping.
    {"socket", match::name, no_network},
    {"socketpair", match::name, no_network},
    {"connect", match::name, no_network},
    {"bind", match::name, no_network},
    {"listen", match::name, no_network},
    {"accept", match::prefix, no_network},
    {"getaddrinfo", match::name, no_network},
    {"ptrace", match::name, no_other_processes},
    {"process_vm_", match::prefix, no_other_processes},
    {"prctl", match::name, no_security},
    {"seccomp", match::name, no_security},
    {"unshare", match::name, no_security},
    {"setns", match::name, no_security},
    {"mount", match::name, no_security},
    {"chroot", match::name, no_security},
    {"personality", match::name, no_security},
    {"setrlimit", match::name, no_security},
    {"mmap", match::prefix, no_memory_mapping},
    {"mprotect", match::name, no_memory_mapping},
    {"memfd_create", match::name, no_memory_mapping},
    // The CUDA runtime: the denied parts first, then the rest.
    {"cudaIpc", match::prefix, no_sharing},
    {"cudaMemPoolExport", match::prefix, no_sharing},
    {"cudaMemPoolImport", match::prefix, no_sharing},
    {"cudaImportExternal", match::prefix, no_sharing},
    {"cudaLaunchHostFunc", match::name, no_host_callbacks},
    {"cudaStreamAddCallback", match::name, no_host_callbacks},
    {"cudaGraphAddHostNode", match::name, no_host_callbacks},
    {"cudaGraphHostNode", match::prefix, no_host_callbacks},
    {"cudaGraphExecHostNode", match::prefix, no_host_callbacks},
    {"cudaUserObject", match::prefix, no_host_callbacks},
    {"cudaGraphRetainUserObject", match::name, no_host_callbacks},
    {"cudaDeviceReset", match::name, no_device_setup},
    {"cudaThreadExit", match::name, no_device_setup},
    {"cudaSetDeviceFlags", match::name, no_device_setup},
    {"cudaSetValidDevices", match::name, no_device_setup},
    {"cudaInitDevice", match::name, no_device_setup},
    {"cudaProfiler", match::prefix, no_profiler},
    {"cuda", match::prefix, nullptr},
    {"cublas", match::prefix, no_cuda_libraries},
    {"cufft", match::prefix, no_cuda_libraries},
    {"curand", match::prefix, no_cuda_libraries},
    {"cusparse", match::prefix, no_cuda_libraries},
    {"cusolver", match::prefix, no_cuda_libraries},
    {"cutensor", match::prefix, no_cuda_libraries},
    {"cudnn", match::prefix, no_cuda_libraries},
    {"__cuda", match::prefix, nullptr},
    {"cu", match::prefix, no_driver_api},
    // Output.
    {"printf", match::name, nullptr},
    {"fprintf", match::name, nullptr},
    {"puts", match::name, nullptr},
    {"fputs", match::name, nullptr},
    {"putchar", match::name, nullptr},
    {"fputc", match::name, nullptr},
    {"putc", match::name, nullptr},
    {"fwrite", match::name, nullptr},
    {"fflush", match::name, nullptr},
    {"perror", match::name, nullptr},
    {"snprintf", match::name, nullptr},
    {"sprintf", match::name, nullptr},
    {"vprintf", match::name, nullptr},
    {"vfprintf", match::name, nullptr},
    {"vsnprintf", match::name, nullptr},
    {"vsprintf", match::name, nullptr},
    {"__printf_chk", match::name, nullptr},
    {"__fprintf_chk", match::name, nullptr},
    {"__sprintf_chk", match::name, nullptr},
    {"__snprintf_chk", match::name, nullptr},
    {"__vprintf_chk", match::name, nullptr},
    {"__vfprintf_chk", match::name, nullptr},
    {"__vsprintf_chk", match::name, nullptr},
    {"__vsnprintf_chk", match::name, nullptr},
    {"stdout", match::name, nullptr},
    {"stderr", match::name, nullptr},
    {"strerror", match::name, nullptr},
    // Memory, strings, numbers.
    {"malloc", match::name, nullptr},
    {"calloc", match::name, nullptr},
    {"realloc", match::name, nullptr},
    {"free", match::name, nullptr},
    {"aligned_alloc", match::name, nullptr},
    {"posix_memalign", match::name, nullptr},
    {"memalign", match::name, nullptr},
    {"operator new", match::prefix, nullptr},
    {"operator delete", match::prefix, nullptr},
    {"mem", match::prefix, nullptr}, // memcpy, memmove, memset, memcmp, memchr
    {"__mem", match::prefix, nullptr},
    {"str", match::prefix, nullptr}, // strlen, strcmp, strcpy, strtol, strtod ...
    {"__str", match::prefix, nullptr},
    {"__isoc23_strto", match::prefix, nullptr}, // glibc 2.38+'s strtol family under C23 rules
    {"ato", match::prefix, nullptr},            // atoi, atol, atof
    {"qsort", match::name, nullptr},
    {"bsearch", match::name, nullptr},
    {"abs", match::name, nullptr},
    {"labs", match::name, nullptr},
    {"llabs", match::name, nullptr},
    {"div", match::name, nullptr},
    {"__errno_location", match::name, nullptr}, // std::stoi reads errno
    // The C++ runtime and library basics.
    {"__cxa_", match::prefix, nullptr},
    {"__cxxabiv1::", match::prefix, nullptr},
    {"_Unwind_Resume", match::name, nullptr},
    {"__gxx_personality_v0", match::name, nullptr},
    {"__stack_chk_fail", match::name, nullptr},
    {"__assert_fail", match::name, nullptr},
    {"std::__throw_", match::prefix, nullptr},
    {"std::exception", match::name, nullptr},
    {"std::bad_", match::prefix, nullptr},
    {"std::runtime_error", match::name, nullptr},
    {"std::logic_error", match::name, nullptr},
    {"std::out_of_range", match::name, nullptr},
    {"std::invalid_argument", match::name, nullptr},
    {"std::length_error", match::name, nullptr},
    {"std::range_error", match::name, nullptr},
    {"std::overflow_error", match::name, nullptr},
    {"std::underflow_error", match::name, nullptr},
    {"std::domain_error", match::name, nullptr},
    {"std::terminate", match::name, nullptr},
    {"std::__exception_ptr", match::name, nullptr},
    {"std::rethrow_exception", match::name, nullptr},
    {"std::uncaught_exception", match::prefix, nullptr},
    {"std::allocator", match::name, nullptr}, // std::string's allocator, out of line in Thrust's code
    {"std::__cxx11::basic_string", match::name, nullptr},
    {"std::basic_string", match::name, nullptr},
    {"std::__cxx11::basic_ostringstream", match::name, nullptr},
    {"std::__cxx11::basic_istringstream", match::name, nullptr},
    {"std::__cxx11::basic_stringstream", match::name, nullptr},
    {"std::__cxx11::basic_stringbuf", match::name, nullptr},
    {"std::basic_streambuf", match::name, nullptr},
    {"std::basic_ostream", match::name, nullptr},
    {"std::ostream", match::name, nullptr},
    {"std::basic_ios", match::name, nullptr},
    {"std::ios_base", match::name, nullptr},
    // GCC 13's libstdc++ (Ubuntu 24.04) initialises the standard streams through this call.
    {"std::ios_base_library_init", match::name, nullptr},
    {"std::cout", match::name, nullptr},
    {"std::cerr", match::name, nullptr},
    {"std::clog", match::name, nullptr},
    {"std::endl", match::name, nullptr},
    {"std::flush", match::name, nullptr},
    {"std::__ostream_insert", match::name, nullptr},
    {"std::operator<<", match::name, nullptr},
    {"std::ctype", match::name, nullptr},
    {"std::locale", match::name, nullptr},
    {"std::num_put", match::name, nullptr},
    {"std::_Rb_tree", match::prefix, nullptr},                     // std::map, std::set
    {"std::__detail::_List_node_base", match::name, nullptr},      // std::list
    {"std::__detail::_Prime_rehash_policy", match::name, nullptr}, // std::unordered_map
    {"std::_Hash_bytes", match::name, nullptr},
    {"std::chrono::_V2::steady_clock", match::name, nullptr},
    {"std::chrono::_V2::system_clock", match::name, nullptr},
    {"std::random_device", match::name, nullptr},
    {"exit", match::name, nullptr},
    {"abort", match::name, nullptr},
    {"atexit", match::name, nullptr},
    {"rand", match::name, nullptr},
    {"srand", match::name, nullptr},
    {"getenv", match::name, nullptr},
    {"clock_gettime", match::name, nullptr},
    {"clock", match::name, nullptr},
    {"time", match::name, nullptr},
    {"nanosleep", match::name, nullptr}, // std::this_thread::sleep_for: waiting harms no one
    {"clock_nanosleep", match::name, nullptr},
    {"usleep", match::name, nullptr},
    {"sleep", match::name, nullptr},
    {"sched_yield", match::name, nullptr},
    {"std::this_thread::__sleep_for", match::name, nullptr},
    // The toolchain's weak references (profiling, transactional memory, shared-object teardown).
    {"__gmon_start__", match::name, nullptr},
    {"_ITM_", match::prefix, nullptr},
};

/// C99 math.h, each also with its float (f) and long double (l) variant.
const char* const math_functions[] = {
    "sin",   "cos",    "tan",    "asin",      "acos",  "atan",      "atan2",      "sinh",   "cosh",      "tanh",
    "asinh", "acosh",  "atanh",  "exp",       "exp2",  "expm1",     "log",        "log2",   "log10",     "log1p",
    "logb",  "ilogb",  "pow",    "sqrt",      "cbrt",  "hypot",     "fabs",       "fmod",   "remainder", "remquo",
    "fma",   "fmax",   "fmin",   "fdim",      "ceil",  "floor",     "trunc",      "round",  "lround",    "llround",
    "rint",  "lrint",  "llrint", "nearbyint", "frexp", "ldexp",     "modf",       "scalbn", "scalbln",   "erf",
    "erfc",  "tgamma", "lgamma", "copysign",  "nan",   "nextafter", "nexttoward", "sincos"};

constexpr const char* not_allowed = "solutions may use only the CUDA runtime, printf-like output, memory "
                                    "allocation, math and the C++ standard library's basics";

/// The libraries a solution may depend on, by the start of their file name.
const char* const allowed_libraries[] = {"libcudart.so", "libstdc++.so", "libm.so",
                                         "libgcc_s.so",  "libc.so",      "ld-linux"};

bool is_math_function(const std::string& name) {
  for (const char* base : math_functions) {
    const std::string b = base;
    if (name == b || name == b + "f" || name == b + "l") return true;
  }
  return false;
}

/// Whether `name` is `pattern` or a member, template or overload of it (the next character ends the name).
bool names(const std::string& name, const std::string& pattern) {
  if (name.compare(0, pattern.size(), pattern) != 0) return false;
  if (name.size() == pattern.size()) return true;
  const char next = name[pattern.size()];
  return next == ':' || next == '<' || next == '(' || next == ' ' || next == '[';
}

bool matches(const std::string& name, const symbol_rule& rule) {
  return rule.how == match::prefix ? name.rfind(rule.pattern, 0) == 0 : names(name, rule.pattern);
}

/// The qualified name of a demangled symbol: without "typeinfo for " and the like, without the return
/// type and without the parameter list.
std::string qualified_name(std::string text) {
  for (const char* prefix : {"typeinfo for ", "typeinfo name for ", "vtable for ", "VTT for ",
                             "construction vtable for ", "guard variable for "})
    if (text.rfind(prefix, 0) == 0) text.erase(0, std::char_traits<char>::length(prefix));
  // Strip trailing qualifiers, then the parameter list: the parenthesised group that ends the text.
  for (const char* suffix : {" const", " volatile", " &&", " &"})
    while (text.size() > std::char_traits<char>::length(suffix) &&
           text.compare(text.size() - std::char_traits<char>::length(suffix), std::string::npos, suffix) == 0)
      text.erase(text.size() - std::char_traits<char>::length(suffix));
  if (!text.empty() && text.back() == ')') {
    int depth = 0;
    for (std::size_t i = text.size(); i-- > 0;) {
      if (text[i] == ')') ++depth;
      if (text[i] == '(' && --depth == 0) {
        text.erase(i);
        break;
      }
    }
  }
  // The return type ends at the last space outside template arguments (a space followed by '<' is
  // an operator's template arguments: "std::operator<< <std::char_traits<char> >").
  int depth = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == '>') ++depth;
    if (text[i] == '<' && depth > 0) --depth;
    if (text[i] == ' ' && depth == 0 && i + 1 < text.size() && text[i + 1] != '<' &&
        text.compare(0, i, "operator") != 0 && text.compare(i >= 8 ? i - 8 : 0, 8, "operator") != 0)
      return text.substr(i + 1);
  }
  return text;
}

} // namespace

std::vector<imported_symbol> parse_undefined_symbols(const std::string& nm_output) {
  std::vector<imported_symbol> symbols;
  std::istringstream in(nm_output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string type, name;
    if (!(fields >> type >> name) || type.size() != 1) continue;
    if (type != "U" && type != "w" && type != "v") continue;
    // printf@GLIBC_2.2.5, or printf@@GLIBC_2.2.5 for a default version.
    name = name.substr(0, name.find('@'));
    symbols.push_back({name, type != "U"});
  }
  return symbols;
}

std::vector<std::string> parse_needed_libraries(const std::string& readelf_dynamic) {
  std::vector<std::string> needed;
  std::istringstream in(readelf_dynamic);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("(NEEDED)") == std::string::npos) continue;
    const auto open = line.find('['), close = line.rfind(']');
    if (open != std::string::npos && close != std::string::npos && close > open)
      needed.push_back(line.substr(open + 1, close - open - 1));
  }
  return needed;
}

bool has_text_relocations(const std::string& readelf_dynamic) {
  return readelf_dynamic.find("TEXTREL") != std::string::npos;
}

bool has_executable_stack(const std::string& readelf_segments) {
  std::istringstream in(readelf_segments);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> tokens;
    for (std::string t; fields >> t;) tokens.push_back(t);
    if (tokens.empty() || tokens[0] != "GNU_STACK") continue;
    // GNU_STACK offset vaddr paddr filesz memsz FLAGS... align; the flags may be split ("R", "W", "E").
    for (std::size_t i = 6; i + 1 < tokens.size(); ++i)
      if (tokens[i].find('E') != std::string::npos) return true;
    return false;
  }
  // Without a GNU_STACK segment the loader gives the process an executable stack.
  return true;
}

std::optional<std::string> refusal_for_symbol(const std::string& symbol) {
  const std::string name = symbol.rfind("_Z", 0) == 0 ? qualified_name(judge_symbols::demangled(symbol)) : symbol;
  for (const symbol_rule& rule : rules)
    if (matches(name, rule)) return rule.refusal ? std::optional<std::string>(rule.refusal) : std::nullopt;
  if (is_math_function(name)) return std::nullopt;
  return std::string(not_allowed);
}

std::optional<std::string> refusal_for_library(const std::string& needed) {
  for (const char* allowed : allowed_libraries)
    if (needed.rfind(allowed, 0) == 0) return std::nullopt;
  return std::string("solutions may link only the CUDA runtime and the C and C++ standard libraries");
}

std::vector<std::string> inspection_findings(const object_tool_output& tools) {
  std::vector<std::string> findings;
  for (const imported_symbol& symbol : parse_undefined_symbols(tools.nm_undefined))
    if (const auto refusal = refusal_for_symbol(symbol.name))
      findings.push_back("uses " + qualified_name(judge_symbols::demangled(symbol.name)) + ": " + *refusal);
  for (const std::string& library : parse_needed_libraries(tools.readelf_dynamic))
    if (const auto refusal = refusal_for_library(library)) findings.push_back("links " + library + ": " + *refusal);
  if (has_executable_stack(tools.readelf_segments))
    findings.push_back("asks for an executable stack: solutions may not run code from the stack");
  if (has_text_relocations(tools.readelf_dynamic))
    findings.push_back("has text relocations (code not compiled as position-independent): solutions may not "
                       "patch their own code");
  return findings;
}

} // namespace judge
