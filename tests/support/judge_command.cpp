#include "judge_command.hpp"

#include "catch.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace fs = std::filesystem;

namespace judge_test {

command_result run_judge(const std::string& args, const std::string& environment) {
  const std::string command =
      (environment.empty() ? "" : "env " + environment + " ") + JUDGE_CLI + " " + args + " 2>&1";
  command_result r;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  const int raw = ::pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

scratch_root::scratch_root() : dir(m_folder.path()) {
  fs::create_directories(dir / "solutions");
  fs::copy(fs::path(JUDGE_SOURCE_DIR) / "problems", dir / "problems", fs::copy_options::recursive);
  fs::copy(fs::path(JUDGE_SOURCE_DIR) / "testcases", dir / "testcases", fs::copy_options::recursive);
}

std::string scratch_root::environment() const {
  return "JUDGE_ROOT=" + dir.string() + " JUDGE_CACHE_DIR=" + (dir / "runner-cache").string();
}

void scratch_root::write(const fs::path& relative, const std::string& text) const {
  fs::create_directories((dir / relative).parent_path());
  std::ofstream(dir / relative) << text;
}

} // namespace judge_test
