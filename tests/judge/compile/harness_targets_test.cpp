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

/// The targets CMake built the harness for ("75,90"), as machine code.
std::vector<int> configured_machine_code() {
  std::vector<int> targets;
  std::stringstream list(JUDGE_HARNESS_TARGETS);
  for (std::string item; std::getline(list, item, ',');) {
    if (item.find("-virtual") != std::string::npos || item.empty() || !std::isdigit(item[0])) continue;
    targets.push_back(std::stoi(item));
  }
  return targets;
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

TEST_CASE("the harness library built here holds machine code for every target it was configured for",
          "[harness_targets]") {
  const std::vector<gpu_code> found = judge::library_gpu_code(JUDGE_HARNESS_LIBRARY);
  const std::vector<int> targets = configured_machine_code();
  CAPTURE(JUDGE_HARNESS_TARGETS);
  if (targets.empty()) {
    WARN("the harness's targets are CMake's own (native, all): none to look for by name");
    return;
  }
  for (const int target : targets) {
    CAPTURE(target);
    CHECK(holds(found, {true, target}));
  }
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
