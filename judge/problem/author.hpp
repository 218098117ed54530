// Who wrote a solution: the name its results are filed and ranked under.
#pragma once

#include <filesystem>
#include <string>

namespace judge {

/// The author of `solution`, whose text is `source_text`. The first rule that applies wins:
///  1. a solution that is a folder (one folder per student, see solution_files.hpp): the folder's name;
///  2. a file directly inside such a folder, i.e. a path of the form `solutions/<problem>/<student>/<file>`:
///     `<student>` (unless that folder is named after a verdict, like `accepted/`: those hold example
///     submissions, not a student's work);
///  3. a line `// author: NAME` among the first 20 lines of the source ("author" in any case, spaces
///     around the colon allowed); NAME is trimmed and must not be empty. A hint for loose files only: in
///     a class folder the student's folder is the author, whatever a file of it says;
///  4. the file's stem: `solutions/matmul/alice.cu` is alice's.
/// Relative paths are read from the current directory; only rule 1 looks at the disk.
std::string author_from(const std::filesystem::path& solution, const std::string& source_text);

} // namespace judge
