#include "harness/call/process_watch.hpp"

#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

namespace judge_harness {
namespace {

int collect_object_name(dl_phdr_info* info, std::size_t, void* names) {
  if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0')
    static_cast<std::vector<std::string>*>(names)->emplace_back(info->dlpi_name);
  return 0; // keep iterating
}

} // namespace

std::vector<thread_entry> list_threads() {
  std::vector<thread_entry> threads;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", error)) {
    thread_entry thread;
    thread.tid = std::strtol(entry.path().filename().c_str(), nullptr, 10);
    // A thread may end between listing and reading; it then keeps an empty name.
    std::ifstream comm(entry.path() / "comm");
    std::getline(comm, thread.name);
    threads.push_back(std::move(thread));
  }
  return threads;
}

std::vector<std::string> threads_started_between(const std::vector<thread_entry>& before,
                                                 const std::vector<thread_entry>& after) {
  std::set<long> known;
  for (const thread_entry& t : before) known.insert(t.tid);
  std::vector<std::string> started;
  for (const thread_entry& t : after) {
    if (known.count(t.tid) != 0) continue;
    started.push_back((t.name.empty() ? std::string("thread") : t.name) + " (" + std::to_string(t.tid) + ")");
  }
  return started;
}

std::vector<loaded_library> loaded_banned_libraries(const std::vector<std::string>& banned) {
  std::vector<std::string> objects;
  dl_iterate_phdr(collect_object_name, &objects);
  std::vector<loaded_library> found;
  for (const std::string& path : objects) {
    const std::string file = std::filesystem::path(path).filename().string();
    for (const std::string& name : banned) {
      if (file.find("lib" + name + ".so") != std::string::npos) found.push_back({name, file});
    }
  }
  return found;
}

} // namespace judge_harness
