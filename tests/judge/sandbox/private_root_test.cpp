#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/sandbox/private_root.hpp"

#include <algorithm>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;
using judge::process_options;
using judge::detail::mount_step;
using judge::detail::plan_private_root;

namespace {
std::ptrdiff_t index_of(const judge::detail::root_plan& plan, const std::string& shown) {
  auto it = std::find_if(plan.steps.begin(), plan.steps.end(), [&](const mount_step& s) { return s.shown == shown; });
  return it == plan.steps.end() ? -1 : it - plan.steps.begin();
}
} // namespace

TEST_CASE("the new root holds the system read-only, no /dev/zero, and GPU devices only when asked", "[sandbox]") {
  process_options options;
  const auto plan = plan_private_root(options, "/new-root");
  REQUIRE(index_of(plan, "/usr") >= 0);
  CHECK(plan.steps[index_of(plan, "/usr")].target == "/new-root/usr");
  CHECK_FALSE(plan.steps[index_of(plan, "/usr")].writable);
  CHECK(index_of(plan, "/dev/null") >= 0);
  CHECK(index_of(plan, "/dev/zero") == -1);
  CHECK(index_of(plan, "/sys") == -1);
  CHECK(index_of(plan, "/dev/shm") == -1);
  CHECK(plan.steps[index_of(plan, "/tmp")].source == "size=67108864,mode=1777");
  CHECK(plan.steps.back().what == mount_step::kind::remount_ro); // the root itself, last
  options.gpu_devices = true;
  const auto gpu = plan_private_root(options, "/new-root");
  CHECK(index_of(gpu, "/sys") >= 0);
  CHECK(index_of(gpu, "/dev/shm") >= 0);
  // The CUDA driver's processes get the same hardening (an /etc of their own, nothing executable written).
  CHECK(gpu.steps[index_of(gpu, "/tmp")].no_exec);
  CHECK(gpu.steps[index_of(gpu, "/dev/shm")].no_exec);
  CHECK(gpu.steps[index_of(gpu, "/etc")].what == mount_step::kind::tmpfs);
}

TEST_CASE("named paths come after the system, ancestors first, writable only where asked", "[sandbox]") {
  judge_test::temp_folder dir;
  fs::create_directories(dir.path() / "a" / "b");
  process_options options;
  options.writable_paths = {dir.path() / "a"};
  options.read_only_paths = {dir.path() / "a" / "b", dir.path() / "missing", ""};
  options.hidden_paths = {dir.path() / "a" / "b"};
  const auto plan = plan_private_root(options, "/r");
  const auto a = index_of(plan, (dir.path() / "a").string());
  const auto b = index_of(plan, (dir.path() / "a" / "b").string());
  REQUIRE(a >= 0);
  REQUIRE(b > a);
  CHECK(index_of(plan, "/tmp") < a);
  CHECK(plan.steps[a].writable);
  CHECK_FALSE(plan.steps[b].writable);
  CHECK(index_of(plan, (dir.path() / "missing").string()) == -1);
  // The hidden path is covered after its bind.
  const auto cover = std::find_if(plan.steps.begin() + b + 1, plan.steps.end(),
                                  [&](const mount_step& s) { return s.what == mount_step::kind::cover; });
  REQUIRE(cover != plan.steps.end());
  CHECK(cover->shown == (dir.path() / "a" / "b").string());
}
