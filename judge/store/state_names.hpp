// The states of a queued submission and the roles of an account, and their names as the store's tables
// hold them (and the API shows them), spelled once beside the enums they name: the queue
// (service/queue/submission_queue.hpp) and the accounts (service/queue/accounts.hpp) use these enums, and
// the schema's CHECK constraints are made from these lists.
#pragma once

#include <array>
#include <cstddef>

namespace judge::store {

/// A queued submission's states: queued → compiling → compiled → running → done, or failed.
enum class submission_state { queued, compiling, compiled, running, done, failed };
/// Their names, indexed by submission_state.
inline constexpr std::array<const char*, 6> submission_state_names = {"queued",  "compiling", "compiled",
                                                                      "running", "done",      "failed"};
static_assert(submission_state_names.size() == static_cast<std::size_t>(submission_state::failed) + 1,
              "a name for every state");

/// An account's roles.
enum class account_role { student, instructor };
/// Their names, indexed by account_role.
inline constexpr std::array<const char*, 2> role_names = {"student", "instructor"};
static_assert(role_names.size() == static_cast<std::size_t>(account_role::instructor) + 1, "a name for every role");

} // namespace judge::store
