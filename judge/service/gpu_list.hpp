// The GPUs `judge serve` gives a worker each: nvidia-smi's list (index, UUID, name), chosen by --gpus.
#pragma once

#include <string>
#include <vector>

namespace judge::service {

struct gpu_slot {
  int index = 0;
  std::string uuid; ///< "GPU-8f3e...": what CUDA_VISIBLE_DEVICES pins a worker to, whatever the numbering
  std::string name; ///< "NVIDIA H200"
};

/// Parses `nvidia-smi --query-gpu=index,uuid,name --format=csv,noheader` output (exposed for tests).
std::vector<gpu_slot> parse_gpu_list(const std::string& csv);

/// The GPUs chosen by `which`: "all", or indexes "0,1". An empty list when nvidia-smi is missing or
/// finds none (`why` then says so). Throws std::invalid_argument for a malformed `which` or an index
/// that is not present.
std::vector<gpu_slot> find_gpus(const std::string& which, std::string& why);

} // namespace judge::service
