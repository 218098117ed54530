// An environment variable set for one scope, for tests of what the judge reads from the environment.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace judge_test {

/// Sets (or, given nullopt, unsets) an environment variable for one scope and restores it after.
class scoped_env {
public:
  scoped_env(std::string name, const std::optional<std::string>& value) : m_name(std::move(name)) {
    if (const char* old = std::getenv(m_name.c_str())) m_old = old;
    if (value)
      ::setenv(m_name.c_str(), value->c_str(), 1);
    else
      ::unsetenv(m_name.c_str());
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;
  ~scoped_env() {
    if (m_old)
      ::setenv(m_name.c_str(), m_old->c_str(), 1);
    else
      ::unsetenv(m_name.c_str());
  }

private:
  std::string m_name;
  std::optional<std::string> m_old;
};

} // namespace judge_test
