#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/file_output.hpp"

#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using judge::on_existing;
using judge_test::temp_folder;

namespace {
/// The names in `folder`, to see that nothing staged is left behind.
std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  return names;
}
} // namespace

TEST_CASE("two writers publishing one path at once always leave one whole file", "[file_output]") {
  const temp_folder dir("publish");
  const fs::path target = dir / "report.json";
  // Large enough that a write takes many system calls, so that two writers sharing a temporary file
  // (a fixed name) would interleave and a reader would see a torn or short file.
  const std::string first(1 << 20, 'a'), second(1 << 20, 'b');
  judge::write_file_atomically(target, first, "the report");
  std::atomic<bool> done{false};
  std::atomic<int> torn{0}, reads{0};
  std::thread reader([&] {
    while (!done) {
      std::error_code ec;
      const auto text = judge::read_file(target, ec);
      if (!text) continue;
      ++reads;
      if (*text != first && *text != second) ++torn;
    }
  });
  auto writer = [&](const std::string& text) {
    for (int i = 0; i < 40; ++i) judge::write_file_atomically(target, text, "the report");
  };
  std::thread a(writer, first), b(writer, second);
  a.join();
  b.join();
  done = true;
  reader.join();
  CAPTURE(reads.load());
  CHECK(torn == 0);
  const std::string last = judge::read_file(target);
  CHECK((last == first || last == second));
  CHECK(names_in(dir.path()) == std::vector<std::string>{"report.json"});
}

TEST_CASE("a published file is synced, made with the mode asked for, and replaces the old one", "[file_output]") {
  const temp_folder dir("publish");
  const fs::path target = dir / "sub" / "secret";
  CHECK(judge::publish_file(target, "one\n", {on_existing::replace, 0600, true}));
  CHECK(judge::publish_file(target, "two\n", {on_existing::replace, 0600, true}));
  CHECK(judge::read_file(target) == "two\n");
  struct stat info {};
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
}

TEST_CASE("publishing with keep leaves the file that is there and says so", "[file_output]") {
  const temp_folder dir("publish");
  const fs::path target = dir / "secret";
  CHECK(judge::publish_file(target, "first\n", {on_existing::keep, 0600, true}));
  CHECK_FALSE(judge::publish_file(target, "second\n", {on_existing::keep, 0600, true}));
  CHECK(judge::read_file(target) == "first\n");
  CHECK(names_in(dir.path()) == std::vector<std::string>{"secret"});
}

TEST_CASE("a staged folder replaces or yields to one that is there, and is removed unless published", "[file_output]") {
  const temp_folder dir("publish");
  const fs::path entry = dir / "entry";
  {
    judge::staged_path staged(entry);
    CHECK(staged.path().parent_path() == dir.path());
    fs::create_directory(staged.path());
    dir.write(staged.path().filename().string() + "/old", "old");
    CHECK(staged.publish(on_existing::keep));
  }
  {
    judge::staged_path staged(entry);
    fs::create_directory(staged.path());
    dir.write(staged.path().filename().string() + "/new", "new");
    CHECK_FALSE(staged.publish(on_existing::keep));
  }
  CHECK(fs::exists(entry / "old"));
  {
    judge::staged_path staged(entry);
    fs::create_directory(staged.path());
    dir.write(staged.path().filename().string() + "/new", "new");
    CHECK(staged.publish(on_existing::replace));
  }
  CHECK(fs::exists(entry / "new"));
  CHECK_FALSE(fs::exists(entry / "old"));
  {
    judge::staged_path abandoned(entry);
    fs::create_directory(abandoned.path());
  }
  CHECK(names_in(dir.path()) == std::vector<std::string>{"entry"});
}

TEST_CASE("two staged names for one target differ", "[file_output]") {
  const judge::staged_path one("/x/report.json"), two("/x/report.json");
  CHECK(one.path() != two.path());
  CHECK(one.path().parent_path() == "/x");
}
