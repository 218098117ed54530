#include "judge/sandbox/sandbox_probe.hpp"

#include "judge/sandbox/process.hpp"
#include "judge/sandbox/sandbox_limits.hpp"

#include <chrono>
#include <exception>

namespace judge {

sandbox_layers probe_sandbox_layers() {
  process_options options;
  options.argv = {"true"};
  options.env = child_environment();
  options.sandbox = true;
  // The limits of a runner, so that the cgroup layer is tried as for one.
  options.memory_bytes = sandbox_limits::runner::memory_bytes;
  options.max_pids = sandbox_limits::runner::max_pids;
  sandbox_layers layers;
  try {
    child_process child(options);
    layers = child.layers();
    child.wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  } catch (const std::exception& e) {
    for (sandbox_layer layer : all_sandbox_layers) layers.set_missing(layer, e.what());
  }
  return layers;
}

} // namespace judge
