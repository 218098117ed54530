#include "judge/grading/output_files.hpp"

#include "catch.hpp"

#include <fstream>

#include <sys/stat.h>

using namespace judge;
namespace fs = std::filesystem;

namespace {

void write_floats(const fs::path& file, const std::vector<float>& values) {
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
}

judge_wire::check_answer ready(const std::vector<std::string>& files) {
  judge_wire::check_answer answer;
  answer.outputs = files;
  return answer;
}

} // namespace

TEST_CASE("output files are named by the judge: case, check and buffer", "[output_files]") {
  CHECK(output_file_name(3, 0, "C") == "3.0.C.bin");
  CHECK(output_file_name(12, 1, "out_max") == "12.1.out_max.bin");
  CHECK(judge_wire::is_simple_file_name(output_file_name(12, 1, "out_max")));
}

TEST_CASE("an output is taken from the judge's file when the answer says it is ready, then removed", "[output_files]") {
  const scratch_folder scratch = scratch_folder::create_temporary("judge-output-test-");
  const fs::path file = scratch.path() / "2.0.C.bin";
  write_floats(file, {0.5f, 4.0f});
  SECTION("of the right size") {
    const output_read read = take_output(scratch, ready({"2.0.C.bin"}), "2.0.C.bin", 2);
    REQUIRE(read.values);
    CHECK((*read.values)[0] == 0.5f);
    CHECK((*read.values)[1] == 4.0f);
    CHECK_FALSE(fs::exists(file));
  }
  SECTION("too short") {
    const output_read read = take_output(scratch, ready({"2.0.C.bin"}), "2.0.C.bin", 3);
    CHECK_FALSE(read.values);
    CHECK(read.problem == "output file 2.0.C.bin holds 8 bytes, not 12");
    CHECK_FALSE(fs::exists(file));
  }
  SECTION("not said to be ready: the file is left alone") {
    const output_read read = take_output(scratch, ready({"2.0.D.bin", "/etc/passwd"}), "2.0.C.bin", 2);
    CHECK_FALSE(read.values);
    CHECK(read.problem == "the runner did not say that output file 2.0.C.bin is ready");
    CHECK(fs::exists(file));
  }
  SECTION("said to be ready but missing") {
    const output_read read = take_output(scratch, ready({"2.1.C.bin"}), "2.1.C.bin", 2);
    CHECK_FALSE(read.values);
    CHECK(read.problem == "output file 2.1.C.bin cannot be opened: No such file or directory");
  }
}

TEST_CASE("an output is read into the memory of the last one, whatever that held", "[output_files]") {
  const scratch_folder scratch = scratch_folder::create_temporary("judge-output-test-");
  write_floats(scratch.path() / "0.0.C.bin", {1.0f, 2.0f, 3.0f});
  output_read first = take_output(scratch, ready({"0.0.C.bin"}), "0.0.C.bin", 3);
  REQUIRE(first.values);
  const float* memory = first.values->data();
  write_floats(scratch.path() / "0.1.C.bin", {7.0f, 8.0f});
  const output_read smaller = take_output(scratch, ready({"0.1.C.bin"}), "0.1.C.bin", 2, std::move(*first.values));
  REQUIRE(smaller.values);
  CHECK(*smaller.values == std::vector<float>{7.0f, 8.0f}); // its own size, nothing of the last one's left
  CHECK(smaller.values->data() == memory);                  // in the same memory
}

TEST_CASE("an output file that is a link or not a regular file is not read, and only it is removed", "[output_files]") {
  const scratch_folder outside = scratch_folder::create_temporary("judge-output-outside-");
  const fs::path victim = outside.path() / "secret";
  write_floats(victim, {1.0f, 2.0f}); // the right size, so only the link itself can stop the read
  const scratch_folder scratch = scratch_folder::create_temporary("judge-output-test-");
  SECTION("a symbolic link") {
    fs::create_symlink(victim, scratch.path() / "0.0.C.bin");
    const output_read read = take_output(scratch, ready({"0.0.C.bin"}), "0.0.C.bin", 2);
    CHECK_FALSE(read.values);
    CHECK(read.problem == "output file 0.0.C.bin is a symbolic link, not the file itself");
    CHECK_FALSE(fs::exists(fs::symlink_status(scratch.path() / "0.0.C.bin")));
  }
  SECTION("a hard link is a regular file of the runner's own; the original stays") {
    fs::create_hard_link(victim, scratch.path() / "0.0.C.bin");
    const output_read read = take_output(scratch, ready({"0.0.C.bin"}), "0.0.C.bin", 2);
    CHECK(read.values);
  }
  SECTION("a fifo does not stall the judge") {
    REQUIRE(::mkfifo((scratch.path() / "0.0.C.bin").c_str(), 0600) == 0);
    const output_read read = take_output(scratch, ready({"0.0.C.bin"}), "0.0.C.bin", 2);
    CHECK_FALSE(read.values);
    CHECK(read.problem == "output file 0.0.C.bin is not a regular file");
  }
  SECTION("a folder") {
    fs::create_directories(scratch.path() / "0.0.C.bin");
    const output_read read = take_output(scratch, ready({"0.0.C.bin"}), "0.0.C.bin", 2);
    CHECK_FALSE(read.values);
    CHECK(read.problem == "output file 0.0.C.bin is not a regular file");
  }
  CHECK(fs::file_size(victim) == 2 * sizeof(float));
}
