// The layers of the process sandbox, and which of them were in force for one child. Facts only: how
// they are worded is report/'s business, how they are stored the store's.
#pragma once

#include <string>
#include <vector>

namespace judge {

/// One defence of the sandbox. Each is in force or missing for a reason, independently of the others,
/// except that every other layer needs `namespaces`.
enum class sandbox_layer {
  namespaces,    ///< own user, network and mount namespaces (loopback only, mounts locked)
  pid_namespace, ///< own PID namespace: sees only its own processes, and all of them die with it
  private_root,  ///< a new root holding only the system (read-only) and the paths the judge named
  cgroup,        ///< own cgroup v2 leaf with memory.max, memory.swap.max = 0 and pids.max, killed at the end
};

/// Every layer, in the order reports name them.
inline constexpr sandbox_layer all_sandbox_layers[] = {sandbox_layer::namespaces, sandbox_layer::pid_namespace,
                                                       sandbox_layer::private_root, sandbox_layer::cgroup};

struct missing_layer {
  sandbox_layer layer;
  std::string reason; ///< the system's refusal, e.g. "clone: Operation not permitted"

  bool operator==(const missing_layer& other) const { return layer == other.layer && reason == other.reason; }
};

/// Which layers a sandboxed child had: every layer not listed as missing was in force.
struct sandbox_layers {
  std::vector<missing_layer> missing; ///< in the order of all_sandbox_layers

  bool on(sandbox_layer layer) const {
    for (const missing_layer& m : missing)
      if (m.layer == layer) return false;
    return true;
  }
  bool all_on() const { return missing.empty(); }
  /// Records `layer` as missing for `reason` (the first reason given for a layer is kept).
  void set_missing(sandbox_layer layer, std::string reason) {
    if (!on(layer)) return;
    auto at = missing.begin();
    while (at != missing.end() && at->layer < layer) ++at;
    missing.insert(at, {layer, std::move(reason)});
  }
  bool operator==(const sandbox_layers& other) const { return missing == other.missing; }
};

} // namespace judge
