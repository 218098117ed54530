#include "catch.hpp"
#include "progress_terminal.hpp"

#include <cstdio>

using namespace judge;
using step = run_progress::step;

TEST_CASE("each step of a grading run has its progress line", "[report]") {
  CHECK(progress_text({step::probing}) == "probing the GPU ...");
  CHECK(progress_text({step::compiling, 3, 12}) == "compiling 3/12 ...");
  CHECK(progress_text({step::compiling_baseline}) == "compiling the baseline ...");
  CHECK(progress_text({step::running, 1, 9, "alice.cu", "big"}) == "alice.cu: case 2/9 big ...");
  CHECK(progress_text({step::none}).empty());
}

TEST_CASE("progress is not drawn on a stream that is not a terminal", "[report]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  CHECK(!terminal_progress(file));
  std::fclose(file);
}
