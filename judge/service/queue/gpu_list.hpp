// The GPUs `judge serve` gives a worker each: nvidia-smi's list (index, UUID, name), chosen by --gpus.
#pragma once

#include <string>
#include <vector>

namespace judge::service {

struct gpu_slot {
  int index = 0;
  std::string uuid; ///< "GPU-8f3e...": what CUDA_VISIBLE_DEVICES pins a worker to, whatever the numbering
  std::string name; ///< "NVIDIA H200"
  std::string cc;   ///< compute capability, "9.0"; "" when nvidia-smi is too old to say
};

/// Parses `nvidia-smi --query-gpu=index,uuid,name[,compute_cap] --format=csv,noheader` output (exposed for
/// tests). A name with a comma in it is not expected (NVIDIA's are not).
std::vector<gpu_slot> parse_gpu_list(const std::string& csv);

/// The GPUs chosen by `which`: "all", or indexes "0,1". An empty list when nvidia-smi is missing or
/// finds none (`why` then says so). Throws std::invalid_argument for a malformed `which` or an index
/// that is not present.
std::vector<gpu_slot> find_gpus(const std::string& which, std::string& why);

/// The compile targets of `gpus` (compile_target_of()), "90a,80" as JUDGE_ARCHS takes them; "" when one
/// is unknown.
std::string archs_of(const std::vector<gpu_slot>& gpus);

} // namespace judge::service
