#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/compile/cache_entry.hpp"
#include "judge/base/file_input.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using judge::build_result;
using judge::runner_kind;

namespace {

/// ptxas -v output recorded with nvcc 13 for sm_90 (tests/data/ptxas/README.md): one kernel.
std::string recorded_ptxas() {
  return judge::read_file(std::string(JUDGE_TEST_DATA_DIR) + "/ptxas/matmul_03_shared_tiled.txt");
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// A staging folder as a solution's build leaves it before publishing: the object, its device code, and
/// what the compile left besides (sources, objects, nvcc's kept files).
void fill_like_a_build(const judge_test::temp_folder& cache, const judge::staging_dir& staging,
                       const std::string& object_bytes) {
  const std::string work = fs::relative(staging.path(), cache.path()).string();
  cache.write(work + "/solution.so", object_bytes);
  cache.write(work + "/device/good.fatbin", "fatbin bytes");
  cache.write(work + "/src/good.cu", "the learner's source");
  cache.write(work + "/good.o", "an object");
  cache.write(work + "/good.cudafe1.cpp", "what nvcc --keep left");
  cache.write(work + "/include/solve.h", "the declaration");
}

} // namespace

TEST_CASE("a solution entry's key ignores a single file's name but not a folder's layout", "[cache]") {
  judge_test::temp_folder dir;
  const fs::path a = dir.write("a.cu", "__global__ void k() {}\n");
  const fs::path b = dir.write("b.cu", "__global__ void k() {}\n");
  auto key = [](const fs::path& source, const std::vector<fs::path>& files) {
    return judge::solution_entry_key(source, files, runner_kind::solution, "decl", "runner", {});
  };
  CHECK(key(a, {a}) == key(b, {b}));

  const fs::path one = dir.write("one/main.cu", "x");
  dir.write("one/kernels/tile.cuh", "y");
  const fs::path two = dir.write("two/main.cu", "x");
  dir.write("two/tile.cuh", "y");
  CHECK(key(dir / "one", {one, dir / "one/kernels/tile.cuh"}) != key(dir / "two", {two, dir / "two/tile.cuh"}));
}

TEST_CASE("a solution entry's key changes with the kind, the declaration, the runner and the libraries", "[cache]") {
  judge_test::temp_folder dir;
  const fs::path a = dir.write("a.cu", "__global__ void k() {}\n");
  const std::string base = judge::solution_entry_key(a, {a}, runner_kind::solution, "decl", "runner", {});
  CHECK(base.size() == 16);
  CHECK(base == judge::solution_entry_key(a, {a}, runner_kind::solution, "decl", "runner", {}));
  CHECK(base != judge::solution_entry_key(a, {a}, runner_kind::baseline, "decl", "runner", {}));
  CHECK(base != judge::solution_entry_key(a, {a}, runner_kind::solution, "other decl", "runner", {}));
  CHECK(base != judge::solution_entry_key(a, {a}, runner_kind::solution, "decl", "other runner", {}));
  CHECK(base != judge::solution_entry_key(a, {a}, runner_kind::solution, "decl", "runner", {"cublas"}));
  dir.write("a.cu", "__global__ void k() { }\n");
  CHECK(base != judge::solution_entry_key(a, {a}, runner_kind::solution, "decl", "runner", {}));
}

TEST_CASE("a published solution entry holds solution.so, ptxas's lines, the tensor-core answer and the device "
          "code only",
          "[cache]") {
  judge_test::temp_folder cache;
  const fs::path entry = cache / "matmul/0123456789abcdef";
  {
    judge::staging_dir staging(entry);
    CHECK(staging.path().parent_path() == entry.parent_path());
    CHECK_FALSE(fs::exists(entry));
    fill_like_a_build(cache, staging, "the object");
    judge::publish_solution_entry(staging, runner_kind::solution, recorded_ptxas(), true);
  }
  REQUIRE(fs::is_directory(entry));
  CHECK(names_in(entry) == std::vector<std::string>{"device", "ptxas_info.txt", "solution.so", "tensor_cores.txt"});
  CHECK(judge::read_file(entry / "tensor_cores.txt") == "yes");
  CHECK(judge::read_file(entry / "ptxas_info.txt") == recorded_ptxas());
  CHECK(judge::device_code_files(entry) == std::vector<fs::path>{entry / "device/good.fatbin"});
  // Nothing staged is left beside it.
  CHECK(names_in(cache / "matmul") == std::vector<std::string>{"0123456789abcdef"});
}

TEST_CASE("a published entry is found again with its kernels, tensor-core answer and device code, and marked used",
          "[cache]") {
  judge_test::temp_folder cache;
  const fs::path entry = cache / "matmul/0123456789abcdef";
  const std::optional<bool> answer =
      GENERATE(std::optional<bool>(true), std::optional<bool>(false), std::optional<bool>());
  {
    judge::staging_dir staging(entry);
    fill_like_a_build(cache, staging, "the object");
    judge::publish_solution_entry(staging, runner_kind::solution, recorded_ptxas(), answer);
  }
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(48);
  fs::last_write_time(entry, long_ago);

  build_result found;
  REQUIRE(judge::read_solution_entry(entry, runner_kind::solution, found));
  CHECK(found.cached);
  CHECK(found.uses_tensor_cores == answer);
  REQUIRE(found.kernels.size() == 1);
  CHECK(found.kernels[0].name == "matmul_shared_tiled(float const*, float const*, float*, int, int, int)");
  CHECK(found.kernels[0].static_shared_bytes == 8192);
  CHECK(found.device_code == std::vector<fs::path>{entry / "device/good.fatbin"});
  // `judge cache prune` keeps what was used in the last hour.
  CHECK(fs::last_write_time(entry) > long_ago + std::chrono::hours(47));
}

TEST_CASE("a missing entry is not found and changes nothing, and one made by hand has only what it holds", "[cache]") {
  judge_test::temp_folder cache;
  build_result result;
  result.message = "untouched";
  CHECK_FALSE(judge::read_solution_entry(cache / "matmul/none", runner_kind::solution, result));
  CHECK_FALSE(result.cached);
  CHECK(result.message == "untouched");

  cache.write("matmul/by_hand/solution.so", "an object");
  REQUIRE(judge::read_solution_entry(cache / "matmul/by_hand", runner_kind::solution, result));
  CHECK(result.cached);
  CHECK(result.kernels.empty());
  CHECK_FALSE(result.uses_tensor_cores.has_value());
  CHECK(result.device_code.empty());
}

TEST_CASE("an entry of the same content published first is kept and the later one is dropped", "[cache]") {
  judge_test::temp_folder cache;
  const fs::path entry = cache / "matmul/0123456789abcdef";
  judge::staging_dir first(entry), second(entry);
  CHECK(first.path() != second.path());
  fill_like_a_build(cache, first, "first");
  fill_like_a_build(cache, second, "second");
  judge::publish_solution_entry(first, runner_kind::solution, recorded_ptxas(), false);
  judge::publish_solution_entry(second, runner_kind::solution, recorded_ptxas(), true);
  CHECK(judge::read_file(entry / "solution.so") == "first");
  CHECK(judge::read_file(entry / "tensor_cores.txt") == "no");
  CHECK(names_in(cache / "matmul") == std::vector<std::string>{"0123456789abcdef"});
}

TEST_CASE("a baseline's entry holds its object only, and a lookup gives it no kernels or device code", "[cache]") {
  judge_test::temp_folder cache;
  const fs::path entry = cache / "matmul/fedcba9876543210";
  {
    judge::staging_dir staging(entry);
    const std::string work = fs::relative(staging.path(), cache.path()).string();
    cache.write(work + "/solution.so", "cuBLAS baseline");
    cache.write(work + "/baseline.o", "an object");
    judge::publish_solution_entry(staging, runner_kind::baseline, "", std::nullopt);
  }
  CHECK(names_in(entry) == std::vector<std::string>{"solution.so"});
  build_result found;
  REQUIRE(judge::read_solution_entry(entry, runner_kind::baseline, found));
  CHECK(found.cached);
  CHECK(found.kernels.empty());
  CHECK(found.device_code.empty());
}

TEST_CASE("a staging folder that is not published leaves nothing behind", "[cache]") {
  judge_test::temp_folder cache;
  fs::path staged;
  {
    judge::staging_dir staging(cache / "matmul/0123456789abcdef");
    staged = staging.path();
    fill_like_a_build(cache, staging, "the object");
    CHECK(fs::exists(staged / "solution.so"));
  }
  CHECK_FALSE(fs::exists(staged));
  CHECK_FALSE(fs::exists(cache / "matmul/0123456789abcdef"));
}
