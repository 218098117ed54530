// Running the real `judge` executable from a test, and a scratch copy of the shipped problems for it.
#pragma once

#include "temp_folder.hpp"

#include <filesystem>
#include <string>

namespace judge_test {

struct command_result {
  int status = -1;    ///< exit status; -1 when it did not exit normally
  std::string output; ///< stdout and stderr together
};

/// Runs `judge ARGS` through the shell with `environment` (e.g. "JUDGE_ROOT=/x ") put before it.
command_result run_judge(const std::string& args, const std::string& environment = "");

/// A private copy of problems/ and testcases/ (and an empty solutions/) to break or extend freely;
/// removed when the test ends.
struct scratch_root {
private:
  temp_folder m_folder{"root"}; // first: `dir` is made from it

public:
  std::filesystem::path dir;
  scratch_root();
  scratch_root(const scratch_root&) = delete;
  scratch_root& operator=(const scratch_root&) = delete;

  /// The environment that points the judge at this root, with a runner cache of its own.
  std::string environment() const;
  /// The same root as a command-line option.
  std::string root_arg() const { return "--root " + dir.string(); }
  /// Writes `text` to `relative` inside the root, creating its folders.
  void write(const std::filesystem::path& relative, const std::string& text) const;
};

} // namespace judge_test
