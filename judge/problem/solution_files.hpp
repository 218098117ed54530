// Which solutions a grading run covers: files and folders named on the command line, or every entry of
// solutions/<problem>/. A class folder holds one solution per entry: a loose .cu file, or one folder per
// student whose .cu files (at any depth up to max_student_depth, layout kept) are compiled together.
// Every entry of a class folder is either a solution or a skipped_entry with its reason: nothing is
// dropped without a word.
#pragma once

#include "judge/base/usage_error.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge {

/// How many folders deep below a student's folder its .cu files may sit: `alice/a.cu` is depth 0,
/// `alice/src/a.cu` depth 1, `alice/src/kernels/tile/a.cu` depth 3. Deeper files are skipped (and listed).
constexpr int max_student_depth = 3;

struct solution_entry {
  std::filesystem::path source; ///< a .cu file, or a folder of .cu files
  std::string display;          ///< how reports name it
  std::string name;             ///< unique within the run (file stem or folder name)
};

/// Why an entry of a class folder (or of a student's folder) is not graded. Text is made in report/.
enum class skip_reason {
  not_cu,        ///< a file that is not CUDA source (README.md, notes.txt)
  upper_case_cu, ///< `s.CU`, `s.Cu`: nvcc knows CUDA source by the lower-case `.cu` only
  no_cu_files,   ///< a folder without any .cu file (within max_student_depth)
  too_deep,      ///< a .cu file more than max_student_depth folders below the student's folder
  broken_link,   ///< a symbolic link to something that does not exist
  link_loop,     ///< a symbolic link that leads back to itself
  folder_link,   ///< a symbolic link to a folder inside a student's folder (not followed)
  not_a_file,    ///< a device, socket or pipe
  unreadable,    ///< cannot be examined (permissions)
  /// `solutions/<problem>/example.cu`, the example shipped so that a fresh checkout has something to
  /// grade, beside a learner's own solutions: graded only when named
  shipped_example,
};

struct skipped_entry {
  std::filesystem::path path;
  skip_reason reason;
};

/// The solutions of a run and the entries that are not graded, each in name order.
struct solution_set {
  std::vector<solution_entry> solutions;
  std::vector<skipped_entry> skipped;
};

/// The name of the example solution shipped in solutions/<problem>/.
inline constexpr const char* shipped_example_name = "example.cu";

/// `set`, the solutions of solutions/<problem>/ graded by default, without the shipped example (moved to
/// the skipped entries) when the learner has solutions of their own beside it; alone, it is kept.
solution_set without_shipped_example(solution_set set);

/// `set` with each solution's display made relative to `folder` where it names a path inside it
/// (`/home/a/gpu-judge/solutions/matmul/alice.cu` → `solutions/matmul/alice.cu` from the checkout), as
/// the docs show them; paths outside it keep their spelling.
solution_set shown_from(solution_set set, const std::filesystem::path& folder);

/// Expands `paths`. A .cu file is one solution. A folder is a class folder (solutions_in()), unless it is
/// a student's folder inside a class folder the judge knows by its place: `solutions/<problem>/<student>/`
/// or `submissions/<verdict>/<name>/`; then it is one solution, exactly as when its class is graded.
/// Throws usage_error naming the path for a path that does not exist (a broken link or a link loop
/// included), a folder without any entry to grade or skip, a file that is not .cu, a name that is not
/// valid UTF-8, or two solutions with the same name. A folder whose entries are all skipped adds no
/// solution: the caller says why (the skipped entries).
solution_set collect_solutions(const std::vector<std::filesystem::path>& paths);

/// The entries of the class folder `folder`, in name order: each .cu file directly inside it is one
/// solution, each sub-folder holding .cu files is one student's solution, and everything else is
/// skipped with its reason. Names starting with '.' (.git, .DS_Store) are ignored. Throws usage_error
/// for a name that is not valid UTF-8 (results and reports could not name it).
solution_set solutions_in(const std::filesystem::path& folder);

/// Whether `folder` is one student's solution by its place (see collect_solutions()).
bool is_student_folder(const std::filesystem::path& folder);

/// The .cu files that make up the solution at `source`: the file itself, or the .cu files of the
/// folder up to max_student_depth folders down, in path order (empty when it has none). Symbolic links
/// to folders are not followed. What is left out is added to `skipped` when given.
std::vector<std::filesystem::path> solution_units(const std::filesystem::path& source,
                                                  std::vector<skipped_entry>* skipped = nullptr);

} // namespace judge
