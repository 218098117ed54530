// What the sandbox can do on this machine, found by starting one sandboxed child that does nothing:
// for `judge run --contest`, which grades only when every layer is in force.
#pragma once

#include "judge/sandbox/sandbox_layers.hpp"

namespace judge {

/// The layers a runner would get here now, each missing one with the system's reason.
sandbox_layers probe_sandbox_layers();

} // namespace judge
