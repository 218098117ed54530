// What the tests of the spec readers (problem_spec, test_cases, secret) share besides their scratch folder
// (temp_folder.hpp).
#pragma once

#include "temp_folder.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace spec_test {

/// what() of the `Error` that `action` throws, or a note that it threw nothing.
template <class Error, class Action> std::string message_of(Action&& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(nothing was thrown)";
}

} // namespace spec_test
