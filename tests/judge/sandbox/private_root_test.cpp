#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/sandbox/private_root.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

TEST_CASE("a compile's root has no /opt but a runner's keeps it", "[sandbox]") {
  process_options options;
  options.host_opt = false;
  CHECK(index_of(plan_private_root(options, "/r"), "/opt") == -1);
  if (!fs::exists("/opt")) return;
  options.host_opt = true;
  CHECK(index_of(plan_private_root(options, "/r"), "/opt") >= 0);
}

TEST_CASE("the judge's folders are masked after the system, sealed after the named paths below them", "[sandbox]") {
  judge_test::temp_folder dir;
  fs::create_directories(dir.path() / "prefix" / "cache" / "entry");
  process_options options;
  options.masked_paths = {dir.path() / "prefix", "/", "/usr", dir.path() / "missing"};
  options.read_only_paths = {dir.path() / "prefix" / "cache" / "entry"};
  const auto plan = plan_private_root(options, "/r");
  const std::string prefix = fs::canonical(dir.path() / "prefix").string();
  const auto named = index_of(plan, fs::canonical(dir.path() / "prefix" / "cache" / "entry").string());
  std::vector<std::ptrdiff_t> masks, seals;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    if (plan.steps[i].what == mount_step::kind::mask) masks.push_back(static_cast<std::ptrdiff_t>(i));
    if (plan.steps[i].what == mount_step::kind::seal) seals.push_back(static_cast<std::ptrdiff_t>(i));
  }
  // Neither "/" nor a system folder is ever masked, nor a folder that does not exist.
  REQUIRE(masks.size() == 1);
  REQUIRE(seals.size() == 1);
  CHECK(plan.steps[masks[0]].shown == prefix);
  CHECK(masks[0] > index_of(plan, "/usr"));
  CHECK(masks[0] < named);
  CHECK(seals[0] > named);
}

TEST_CASE("a scratch folder is a size-capped tmpfs holding its old folders read-only, and its files where named",
          "[sandbox]") {
  judge_test::temp_folder dir;
  std::ofstream(dir.path() / "unit.o") << "object";
  fs::create_directory(dir.path() / "src");
  process_options options;
  options.working_dir = dir.path();
  options.writable_paths = {dir.path()};
  options.scratch_bytes = 1 << 20;
  const auto plan = plan_private_root(options, "/r");
  const std::string folder = fs::canonical(dir.path()).string();
  CHECK(plan.scratch == folder);
  const auto at = index_of(plan, folder);
  REQUIRE(at >= 0);
  CHECK(plan.steps[at].what == mount_step::kind::tmpfs);
  CHECK(plan.steps[at].source.rfind("size=1048576,", 0) == 0);
  CHECK(plan.steps[at].no_exec);
  const auto src = index_of(plan, folder + "/src");
  REQUIRE(src > at);
  CHECK(plan.steps[src].what == mount_step::kind::bind);
  CHECK_FALSE(plan.steps[src].writable);
  // A file is shown only when the folder is named read-only too (a source in it is compiled); else a
  // tool may write one of its name anew.
  CHECK(index_of(plan, folder + "/unit.o") == -1);
  options.read_only_paths = {dir.path()};
  const auto named = plan_private_root(options, "/r");
  CHECK(index_of(named, folder + "/unit.o") > index_of(named, folder));
  CHECK_FALSE(named.steps[index_of(named, folder + "/unit.o")].writable);
  CHECK(named.steps[index_of(named, folder)].what == mount_step::kind::tmpfs);
  options.scratch_bytes = 0;
  CHECK(plan_private_root(options, "/r").scratch.empty());
}
