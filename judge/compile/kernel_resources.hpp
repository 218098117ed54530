// What ptxas says each kernel of a solution uses (nvcc -Xptxas -v): registers, static shared memory,
// local memory and spills. Pure functions over ptxas's text, so they are tested on recorded output.
#pragma once

#include <string>
#include <vector>

namespace judge {

/// One kernel (an entry function) as ptxas compiled it for one architecture.
struct kernel_resources {
  std::string name;            ///< demangled ("matmul_tiled(float const*, float const*, float*, int, int, int)")
  std::string arch;            ///< "sm_90"
  int registers = 0;           ///< per thread
  int static_shared_bytes = 0; ///< [B] per block, __shared__ arrays of fixed size (not dynamic shared memory)
  int local_bytes = 0;         ///< [B] per thread: the stack frame (local arrays, spills, calls)
  int spill_store_bytes = 0;   ///< [B] per thread
  int spill_load_bytes = 0;    ///< [B] per thread

  bool operator==(const kernel_resources& o) const {
    return name == o.name && arch == o.arch && registers == o.registers &&
           static_shared_bytes == o.static_shared_bytes && local_bytes == o.local_bytes &&
           spill_store_bytes == o.spill_store_bytes && spill_load_bytes == o.spill_load_bytes;
  }
};

/// The kernels in `output` (nvcc's stdout and stderr of one or more units compiled with -Xptxas -v), in
/// the order ptxas compiled them. Device functions that are not kernels are left out; a kernel whose
/// "Used N registers" line is missing is left out too (the output was cut short).
std::vector<kernel_resources> parse_ptxas_resources(const std::string& output);

/// Whether `line` is one of ptxas's -v lines ("ptxas info    : ..." and the indented "N bytes stack
/// frame, ..." line after "Function properties for").
bool is_ptxas_info_line(const std::string& line);

/// `output` without ptxas's -v lines: what a learner sees of a failed compile.
std::string without_ptxas_info(const std::string& output);

/// Only ptxas's -v lines of `output`: what a build keeps with its cache entry.
std::string ptxas_info_only(const std::string& output);

} // namespace judge
