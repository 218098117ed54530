// One way to start a process: no source of the judge, the runner or common/ outside the process module
// forks, execs, spawns or goes through a shell. A tool is run with run_trusted_tool (tool_command.hpp), a
// child with child_process (process.hpp), the GPU worker as a helper_process; all three start their
// processes in the two files allowed below.
#include "catch.hpp"
#include "judge/base/file_input.hpp"

#include <cctype>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

/// The files of the process module that start processes.
const std::set<std::string> allowed = {"judge/sandbox/process_spawn.cpp", "judge/sandbox/helper_process.cpp"};

/// `text` with its comments and the contents of its string and character literals blanked out (line
/// breaks kept), so that a call named in a comment or a message ("called clone()") is not a call.
std::string code_only(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  auto keep_newlines = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < text.size(); ++k) out += text[k] == '\n' ? '\n' : ' ';
  };
  while (i < text.size()) {
    if (text.compare(i, 2, "//") == 0) {
      const std::size_t end = std::min(text.find('\n', i), text.size());
      keep_newlines(i, end);
      i = end;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = std::min(text.find("*/", i + 2), text.size() - 2) + 2;
      keep_newlines(i, end);
      i = end;
    } else if (text.compare(i, 2, "R\"") == 0 && (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
      const std::size_t open = text.find('(', i);
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = std::min(text.find(close, open), text.size() - close.size()) + close.size();
      out += "\"\"";
      keep_newlines(i + 2, end);
      i = end;
    } else if (text[i] == '"' || text[i] == '\'') {
      const char quote = text[i];
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != quote && text[end] != '\n') end += text[end] == '\\' ? 2 : 1;
      out += quote;
      keep_newlines(i + 1, end);
      out += quote;
      i = end + 1;
    } else {
      out += text[i++];
    }
  }
  return out;
}

/// "file:line: text" for each call in `code` that starts a process.
std::vector<std::string> process_starts(const std::string& name, const std::string& text) {
  static const std::regex call(
      R"(\b(fork|vfork|clone|clone3|posix_spawnp?|popen|system|execl|execle|execlp|execv|execve|execvp|execvpe|fexecve)\s*\(|\bSYS_clone3?\b)");
  std::vector<std::string> found;
  const std::string code = code_only(text);
  std::size_t line_start = 0;
  int line = 1;
  while (line_start < code.size()) {
    const std::size_t end = std::min(code.find('\n', line_start), code.size());
    const std::string code_line = code.substr(line_start, end - line_start);
    if (std::regex_search(code_line, call)) found.push_back(name + ":" + std::to_string(line) + ": " + code_line);
    line_start = end + 1;
    ++line;
  }
  return found;
}

} // namespace

TEST_CASE("the scan finds a process start in code and none in comments or strings", "[process]") {
  CHECK(process_starts("a.cpp", "  FILE* p = popen(cmd, \"r\");\n").size() == 1);
  CHECK(process_starts("a.cpp", "pid_t pid = ::fork();").size() == 1);
  CHECK(process_starts("a.cpp", "std::system (\"true\");").size() == 1);
  CHECK(process_starts("a.cpp", "execvp(argv[0], argv);").size() == 1);
  CHECK(process_starts("a.cpp", "::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);").size() == 1);
  CHECK(process_starts("a.cpp", "posix_spawnp(&pid, args[0], &actions, nullptr, args, environ);").size() == 1);
  CHECK(process_starts("a.cpp", "// the child calls fork() here\n/* or execve( */").empty());
  CHECK(process_starts("a.cpp", "message = \"solve() called clone(), which the judge forbids\";").empty());
  CHECK(process_starts("a.cpp", "std::regex r(R\"(fork\\(\\))\");").empty());
  CHECK(process_starts("a.cpp", "file_system(x); exec_program(plan); {\"fork\", match::name}").empty());
  CHECK(process_starts("a.cpp", "int a;\n\nfork();").front().rfind("a.cpp:3:", 0) == 0);
}

TEST_CASE("no source outside the process module starts a process", "[process]") {
  const fs::path root = JUDGE_SOURCE_DIR;
  std::vector<std::string> found;
  std::size_t scanned = 0;
  for (const char* folder : {"judge", "harness", "common"})
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || !(ext == ".cpp" || ext == ".hpp" || ext == ".h" || ext == ".cu" || ext == ".cuh"))
        continue;
      const std::string name = fs::relative(entry.path(), root).generic_string();
      ++scanned;
      if (allowed.count(name)) continue;
      for (const std::string& start : process_starts(name, judge::read_file(entry.path()))) found.push_back(start);
    }
  CHECK(scanned > 100); // the tree was found
  CAPTURE(found);
  CHECK(found.empty());
}

TEST_CASE("the files allowed to start processes exist and do start them", "[process]") {
  // An allowed file that no longer starts a process (moved, renamed) would leave a hole in the rule.
  for (const std::string& name : allowed) {
    CAPTURE(name);
    CHECK_FALSE(process_starts(name, judge::read_file(fs::path(JUDGE_SOURCE_DIR) / name)).empty());
  }
}
