// The files and folders a command line names, so that a sandboxed tool (nvcc, nm) sees them in its
// private root and nothing else of the judge's tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace judge {

/// Every existing absolute path in `args`, whole ("/a/b.o") or after an option's letters ("-I/a",
/// "-L/a", "-include" is followed by its own argument). For a source file (.cu, .cpp, .c) its folder
/// too, because its quoted includes are found there. `args` excludes the program itself.
std::vector<std::filesystem::path> paths_named_by(const std::vector<std::string>& args);

} // namespace judge
