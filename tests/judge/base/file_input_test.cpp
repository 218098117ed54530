#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "results_fixtures.hpp"

#include <fstream>

using judge::read_file;
using judge_test::temp_folder;

TEST_CASE("read_file gives back every byte unchanged", "[base]") {
  temp_folder dir;
  const std::string bytes("line\r\nzero \0 byte, no newline at the end", 41);
  std::ofstream(dir / "data.bin", std::ios::binary) << bytes;
  CHECK(read_file(dir / "data.bin") == bytes);
  std::ofstream(dir / "empty.txt", std::ios::binary);
  CHECK(read_file(dir / "empty.txt").empty());
}

TEST_CASE("read_file of a missing file names it and says why", "[base]") {
  temp_folder dir;
  try {
    read_file(dir / "missing.yaml");
    FAIL("reading a missing file should throw");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "cannot read " + (dir / "missing.yaml").string() + ": No such file or directory");
  }
}

TEST_CASE("read_file with an error code reports a failure instead of throwing", "[base]") {
  temp_folder dir;
  std::error_code error = std::make_error_code(std::errc::io_error);
  std::ofstream(dir / "ok.txt") << "fine";
  CHECK(read_file(dir / "ok.txt", error) == std::optional<std::string>("fine"));
  CHECK(!error);
  CHECK(!read_file(dir / "missing.txt", error));
  CHECK(error == std::errc::no_such_file_or_directory);
  CHECK(!read_file(dir.path(), error)); // a folder opens, but cannot be read
  CHECK(error == std::errc::is_a_directory);
}
