#include "cli.hpp"

#include "compile.hpp"
#include "problem_spec.hpp"
#include "process.hpp"
#include "results_db.hpp"
#include "solution_files.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace judge::cli {

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const spec_error& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return usage_or_spec_error;
  } catch (const usage_error& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return usage_or_spec_error;
  } catch (const store_error& e) {
    std::fprintf(stderr, "judge: %s\n", e.what());
    return usage_or_spec_error;
  } catch (const std::exception& e) {
    kill_all_children();
    std::fprintf(stderr, "judge: internal error: %s\n", e.what());
    return internal_failure;
  }
}

} // namespace judge::cli
