#include "catch.hpp"
#include "text_match.hpp"

#include "judge/base/file_input.hpp"
#include "judge/compile/kernel_resources.hpp"

#include <string>

using judge_test::contains;

namespace {

/// ptxas -v output recorded with nvcc 13 for sm_90 (tests/data/ptxas/README.md).
std::string recorded(const std::string& name) {
  return judge::read_file(std::string(JUDGE_TEST_DATA_DIR) + "/ptxas/" + name + ".txt");
}

} // namespace

TEST_CASE("the naive ladder step uses 32 registers and no shared memory", "[ptxas]") {
  const auto kernels = judge::parse_ptxas_resources(recorded("matmul_01_naive_row_per_thread_x"));
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].name == "matmul_row_per_thread_x(float const*, float const*, float*, int, int, int)");
  CHECK(kernels[0].arch == "sm_90");
  CHECK(kernels[0].registers == 32);
  CHECK(kernels[0].static_shared_bytes == 0);
  CHECK(kernels[0].local_bytes == 0);
  CHECK(kernels[0].spill_store_bytes == 0);
  CHECK(kernels[0].spill_load_bytes == 0);
}

TEST_CASE("each ladder step's registers and static shared memory are read from its ptxas lines", "[ptxas]") {
  struct row {
    const char* file;
    int registers, shared;
  };
  const row r = GENERATE(row{"matmul_02_naive_coalesced", 32, 0}, row{"matmul_03_shared_tiled", 32, 8192},
                         row{"matmul_04_register_1d", 50, 4096}, row{"matmul_05_register_2d", 43, 8192});
  CAPTURE(r.file);
  const auto kernels = judge::parse_ptxas_resources(recorded(r.file));
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].registers == r.registers);
  CHECK(kernels[0].static_shared_bytes == r.shared);
  CHECK(kernels[0].spill_store_bytes == 0);
}

TEST_CASE("spills and a stack frame are read per kernel and a device function is not a kernel", "[ptxas]") {
  const auto kernels = judge::parse_ptxas_resources(recorded("spill_and_stack"));
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].name == "local_array(int const*, float*)");
  CHECK(kernels[0].registers == 30);
  CHECK(kernels[0].local_bytes == 128);
  CHECK(kernels[0].spill_store_bytes == 0);
  CHECK(kernels[1].name == "many_accumulators(float const*, float*, int)");
  CHECK(kernels[1].registers == 32);
  CHECK(kernels[1].local_bytes == 272);
  CHECK(kernels[1].spill_store_bytes == 496);
  CHECK(kernels[1].spill_load_bytes == 496);
}

TEST_CASE("an extern C kernel keeps its name and older ptxas's smem and cmem line is read", "[ptxas]") {
  const std::string old_format = "ptxas info    : Compiling entry function 'tile_kernel' for 'sm_80'\n"
                                 "ptxas info    : Function properties for tile_kernel\n"
                                 "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
                                 "ptxas info    : Used 64 registers, 16384 bytes smem, 388 bytes cmem[0]\n";
  const auto kernels = judge::parse_ptxas_resources(old_format);
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].name == "tile_kernel");
  CHECK(kernels[0].arch == "sm_80");
  CHECK(kernels[0].registers == 64);
  CHECK(kernels[0].static_shared_bytes == 16384);
  CHECK(kernels[0].local_bytes == 8);
  CHECK(kernels[0].spill_store_bytes == 4);
}

TEST_CASE("two units' outputs one after the other give both units' kernels", "[ptxas]") {
  const auto kernels = judge::parse_ptxas_resources(recorded("matmul_03_shared_tiled") + recorded("spill_and_stack"));
  REQUIRE(kernels.size() == 3);
  CHECK(kernels[0].static_shared_bytes == 8192);
  CHECK(kernels[2].spill_store_bytes == 496);
}

TEST_CASE("a kernel whose registers line is missing is left out", "[ptxas]") {
  const std::string cut = "ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
                          "ptxas info    : Function properties for _Z1kv\n";
  CHECK(judge::parse_ptxas_resources(cut).empty());
}

TEST_CASE("a failed compile's message keeps the errors and loses ptxas's info lines", "[ptxas]") {
  const std::string output = recorded("matmul_03_shared_tiled") +
                             "solution.cu(12): error: identifier \"tile\" is undefined\n"
                             "ptxas warning : Registers are spilled to local memory in function 'k'\n";
  const std::string shown = judge::without_ptxas_info(output);
  CHECK(contains(shown, "identifier \"tile\" is undefined"));
  CHECK(contains(shown, "ptxas warning"));
  CHECK_FALSE(contains(shown, "ptxas info"));
  CHECK_FALSE(contains(shown, "bytes stack frame"));
  const std::string kept = judge::ptxas_info_only(output);
  CHECK_FALSE(contains(kept, "error"));
  CHECK(judge::parse_ptxas_resources(kept) == judge::parse_ptxas_resources(output));
}
