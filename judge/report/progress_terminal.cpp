#include "judge/report/progress_terminal.hpp"

#include <fmt/format.h>

#include <unistd.h>

namespace judge {

std::string progress_text(const run_progress& p) {
  switch (p.now) {
  case run_progress::step::none:
    return "";
  case run_progress::step::probing:
    return "probing the GPU ...";
  case run_progress::step::compiling:
    return fmt::format("compiling {}/{} ...", p.done, p.total);
  case run_progress::step::compiling_baseline:
    return "compiling the baseline ...";
  case run_progress::step::running:
    return fmt::format("{}: case {}/{} {} ...", p.who, p.done + 1, p.total, p.case_name);
  case run_progress::step::waiting_for_gpu:
    return fmt::format("waiting for the GPU: another judge is using it, {} ...", p.who);
  }
  return "";
}

run_progress_fn terminal_progress(std::FILE* stream) {
  if (!::isatty(::fileno(stream)))
    // Not a terminal (a log, a course's CI): no redrawn line, but a wait for the GPU is always said,
    // since it can last as long as another judge's whole run.
    return [stream](const run_progress& p) {
      if (p.now != run_progress::step::waiting_for_gpu) return;
      std::fprintf(stream, "judge: %s\n", progress_text(p).c_str());
      std::fflush(stream);
    };
  return [stream](const run_progress& p) {
    // Back to the start of the line and clear it, so a shorter text leaves nothing of a longer one.
    std::fprintf(stream, "\r\033[K%s", progress_text(p).c_str());
    std::fflush(stream);
  };
}

} // namespace judge
