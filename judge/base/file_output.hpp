// Writing a report or page that something else may be reading (a course's CI, a web server).
#pragma once

#include <filesystem>
#include <string>

namespace judge {

/// Writes `text` to `path`, creating its folders, through a temporary file renamed into place, so that
/// a reader sees the old file or the new one, never half of one. Throws std::runtime_error naming
/// `what` ("the JUnit report") and the path when it cannot.
void write_file_atomically(const std::filesystem::path& path, const std::string& text, const std::string& what);

} // namespace judge
