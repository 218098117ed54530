#include "judge/grading/scratch_folder.hpp"

#include "catch.hpp"
#include "text_match.hpp"

#include <fstream>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

using judge::scratch_folder;
using judge_test::contains;

namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

unsigned mode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

} // namespace

TEST_CASE("a scratch folder is new, private and gone with everything in it at the end", "[scratch_folder]") {
  fs::path root_path;
  fs::path sub_path;
  {
    const scratch_folder root = scratch_folder::create_temporary("judge-scratch-test-");
    root_path = root.path();
    CHECK(root_path.parent_path() == fs::temp_directory_path());
    CHECK(fs::is_directory(root_path));
    CHECK(mode_of(root_path) == 0700);
    const scratch_folder sub = root.make_subfolder("1-solution");
    sub_path = sub.path();
    CHECK(sub_path == root_path / "1-solution");
    CHECK(mode_of(sub_path) == 0700);
    // What a runner might leave: files, folders within folders, a fifo.
    write_text(sub_path / "0.0.C.bin", "data");
    fs::create_directories(sub_path / "a" / "b" / "c");
    write_text(sub_path / "a" / "b" / "c" / "deep", "x");
    REQUIRE(::mkfifo((sub_path / "pipe").c_str(), 0600) == 0);
    CHECK(scratch_folder::create_temporary("judge-scratch-test-").path() != root_path);
  }
  CHECK_FALSE(fs::exists(sub_path));
  CHECK_FALSE(fs::exists(root_path));
}

TEST_CASE("removing a scratch folder follows no link out of it", "[scratch_folder]") {
  const scratch_folder outside = scratch_folder::create_temporary("judge-scratch-outside-");
  write_text(outside.path() / "results.db", "precious");
  fs::create_directories(outside.path() / "tree");
  write_text(outside.path() / "tree" / "leaf", "precious too");
  fs::path inside;
  {
    const scratch_folder scratch = scratch_folder::create_temporary("judge-scratch-test-");
    inside = scratch.path();
    fs::create_symlink(outside.path() / "results.db", inside / "0.0.C.bin");
    fs::create_symlink(outside.path() / "tree", inside / "tree");
    fs::create_directories(inside / "sub");
    fs::create_symlink(outside.path(), inside / "sub" / "up");
    SECTION("when cleared") {
      scratch.clear();
      CHECK(fs::is_empty(inside));
    }
    SECTION("when one file is removed") {
      scratch.remove_file("0.0.C.bin");
      CHECK_FALSE(fs::exists(fs::symlink_status(inside / "0.0.C.bin")));
    }
    SECTION("when it goes") {}
  }
  CHECK(fs::exists(outside.path() / "results.db"));
  CHECK(fs::exists(outside.path() / "tree" / "leaf"));
}

TEST_CASE("a scratch folder takes plain names only", "[scratch_folder]") {
  const scratch_folder root = scratch_folder::create_temporary("judge-scratch-test-");
  for (const std::string name : {"../escape", "a/b", "..", ""}) {
    CAPTURE(name);
    CHECK_THROWS_AS(root.make_subfolder(name), std::logic_error);
    CHECK_THROWS_AS(root.remove_file(name), std::logic_error);
  }
  const scratch_folder taken = root.make_subfolder("taken");
  try {
    (void)root.make_subfolder("taken");
    FAIL("a folder that exists was made again");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), "cannot create the scratch folder " + (root.path() / "taken").string()));
  }
  root.remove_file("not-there"); // no error
}
