#include "catch.hpp"

#include "judge/compile/harness_targets.hpp"
#include "temp_folder.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using judge::gpu_code;

namespace {

template <typename T> void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

/// A fat binary of `entries`, each with a payload of `payload` bytes, laid out as nvcc lays them out.
std::string fat_binary(const std::vector<gpu_code>& entries, std::size_t payload = 8) {
  std::string body;
  for (const gpu_code& e : entries) {
    std::string header;
    put<std::uint16_t>(header, e.machine_code ? 2 : 1);
    put<std::uint16_t>(header, 0);
    put<std::uint32_t>(header, 64); // this header's size
    put<std::uint64_t>(header, payload);
    header.resize(28, '\0');
    put<std::uint32_t>(header, static_cast<std::uint32_t>(e.target));
    header.resize(64, '\0');
    body += header + std::string(payload, 'x');
  }
  std::string out;
  put<std::uint32_t>(out, 0xBA55ED50);
  put<std::uint16_t>(out, 1);
  put<std::uint16_t>(out, 16);
  put<std::uint64_t>(out, body.size());
  return out + body;
}

/// The entries a CMake target list ("75,90-real,80-virtual") asks for: a plain target both machine code
/// and PTX, "-real" machine code, "-virtual" PTX. Targets CMake resolves itself (native, all) name none.
std::vector<gpu_code> asked_for(const std::string& targets) {
  std::vector<gpu_code> asked;
  std::stringstream list(targets);
  for (std::string item; std::getline(list, item, ',');) {
    if (item.empty() || !std::isdigit(static_cast<unsigned char>(item[0]))) continue;
    const int target = std::stoi(item);
    if (item.find("-virtual") == std::string::npos) asked.push_back({true, target});
    if (item.find("-real") == std::string::npos) asked.push_back({false, target});
  }
  return asked;
}

bool holds(const std::vector<gpu_code>& found, gpu_code wanted) {
  for (const gpu_code& c : found)
    if (c == wanted) return true;
  return false;
}

} // namespace

TEST_CASE("a fat binary's entries are read with their kind and target", "[harness_targets]") {
  const std::string two = fat_binary({{true, 75}, {false, 75}}) + std::string(8, '\0') + fat_binary({{true, 90}});
  const std::vector<gpu_code> found = judge::fat_binary_entries(two);
  REQUIRE(found.size() == 3);
  CHECK(found[0] == gpu_code{true, 75});
  CHECK(found[1] == gpu_code{false, 75});
  CHECK(found[2] == gpu_code{true, 90});
  CHECK(judge::fat_binary_entries("").empty());
}

TEST_CASE("a blob that is not a fat binary, or is cut short, is said so", "[harness_targets]") {
  CHECK_THROWS_AS(judge::fat_binary_entries("not a fat binary at all"), std::runtime_error);
  const std::string whole = fat_binary({{true, 90}});
  CHECK_THROWS_AS(judge::fat_binary_entries(whole.substr(0, whole.size() - 4)), std::runtime_error);
  CHECK_THROWS_AS(judge::fat_binary_entries(whole.substr(0, 10)), std::runtime_error);
}

TEST_CASE("machine code runs as built on its own major version, at its minor or a later one", "[harness_targets]") {
  CHECK(judge::runs_as_built(90, "9.0"));
  CHECK(judge::runs_as_built(80, "8.6"));
  CHECK_FALSE(judge::runs_as_built(86, "8.0"));
  CHECK_FALSE(judge::runs_as_built(75, "9.0")); // what the harness held with CUDA 13's default
  CHECK_FALSE(judge::runs_as_built(90, "10.0"));
  CHECK_FALSE(judge::runs_as_built(90, "nine"));
}

TEST_CASE("each kernel object of the harness library built here holds every target it was configured for",
          "[harness_targets]") {
  CAPTURE(JUDGE_HARNESS_TARGETS);
  const std::vector<gpu_code> asked = asked_for(JUDGE_HARNESS_TARGETS);
  // The project's default targets give Hopper machine code: a runner on an H100 or H200 compiles nothing.
  if (std::string(JUDGE_HARNESS_TARGETS) == JUDGE_HARNESS_DEFAULT_TARGETS) CHECK(holds(asked, {true, 90}));
  const std::vector<std::vector<gpu_code>> objects = judge::library_gpu_code_by_object(JUDGE_HARNESS_LIBRARY);
  REQUIRE_FALSE(objects.empty()); // the inputs, the comparisons and the L2 flush are kernels
  bool any_machine_code = false;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    CAPTURE(i);
    for (const gpu_code& wanted : asked) {
      CAPTURE(wanted.machine_code, wanted.target);
      CHECK(holds(objects[i], wanted));
    }
    for (const gpu_code& c : objects[i]) any_machine_code = any_machine_code || c.machine_code;
  }
  CHECK(any_machine_code);
  // The union, as `judge device` reads it, holds each once.
  const std::vector<gpu_code> all = judge::library_gpu_code(JUDGE_HARNESS_LIBRARY);
  for (const gpu_code& wanted : asked) CHECK(holds(all, wanted));
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j) CHECK_FALSE(all[i] == all[j]);
}

TEST_CASE("a file that is not a static library is named in the error", "[harness_targets]") {
  const judge_test::temp_folder folder("harness-targets");
  const std::filesystem::path file = folder.path() / "not-a-library.a";
  std::ofstream(file) << "hello";
  try {
    judge::library_gpu_code(file);
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("not-a-library.a") != std::string::npos);
  }
  CHECK_THROWS_AS(judge::library_gpu_code(folder.path() / "missing.a"), std::runtime_error);
}
