// Which solutions a grading run covers: files and folders named on the command line, or every entry of
// solutions/<problem>/. One file per solution, or one folder per solution (the folder is the author).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge {

class usage_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct solution_entry {
  std::filesystem::path source; ///< a .cu file, or a folder of .cu files
  std::string display;          ///< how reports name it
  std::string name;             ///< unique within the run (file stem or folder name)
};

/// Expands `paths`: a .cu file is one solution, and a folder holds the solutions that solutions_in()
/// finds. Throws usage_error naming the path for a path that does not exist, a folder without any
/// solution, a file that is not .cu, a name that is not valid UTF-8, or two solutions with the same name.
std::vector<solution_entry> collect_solutions(const std::vector<std::filesystem::path>& paths);

/// The solutions in `folder`, in name order: each .cu file directly inside it, and each sub-folder that
/// holds .cu files (one folder per student, its files compiled together). Empty when there are none.
/// Throws usage_error for a name that is not valid UTF-8.
std::vector<solution_entry> solutions_in(const std::filesystem::path& folder);

/// The .cu files that make up the solution at `source`: the file itself, or the .cu files directly
/// inside the folder, in name order (empty when it has none). Headers and sub-folders are not units.
std::vector<std::filesystem::path> solution_units(const std::filesystem::path& source);

} // namespace judge
