// The judge secret: mixed into hidden cases' seeds so that their data cannot be predicted from the
// public cases.yaml. It lives outside the repository and never reaches a runner process.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace judge {

/// Where the secret is kept: $JUDGE_SECRET_FILE, else $XDG_CONFIG_HOME/gpu-judge/secret, else
/// ~/.config/gpu-judge/secret.
std::filesystem::path secret_path();

/// Reads the secret, creating it (32 random bytes, mode 0600) on first use.
std::uint64_t load_or_create_secret(const std::filesystem::path& path);

/// The seed the runner receives for a case: hidden cases mix in the secret and the case's name.
std::uint64_t effective_seed(std::uint64_t case_seed, const std::string& problem, const std::string& case_name,
                             bool hidden, std::uint64_t secret);

} // namespace judge
