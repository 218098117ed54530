// Small read-only subcommands: list, show, device (cases: cli_cases.cpp).
#include "judge/cli/cli.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/install_layout.hpp"
#include "judge/compile/harness_targets.hpp"
#include "judge/problem/problem.hpp"
#include "judge/run/device_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace judge::cli {

namespace {
struct problem_flags {
  std::string problem;
};

int list(const context& ctx) {
  for (const auto& name : list_problems(ctx.where.problems())) {
    try {
      const problem_spec spec = load_problem(ctx.where.problems() / name);
      std::printf("%-16s %s\n  %s\n", name.c_str(), spec.title.c_str(), spec.solve_declaration().c_str());
    } catch (const spec_error& e) {
      std::printf("%-16s (broken spec: %s)\n", name.c_str(), e.what());
    }
  }
  return 0;
}

int show(const context& ctx, const problem_flags& f) {
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  std::printf("%s\nsignature: %s\n", read_file(spec.statement).c_str(), spec.solve_declaration().c_str());
  std::printf("tolerance: |got - ref| <= %g + %g*|ref|\n", spec.tolerance.atol, spec.tolerance.rtol);
  if (const auto& sum = spec.tolerance.sum) {
    std::string of;
    for (const std::string& name : sum->of) of += (of.empty() ? "" : "·") + ("max|" + name + "|");
    std::printf("  widened per case for a float sum of %s terms (%s%s%s; docs/problem-format.md)\n",
                sum->terms.text().c_str(),
                of.empty() ? "" : ("atol by allowance·" + std::string(sum->weighted ? "" : "terms·") + of).c_str(),
                !of.empty() && sum->relative ? ", " : "", sum->relative ? "rtol by allowance" : "");
  }
  bool ints = false;
  for (const parameter* p : spec.buffers())
    ints = ints || (p->is_result() && p->type == judge_data::element_type::int32);
  if (ints) std::printf("int outputs must equal the reference exactly\n");
  if (const auto& leetgpu = spec.leetgpu)
    std::printf("LeetGPU's tolerance: |ref - got| <= %g + %g*|got| (a wrong answer within it says so)\n", leetgpu->atol,
                leetgpu->rtol);
  return 0;
}

/// Whether the harness's kernels run as built on a GPU of compute capability `cc`, or are compiled from
/// PTX in every runner (a judge built for other GPUs: README, "Installing").
void say_harness_code(const std::string& cc) {
  const std::filesystem::path library = judge_layout().harness_library;
  std::vector<gpu_code> code;
  try {
    code = library_gpu_code(library);
  } catch (const std::exception& e) {
    std::printf("harness kernels: not read (%s)\n", e.what());
    return;
  }
  std::string built;
  bool as_built = false;
  for (const gpu_code& c : code) {
    if (!c.machine_code) continue;
    built += (built.empty() ? "sm_" : ", sm_") + std::to_string(c.target);
    as_built = as_built || runs_as_built(c.target, cc);
  }
  if (as_built) {
    std::printf("harness kernels: machine code for %s, run as built on this GPU\n", built.c_str());
    return;
  }
  std::string digits = cc;
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  std::printf("harness kernels: no machine code for this GPU (built for %s): every runner has the driver compile "
              "them from PTX at its first calls; build the judge with -DCMAKE_CUDA_ARCHITECTURES=\"%s\"\n",
              built.empty() ? "none" : built.c_str(), digits.c_str());
}

int device() {
  const probe_result p = probe_device(false);
  if (!p.device) {
    if (p.no_device)
      std::printf("no CUDA device: %s\n", p.error.c_str());
    else
      std::printf("no CUDA device: the GPU probe failed: %s\n", p.error.c_str());
    return no_gpu;
  }
  const device_info& d = *p.device;
  std::printf("%s: compute capability %s, %d SMs, L2 %.0f MB, SM clock up to %.0f MHz, FP32 peak %.0f GFLOPS, "
              "DRAM peak %.0f GB/s\n",
              d.name.c_str(), d.cc.c_str(), d.sms, static_cast<double>(d.l2_bytes) / 1e6, d.clock_max_mhz,
              d.fp32_peak_gflops, d.dram_peak_gbps);
  say_harness_code(d.cc);
  return 0;
}
} // namespace

void add_list(CLI::App& app, context& ctx) {
  add_command(app, ctx, "list", "list the problems", [&ctx] { return list(ctx); });
}

void add_show(CLI::App& app, context& ctx) {
  add_problem_command<problem_flags>(app, ctx, "show", "print a problem's statement and signature", show);
}

void add_device(CLI::App& app, context& ctx) {
  add_command(app, ctx, "device", "say which CUDA device the judge would use (exit 3 when none)", device);
}

} // namespace judge::cli
