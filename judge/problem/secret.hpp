// The judge secret: the key of hidden cases' seeds (check_seed.hpp), so that their data cannot be
// predicted from the public cases.yaml. It lives outside the repository and never reaches a runner
// process; only seeds made from it do, and those do not reveal it.
#pragma once

#include <array>
#include <filesystem>
#include <vector>

namespace judge {

/// Where the secret is kept: $JUDGE_SECRET_FILE, else $XDG_CONFIG_HOME/gpu-judge/secret, else
/// ~/.config/gpu-judge/secret.
std::filesystem::path secret_path();

/// The judge's files that learner code (compiles, runners, tools under them) must never see, covered in
/// its sandbox: the secret, and the results store `store` with its -wal and -shm files where they exist
/// (other learners' sources and results). Files, not their folders: a folder could be /tmp, where the
/// runners' scratch folders live. `store` may be empty (no store).
std::vector<std::filesystem::path> hidden_from_learner_code(const std::filesystem::path& store = {});

/// The secret itself: 32 random bytes, kept whole (an HMAC key).
struct judge_secret {
  std::array<unsigned char, 32> bytes{};

  bool operator==(const judge_secret& other) const { return bytes == other.bytes; }
  bool operator!=(const judge_secret& other) const { return bytes != other.bytes; }
};

/// Reads the secret (64 hexadecimal digits), creating it (32 random bytes, mode 0600) on first use.
judge_secret load_or_create_secret(const std::filesystem::path& path);

} // namespace judge
