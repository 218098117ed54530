// A real `judge serve` whose store sits on a tiny file system (a tmpfs of 3 MiB) that fills up while a
// submission compiles: the server stays up, answers a new submission with 503 (nothing queued), keeps
// serving reads, and once there is room again records the compile it held. Needs root to mount; says so
// and passes without it.
#include "catch.hpp"
#include "judge_server.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

using judge_test::contains;
using judge_test::temp_folder;
using nlohmann::json;

namespace {
/// A tmpfs of `size` mounted at `where` for the test's duration.
class small_disk {
public:
  small_disk(const std::filesystem::path& where, const std::string& size) : m_where(where) {
    std::filesystem::create_directories(where);
    m_mounted = ::mount("tmpfs", where.c_str(), "tmpfs", 0, ("size=" + size + ",mode=0700").c_str()) == 0;
  }
  ~small_disk() {
    if (m_mounted) ::umount2(m_where.c_str(), MNT_DETACH);
  }
  bool mounted() const { return m_mounted; }

private:
  std::filesystem::path m_where;
  bool m_mounted = false;
};

/// Writes zeros to `file` until the file system is full.
void fill(const std::filesystem::path& file) {
  std::ofstream out(file, std::ios::binary);
  const std::string block(64 * 1024, '\0');
  while (out.write(block.data(), static_cast<std::streamsize>(block.size())) && out.flush()) {
  }
}

json state_of(const judge_test::judge_server& server, const std::string& token, int id) {
  const auto r = server.client(token).Get(("/api/v1/submissions/" + std::to_string(id)).c_str());
  REQUIRE(r);
  REQUIRE(r->status == 200);
  return json::parse(r->body);
}

/// A matmul solution that takes seconds to compile (600 kernels to build), unique to this run so that
/// no build cache answers for it: the disk fills while it compiles.
std::string slow_source() {
  static const std::string stamp = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  return "// " + stamp +
         "\n#include <utility>\n"
         "template <int I> __global__ void many(float* x) { x[threadIdx.x] = x[threadIdx.x] * I + I; }\n"
         "template <int... I> void launch_all(float* x, std::integer_sequence<int, I...>) {\n"
         "  (many<I><<<1, 1>>>(x), ...);\n}\n"
         "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) {\n"
         "  launch_all(C, std::make_integer_sequence<int, 600>{});\n}\n";
}

std::string body(int n) {
  return json{
      {"problem", "matmul"},
      {"files", json::array({{{"name", "a.cu"}, {"content", "// " + std::to_string(n) + "\n" + slow_source()}}})}}
      .dump();
}
} // namespace

TEST_CASE("a full disk under the store is answered and never ends the server and every submission stays truthful",
          "[service][store]") {
  temp_folder dir;
  small_disk disk(dir / "small", "3m");
  if (!disk.mounted()) {
    WARN("skipped: cannot mount a tmpfs (needs root): " << std::strerror(errno));
    return;
  }
  const auto db = dir / "small" / "judge.db";
  const std::string alice = judge_test::add_account(db, "alice", "student");
  judge_test::judge_server server(db, {"--compile-threads", "1", "--per-minute", "100", "--queued-at-once", "100"});
  const auto first = server.client(alice).Post("/api/v1/submissions", body(1), "application/json");
  REQUIRE(first);
  REQUIRE(first->status == 202);
  // Full while the compile runs: its result cannot be recorded until there is room.
  for (int i = 0; i < 200 && state_of(server, alice, 1)["state"] == "queued"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  fill(dir / "small" / "filler");

  const auto refused = server.client(alice).Post("/api/v1/submissions", body(2), "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 503);
  CHECK(contains(refused->body, "disk is full"));
  CHECK_FALSE(refused->get_header_value("Retry-After").empty());

  // Reads go on, and the compile's end waits for room instead of ending the server.
  for (int i = 0; i < 600 && !contains(server.log(), "the store cannot be written"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  INFO(server.log());
  CHECK(contains(server.log(), "the store cannot be written"));
  CHECK(::kill(server.pid(), 0) == 0);
  CHECK(state_of(server, alice, 1)["state"] == "compiling");
  const auto list = server.client(alice).Get("/api/v1/submissions");
  REQUIRE(list);
  CHECK(list->status == 200);
  CHECK(json::parse(list->body).size() == 1); // the refused one was not queued

  std::filesystem::remove(dir / "small" / "filler");
  json settled;
  for (int i = 0; i < 300; ++i) {
    settled = state_of(server, alice, 1);
    if (settled["state"] == "done" || settled["state"] == "failed") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(settled["state"] == "done");
  CHECK(server.client(alice).Post("/api/v1/submissions", body(3), "application/json")->status == 202);
  CHECK(server.stop() == 0);
}
