#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/sandbox/command_paths.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
using judge::paths_named_by;

namespace {} // namespace

TEST_CASE("a command line names its existing absolute paths, glued to an option or not", "[sandbox]") {
  judge_test::temp_folder dir;
  fs::create_directory(dir.path() / "include");
  fs::create_directory(dir.path() / "lib");
  std::ofstream(dir.path() / "common.o") << "";
  const std::string d = dir.path().string();
  const auto paths = paths_named_by({"-c", "-I" + d + "/include", "-L" + d + "/lib", d + "/common.o", "-o",
                                     d + "/not-yet.o", "-Xlinker", "-rpath," + d + "/lib", "relative.cu", "-O3"});
  CHECK(paths == std::vector<fs::path>{dir.path() / "include", dir.path() / "lib", dir.path() / "common.o"});
}

TEST_CASE("a source file on a command line brings its folder, for its quoted includes", "[sandbox]") {
  judge_test::temp_folder dir;
  std::ofstream(dir.path() / "solve.cu") << "";
  std::ofstream(dir.path() / "shape.cuh") << "";
  const auto paths =
      paths_named_by({"-c", (dir.path() / "solve.cu").string(), "-include", (dir.path() / "shape.cuh").string()});
  CHECK(paths == std::vector<fs::path>{dir.path() / "solve.cu", dir.path(), dir.path() / "shape.cuh"});
}
