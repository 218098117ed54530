// The names of states and roles as the store's tables hold them (and the API shows them), spelled once:
// the service's enums index these lists, and the schema's CHECK constraints are made from them.
#pragma once

#include <array>

namespace judge::store {

/// A queued submission's states, in the order of service::state (service/submission_queue.hpp).
inline constexpr std::array<const char*, 6> submission_state_names = {"queued",  "compiling", "compiled",
                                                                      "running", "done",      "failed"};

/// An account's roles, in the order of service::role (service/accounts.hpp).
inline constexpr std::array<const char*, 2> role_names = {"student", "instructor"};

} // namespace judge::store
