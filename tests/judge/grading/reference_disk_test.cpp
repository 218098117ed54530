#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/grading/reference_disk.hpp"

#include <filesystem>
#include <fstream>

using namespace judge;
namespace fs = std::filesystem;

namespace {
problem_spec vector_add() { return load_problem(JUDGE_PROBLEMS_DIR "/vector_add"); }

test_case a_case() {
  test_case c;
  c.name = "n_1001";
  c.sizes = {{"N", 1001}};
  c.seed = 7;
  c.distributions["A"] = judge_data::distribution{};
  c.distributions["B"] = judge_data::distribution{};
  return c;
}

const std::map<std::string, std::int64_t> counts = {{"C", 3}};
const reference_outputs outputs = {{"C", {1.5, -2.25, 1e300}}};
const fs::path library = "/cache/vector_add/cpu-reference-0123456789abcdef.so";
} // namespace

TEST_CASE("a reference entry's key follows every field the outputs depend on", "[reference_disk]") {
  const problem_spec spec = vector_add();
  const test_case c = a_case();
  const std::string key = reference_disk_key(spec, c, 99, library);
  CHECK(key == reference_disk_key(spec, c, 99, library));
  CHECK(key != reference_disk_key(spec, c, 100, library)); // another checked call's inputs
  CHECK(key != reference_disk_key(spec, c, 99, "/cache/vector_add/cpu-reference-fedcba9876543210.so"));
  test_case other = c;
  other.sizes["N"] = 1002;
  CHECK(key != reference_disk_key(spec, other, 99, library));
  other = c;
  other.distributions["B"].b = 2.0; // an author's edit of the data alone
  CHECK(key != reference_disk_key(spec, other, 99, library));
  other = c;
  other.data["A"] = {1.0f};
  CHECK(key != reference_disk_key(spec, other, 99, library));
  other = c;
  other.timed = !c.timed; // what the outputs do not depend on
  other.tolerance = tolerance_override{};
  CHECK(key == reference_disk_key(spec, other, 99, library));
}

TEST_CASE("reference outputs are kept, read back exactly, and only when worth it", "[reference_disk]") {
  judge_test::temp_folder dir("reference-disk");
  const fs::path folder = dir / "vector_add/references";
  CHECK_FALSE(load_reference_outputs(folder, "k1", counts)); // nothing yet, and no folder

  store_reference_outputs(folder, "k1", outputs, 0.001); // cheaper to compute again
  CHECK_FALSE(load_reference_outputs(folder, "k1", counts));

  store_reference_outputs(folder, "k1", outputs, 1.0);
  const auto back = load_reference_outputs(folder, "k1", counts);
  REQUIRE(back);
  CHECK(*back == outputs);
  CHECK((fs::status(folder / "k1.ref").permissions() & fs::perms::others_read) == fs::perms::none);

  SECTION("an entry of another shape is not taken, and goes") {
    CHECK_FALSE(load_reference_outputs(folder, "k1", {{"C", 4}}));
    CHECK_FALSE(fs::exists(folder / "k1.ref"));
  }
  SECTION("a damaged entry is not taken, and goes") {
    fs::resize_file(folder / "k1.ref", fs::file_size(folder / "k1.ref") - 1);
    CHECK_FALSE(load_reference_outputs(folder, "k1", counts));
    CHECK_FALSE(fs::exists(folder / "k1.ref"));
  }
  SECTION("outputs larger than an entry may be are not kept") {
    reference_disk_limits small;
    small.max_entry_bytes = 16;
    store_reference_outputs(folder, "k2", outputs, 1.0, small);
    CHECK_FALSE(load_reference_outputs(folder, "k2", counts));
  }
  SECTION("past the folder's limit the oldest entries go") {
    reference_disk_limits two;
    const auto entry = fs::file_size(folder / "k1.ref");
    two.max_folder_bytes = 2 * entry;
    fs::last_write_time(folder / "k1.ref", fs::file_time_type::clock::now() - std::chrono::hours(1));
    store_reference_outputs(folder, "k2", outputs, 1.0, two);
    store_reference_outputs(folder, "k3", outputs, 1.0, two);
    CHECK_FALSE(fs::exists(folder / "k1.ref"));
    CHECK(load_reference_outputs(folder, "k2", counts));
    CHECK(load_reference_outputs(folder, "k3", counts));
  }
}

TEST_CASE("a cache folder that cannot be written only costs time", "[reference_disk]") {
  judge_test::temp_folder dir("reference-disk");
  const fs::path blocked = dir.write("not-a-folder", "x");
  store_reference_outputs(blocked / "references", "k1", outputs, 1.0); // no throw
  CHECK_FALSE(load_reference_outputs(blocked / "references", "k1", counts));
}
