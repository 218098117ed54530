#include "catch.hpp"

#include "judge/base/file_input.hpp"
#include "judge/sanitizer/sanitizer_output.hpp"

#include <string>

using namespace judge;

namespace {

/// compute-sanitizer output in the documented layout (tests/data/sanitizer/README.md).
std::string recorded(const std::string& name) {
  return read_file(std::string(JUDGE_TEST_DATA_DIR) + "/sanitizer/" + name + ".txt");
}

} // namespace

TEST_CASE("a write one element past the end of C is placed just past C's end at the learner's line", "[sanitizer]") {
  const std::string text = recorded("memcheck_writes_past_end");
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, text, parse_buffer_map(text));
  CHECK(found.summary_seen);
  CHECK(found.errors == 2);
  REQUIRE(found.findings.size() == 2);
  const sanitizer_finding& f = found.findings[0];
  CHECK(f.kind == sanitizer_error_kind::invalid_access);
  CHECK(f.space == memory_space::global);
  CHECK(f.access == access_kind::write);
  CHECK(f.size == 4);
  CHECK(f.kernel == "one_past(float *, long long)");
  CHECK(f.at == source_line{"writes_past_end.cu", 21});
  CHECK(f.thread == std::array<int, 3>{0, 0, 0});
  CHECK(f.block == std::array<int, 3>{0, 0, 0});
  CHECK(f.address == 0x7f3a2cc00000u);
  CHECK(f.buffer == "C");
  CHECK(f.buffer_bytes == 4194304u);
  CHECK(f.relation == buffer_relation::after);
  CHECK(f.distance == 0u);
  const sanitizer_finding& api = found.findings[1];
  CHECK(api.kind == sanitizer_error_kind::cuda_api_error);
  CHECK(api.api_error == "cudaErrorLaunchFailure");
  CHECK(api.api_call == "cudaDeviceSynchronize");
}

TEST_CASE("the older location layout gives the kernel after the line and a sub-folder file", "[sanitizer]") {
  const std::vector<judge_wire::buffer_place> map = {{"C", 0x7f3a2c800000u, 4096}};
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, recorded("memcheck_cuda11_layout"), map);
  REQUIRE(found.findings.size() == 1);
  const sanitizer_finding& f = found.findings[0];
  CHECK(f.kernel == "matmul_tiled(float const *, float const *, float *, int, int, int)");
  CHECK(f.at == source_line{"kernels/tile.cu", 42});
  CHECK(f.thread == std::array<int, 3>{31, 7, 0});
  CHECK(f.block == std::array<int, 3>{3, 2, 0});
  // No allocation line: the map places it, 4 bytes before C's start.
  CHECK(f.buffer == "C");
  CHECK(f.relation == buffer_relation::before);
  CHECK(f.distance == 4u);
}

TEST_CASE("an address far from every buffer names none", "[sanitizer]") {
  const std::vector<judge_wire::buffer_place> map = {{"C", 0x10000000000u, 4096}};
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, recorded("memcheck_cuda11_layout"), map);
  REQUIRE(found.findings.size() == 1);
  CHECK(found.findings[0].buffer.empty());
  CHECK(found.findings[0].relation == buffer_relation::unknown);
}

TEST_CASE("a wild write from the H200 names the learner's line and thread and no buffer", "[sanitizer]") {
  const std::vector<judge_wire::buffer_place> map = {{"C", 0x7f7c80000000u, 3111108}};
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, recorded("memcheck_illegal_address"), map);
  CHECK(found.summary_seen);
  CHECK(found.errors == 261); // not the "241 errors were not printed" line after it
  REQUIRE(found.findings.size() == 2);
  const sanitizer_finding& f = found.findings[0];
  CHECK(f.kind == sanitizer_error_kind::invalid_access);
  CHECK(f.access == access_kind::write);
  CHECK(f.size == 4);
  CHECK(f.kernel == "scribble(float *)");
  CHECK(f.at == source_line{"illegal_address.cu", 20});
  CHECK(f.thread == std::array<int, 3>{32, 0, 0});
  CHECK(f.block == std::array<int, 3>{0, 0, 0});
  CHECK(f.address == 0x7a12190u);
  // 140 TB before the judge's own 120 MiB allocation: a wild pointer, near nothing.
  CHECK(f.buffer.empty());
  CHECK(f.relation == buffer_relation::unknown);
  CHECK(f.buffer_bytes == 0u);
}

TEST_CASE("a write one past a learner's own allocation keeps its size and starts just past its end", "[sanitizer]") {
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, recorded("memcheck_standalone_oob"), {});
  CHECK(found.errors == 2);
  REQUIRE(found.findings.size() == 2);
  const sanitizer_finding& f = found.findings[0];
  CHECK(f.at == source_line{"standalone.cu", 7});
  CHECK(f.thread == std::array<int, 3>{232, 0, 0});
  CHECK(f.block == std::array<int, 3>{3, 0, 0});
  CHECK(f.buffer.empty());
  CHECK(f.relation == buffer_relation::after);
  // "Access to 0x7febf2800fa0 ... is 1 bytes after the nearest allocation at 0x7febf2800000 of size 4,000
  // bytes": the tool counts from the last byte; the access starts right at the end.
  CHECK(f.distance == 0u);
  CHECK(f.buffer_bytes == 4000u); // "4,000 bytes"
  CHECK(found.findings[1].kind == sanitizer_error_kind::cuda_api_error);
}

TEST_CASE("racecheck on the H200 names the write, the first racing read and their lines", "[sanitizer]") {
  const auto found = parse_sanitizer_output(sanitizer_tool::racecheck, recorded("racecheck_shared_race"), {});
  CHECK(found.summary_seen);
  CHECK(found.errors == 3); // hazards displayed
  // The "Maximum number of hazards reached" warning says where nothing is: no finding.
  REQUIRE(found.findings.size() == 2);
  const sanitizer_finding& f = found.findings[0];
  CHECK(f.tool == sanitizer_tool::racecheck);
  CHECK(f.kind == sanitizer_error_kind::shared_race);
  CHECK(f.access == access_kind::write);
  CHECK(f.kernel == "tiled(const float *, const float *, float *, int, int, int)");
  CHECK(f.at == source_line{"shared_race.cu", 11});
  CHECK(f.other_access == access_kind::read);
  CHECK(f.other_at == source_line{"shared_race.cu", 13});
  CHECK(f.hazards > 294400); // all the reads' hazards added up
  CHECK(found.findings[1].at == source_line{"shared_race.cu", 10});
}

TEST_CASE("racecheck's read-then-write race keeps each side's access", "[sanitizer]") {
  const auto found = parse_sanitizer_output(sanitizer_tool::racecheck, recorded("racecheck_standalone"), {});
  REQUIRE(found.findings.size() == 3);
  CHECK(found.findings[0].hazards == 1536 + 768 + 384 + 192 + 96 + 48 + 24);
  CHECK(found.findings[1].access == access_kind::read);
  CHECK(found.findings[1].other_access == access_kind::write);
  CHECK(found.findings[1].at == source_line{"standalone.cu", 13});
  CHECK(found.findings[1].hazards == 256);
}

TEST_CASE("initcheck on the H200 names the uninitialised read's line and thread", "[sanitizer]") {
  const auto found = parse_sanitizer_output(sanitizer_tool::initcheck, recorded("initcheck_uninit_scratch"), {});
  CHECK(found.errors == 777777);
  REQUIRE(found.findings.size() == 2);
  const sanitizer_finding& f = found.findings[0];
  CHECK(f.kind == sanitizer_error_kind::uninitialised_read);
  CHECK(f.size == 4);
  CHECK(f.kernel == "naive(const float *, const float *, float *, const float *, int, int, int)");
  CHECK(f.at == source_line{"uninit_scratch.cu", 6});
  CHECK(f.thread == std::array<int, 3>{0, 2, 0});
  CHECK(f.block == std::array<int, 3>{2, 2, 0});
  CHECK(f.address == 0x7f160ae19d48u);
  CHECK(f.buffer.empty());
}

TEST_CASE("an uninitialised read inside a buffer of the map gives its offset", "[sanitizer]") {
  const std::vector<judge_wire::buffer_place> map = {{"C", 0x7f160ae19d00u, 4096}};
  const auto found = parse_sanitizer_output(sanitizer_tool::initcheck, recorded("initcheck_uninit_scratch"), map);
  REQUIRE(found.findings.size() == 2);
  CHECK(found.findings[0].buffer == "C");
  CHECK(found.findings[0].relation == buffer_relation::inside);
  CHECK(found.findings[0].distance == 0x48u);
}

TEST_CASE("the learner's prints and a clean run give no finding", "[sanitizer]") {
  const std::string text = "========= COMPUTE-SANITIZER\nhello from solve()\nInvalid __global__ write of size 4 "
                           "bytes\n========= ERROR SUMMARY: 0 errors\n";
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, text, {});
  CHECK(found.findings.empty());
  CHECK(found.errors == 0);
  CHECK(found.summary_seen);
}

TEST_CASE("output cut off before the summary says so", "[sanitizer]") {
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, "========= COMPUTE-SANITIZER\n", {});
  CHECK_FALSE(found.summary_seen);
  CHECK(found.errors == -1);
}

TEST_CASE("findings beyond the kept number are counted by the summary only", "[sanitizer]") {
  std::string text;
  for (int i = 0; i < 5; ++i)
    text += "========= Invalid __global__ read of size 4 bytes\n=========     at k()+0x10 in /x/src/a.cu:3\n"
            "=========     by thread (0,0,0) in block (0,0,0)\n=========\n";
  text += "========= ERROR SUMMARY: 5 errors\n";
  const auto found = parse_sanitizer_output(sanitizer_tool::memcheck, text, {}, 2);
  CHECK(found.findings.size() == 2);
  CHECK(found.errors == 5);
}

TEST_CASE("a staging path becomes the learner's file name", "[sanitizer]") {
  CHECK(learner_file("/c/matmul/.tmp-ab12-77-1/src/mine.cu") == "mine.cu");
  CHECK(learner_file("/c/matmul/.tmp-ab12-77-1/src/sub/mine.cu") == "sub/mine.cu");
  CHECK(learner_file("/home/me/mine.cu") == "/home/me/mine.cu");
}

TEST_CASE("the buffer map keeps the last call's lines", "[sanitizer]") {
  const std::string text = judge_wire::buffer_map_line({"A", 0x1000, 16}) + "\n" +
                           judge_wire::buffer_map_line({"C", 0x2000, 16}) + "\nprinted by solve()\n" +
                           judge_wire::buffer_map_line({"A", 0x3000, 16}) + "\n";
  const auto map = parse_buffer_map(text);
  REQUIRE(map.size() == 1);
  CHECK(map[0] == judge_wire::buffer_place{"A", 0x3000, 16});
  CHECK_FALSE(judge_wire::parse_buffer_map_line("judge-buffer A 0x10 16 extra"));
  CHECK_FALSE(judge_wire::parse_buffer_map_line("judge-buffer A 12 16"));
}
