// What solve() left behind in this process that the harness must see: threads still running after it
// returned (work they launch later would escape timing and checking), and banned libraries loaded
// (linked or dlopen'ed, e.g. cuBLAS in a problem that asks for a hand-written kernel).
#pragma once

#include <string>
#include <vector>

namespace judge_harness {

/// One thread of this process, from /proc/self/task.
struct thread_entry {
  long tid = 0;
  std::string name; ///< /proc/self/task/<tid>/comm
};

/// The threads of this process now.
std::vector<thread_entry> list_threads();

/// Threads in `after` that were not in `before`, as "name (thread id)". Names exempt nothing (a
/// solution can name its thread anything): `before` is the set the harness took once the CUDA driver
/// and CUPTI had started every helper thread of theirs, before the learner's object was loaded.
std::vector<std::string> threads_started_between(const std::vector<thread_entry>& before,
                                                 const std::vector<thread_entry>& after);

/// A banned library found among the loaded objects of this process.
struct loaded_library {
  std::string banned_name; ///< as given on the command line, e.g. "cublas"
  std::string file;        ///< the loaded file's name, e.g. "libcublas.so.13"
};

/// Loaded objects whose file name contains "lib<name>.so" for a name in `banned` (case-sensitive, so
/// "cublas" does not match libcublasLt.so).
std::vector<loaded_library> loaded_banned_libraries(const std::vector<std::string>& banned);

} // namespace judge_harness
