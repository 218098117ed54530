// A mistake in how the judge was asked to do something: a path that is not there, an option out of range,
// a URL that is none. The command line says it and exits 2 (cli/cli.hpp, usage_or_spec_error); what()
// names what was wrong and what to give instead.
#pragma once

#include <stdexcept>

namespace judge {

class usage_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace judge
