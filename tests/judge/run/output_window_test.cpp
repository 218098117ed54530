// The memory a grading runner shares with the judge for its outputs: sized in whole pages, sealed so that
// no holder of the descriptor can shrink or grow it, poisoned on request, and passed to a runner as its
// fd 4 alone.
#include "judge/run/output_window.hpp"

#include "catch.hpp"
#include "judge/sandbox/process.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <string>

#include <unistd.h>

using judge::output_window;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<output_window> window_of(std::size_t bytes) {
  std::string why;
  auto window = output_window::create(bytes, &why);
  INFO(why);
  REQUIRE(window);
  return window;
}

judge::process_options shell(const std::string& script) {
  judge::process_options options;
  options.argv = {"/bin/sh", "-c", script};
  options.env = {{"PATH", "/usr/bin:/bin"}};
  return options;
}

} // namespace

TEST_CASE("an output window is whole pages, each word a quiet NaN until written", "[output window]") {
  const auto window = window_of(1000);
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  CHECK(window->bytes() == page);
  const float* all = window->floats_at(0, page / sizeof(float));
  REQUIRE(all != nullptr);
  for (std::size_t i = 0; i < page / sizeof(float); ++i) REQUIRE(std::isnan(all[i]));
}

TEST_CASE("an output window's size cannot be changed through its descriptor", "[output window]") {
  const auto window = window_of(1 << 16);
  CHECK(::ftruncate(window->fd(), 0) != 0);
  CHECK(::ftruncate(window->fd(), 1 << 20) != 0);
  CHECK(::ftruncate(window->fd(), static_cast<off_t>(window->bytes())) == 0); // its own size is no change
}

TEST_CASE("an output window reads only inside itself, and poisons what it is told to", "[output window]") {
  const auto window = window_of(4096);
  CHECK(window->floats_at(4096 - 8, 2) != nullptr);
  CHECK(window->floats_at(4096 - 8, 3) == nullptr);
  CHECK(window->floats_at(4097, 0) == nullptr);
  CHECK(window->floats_at(~std::uint64_t{0} - 3, 1) == nullptr);
  const float one = 1.0f;
  REQUIRE(::pwrite(window->fd(), &one, sizeof one, 64) == sizeof one);
  CHECK(window->floats_at(64, 1)[0] == 1.0f);
  window->poison(64, 4);
  CHECK(std::isnan(window->floats_at(64, 1)[0]));
  window->poison(1 << 20, 64); // past the end: nothing
}

TEST_CASE("outputs lie one after another on 64-byte boundaries", "[output window]") {
  std::uint64_t end = 0;
  CHECK(judge::window_offsets({4, 128, 1}, 0, &end) == std::vector<std::uint64_t>{0, 64, 192});
  CHECK(end == 256);
  CHECK(judge::window_offsets({64}, 1, &end) == std::vector<std::uint64_t>{64});
  CHECK(end == 128);
}

TEST_CASE("a child with a result channel gets the output window as fd 4, and writes reach the judge",
          "[output window][process]") {
  const auto window = window_of(4096);
  auto options = shell("printf JUDG >&4 && echo wrote >&3");
  options.result_channel = true;
  options.shared_fd = window->fd();
  judge::child_process child(options);
  CHECK(child.read_result_line(std::chrono::steady_clock::now() + 10s) == std::optional<std::string>("wrote"));
  child.wait(std::chrono::steady_clock::now() + 10s);
  CAPTURE(child.err().kept);
  CHECK(std::memcmp(window->floats_at(0, 1), "JUDG", 4) == 0);
}

TEST_CASE("a child without a result channel gets no fd 4, whatever the options share", "[output window][process]") {
  const auto window = window_of(4096);
  auto options = shell("printf x >&4 2>/dev/null && echo open || echo closed");
  options.shared_fd = window->fd();
  const auto result = judge::run_to_completion(options, 10s);
  CHECK(result.out.kept == "closed\n");
}
