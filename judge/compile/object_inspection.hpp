// What a learner's solution.so may contain, checked before any runner loads it: which library functions
// it calls (an allowlist), no main(), only the expected libraries, no executable stack and no text
// relocations. Pure functions over the output of binutils (nm, readelf), so every rule is unit-tested
// without a compiler; compile.cpp runs the tools.
//
// Why: the rules name, in a learner's words and before anything runs, what a kernel author does not
// need. They are not the boundary: learner code in the runner can reach a function it does not import
// by searching memory, and make any system call with an instruction of its own or libc's. The boundary
// is the runner's system-call filter (harness/runner/syscall_filter.cpp), which judges every call
// whatever instruction makes it, and the process sandbox (judge/sandbox/). So nothing here looks at the
// object's code bytes: the bytes of a system-call instruction inside an honest constant or jump are no
// reason to refuse a solution (docs/security.md, layer 3).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace judge {

/// One undefined dynamic symbol: its name without the version (`printf@GLIBC_2.2.5` -> `printf`).
struct imported_symbol {
  std::string name;
  bool weak = false; ///< nm's `w`/`v`: resolved if present; refused like a strong one all the same
};

/// `nm -D --undefined-only FILE` -> the symbols the object imports.
std::vector<imported_symbol> parse_undefined_symbols(const std::string& nm_output);

/// `readelf -d -W FILE` -> the DT_NEEDED names ("libcudart.so.13").
std::vector<std::string> parse_needed_libraries(const std::string& readelf_dynamic);
/// `readelf -d -W FILE` -> whether the object has text relocations (TEXTREL, or FLAGS naming it).
bool has_text_relocations(const std::string& readelf_dynamic);
/// `readelf -l -W FILE` -> whether the GNU_STACK segment asks for an executable stack.
bool has_executable_stack(const std::string& readelf_segments);

/// Why a solution may not import `symbol` (its mangled name, no version), in words a learner
/// understands ("solutions may not start threads or processes"), or nullopt when it is allowed.
std::optional<std::string> refusal_for_symbol(const std::string& symbol);

/// Why a solution may not depend on the library `needed` (a DT_NEEDED name), or nullopt.
std::optional<std::string> refusal_for_library(const std::string& needed);

/// Everything the tools said about one solution.so.
struct object_tool_output {
  std::string nm_undefined;     ///< nm -D --undefined-only
  std::string readelf_dynamic;  ///< readelf -d -W
  std::string readelf_segments; ///< readelf -l -W
};

/// Every rule the object breaks, one learner-facing line each ("uses pthread_create: solutions may
/// not start threads or processes"); empty when the object may be loaded. main() is checked by the
/// caller, which knows the source lines (compile.cpp).
std::vector<std::string> inspection_findings(const object_tool_output& tools);

} // namespace judge
