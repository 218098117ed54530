// For tests: the fake runner (fake_runner.cpp) started in one scenario, through a small script that the
// judge can start like any runner (`SCRIPT --scratch DIR [--banned NAMES]`).
#pragma once

#include "temp_folder.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace judge_test {

/// The runner to start for `scenario` (see fake_runner.cpp for the list), with `event_log` (when not empty)
/// as its --event-log.
inline std::filesystem::path fake_runner(const std::string& scenario, const std::filesystem::path& event_log = {}) {
  static const temp_folder scripts("fake-runners");
  const std::string name =
      "runner-" + scenario +
      (event_log.empty() ? "" : "-" + std::to_string(std::hash<std::string>{}(event_log.string())));
  const std::filesystem::path script = scripts.path() / name;
  if (!std::filesystem::exists(script)) {
    const std::string log_argument = event_log.empty() ? "" : " --event-log '" + event_log.string() + "'";
    std::ofstream(script) << "#!/bin/sh\nexec '" << JUDGE_FAKE_RUNNER << "' " << scenario << log_argument
                          << " \"$@\"\n";
    // Runnable by the unprivileged user a root judge's sandboxed children run as.
    std::filesystem::permissions(script, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                             std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                             std::filesystem::perms::others_exec);
  }
  return script;
}

} // namespace judge_test
