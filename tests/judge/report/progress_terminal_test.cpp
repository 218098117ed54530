#include "catch.hpp"
#include "judge/report/progress_terminal.hpp"

#include <cstdio>
#include <string>

using namespace judge;
using step = run_progress::step;

TEST_CASE("each step of a grading run has its progress line", "[report]") {
  CHECK(progress_text({step::probing}) == "probing the GPU ...");
  CHECK(progress_text({step::compiling, 3, 12}) == "compiling 3/12 ...");
  CHECK(progress_text({step::compiling_baseline}) == "compiling the baseline ...");
  CHECK(progress_text({step::running, 1, 9, "alice.cu", "big"}) == "alice.cu: case 2/9 big ...");
  CHECK(progress_text({step::none}).empty());
}

TEST_CASE("progress is not drawn on a stream that is not a terminal, but a wait for the GPU is said", "[report]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  const run_progress_fn progress = terminal_progress(file);
  REQUIRE(progress);
  progress({step::compiling, 1, 3});
  progress({step::running, 1, 9, "alice.cu", "big"});
  progress({step::waiting_for_gpu, 0, 0, "pid 42 (judge matmul, since 2026-11-30T15:00:00Z)"});
  std::rewind(file);
  char buffer[512] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, file);
  std::fclose(file);
  CHECK(std::string(buffer, n) == "judge: waiting for the GPU: another judge is using it, pid 42 (judge matmul, since "
                                  "2026-11-30T15:00:00Z) ...\n");
}
