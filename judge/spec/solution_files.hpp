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
  std::filesystem::path source;  ///< a .cu file, or a folder of .cu files
  std::string display;           ///< how reports name it
  std::string name;              ///< unique within the run (file stem or folder name)
};

/// Expands `paths`: a .cu file is one solution; a folder holding .cu files directly (and no
/// sub-folders with .cu files) is... see the rule in the .cpp. Throws usage_error naming the path for a
/// path that does not exist, a folder without any .cu file, a file that is not .cu, a name that is not
/// valid UTF-8, or two solutions with the same name.
std::vector<solution_entry> collect_solutions(const std::vector<std::filesystem::path>& paths);

/// Whether `text` is valid UTF-8.
bool valid_utf8(const std::string& text);

} // namespace judge
