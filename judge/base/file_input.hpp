// Reading a whole file into a string (sources, specs, templates, statements).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

namespace judge {

/// The bytes of `file`, unchanged. Throws std::runtime_error "cannot read <file>: <reason>" when it
/// cannot be opened or read.
std::string read_file(const std::filesystem::path& file);

/// The bytes of `file`, or nullopt when it cannot be opened or read; `error` then says why (and is
/// cleared on success), for callers that word the failure themselves.
std::optional<std::string> read_file(const std::filesystem::path& file, std::error_code& error);

} // namespace judge
