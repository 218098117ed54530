// What Nsight Compute measured of one kernel launch, in the figures a learner reads (docs/profile.md):
// speed of light, occupancy, cache hit rates, global-access efficiency, shared-memory bank conflicts, the
// top warp-stall reasons and the kernel's point on the device's roofline. Pure arithmetic on the
// metrics of ncu_csv.hpp; a figure whose metrics are missing is "not measured" (nullopt), never guessed.
#pragma once

#include "judge/profile/ncu_csv.hpp"

#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The metrics `judge profile` and `judge run --explain` ask Nsight Compute for: each figure of the
/// digest and of the hint rules, nothing more (every metric can cost replay passes).
const std::vector<std::string>& profile_metrics();

/// One warp state and the share of a warp's cycles spent in it.
struct stall_share {
  std::string reason; ///< ncu's name: "long_scoreboard", "barrier", "mio_throttle", ...
  double share = 0;   ///< [fraction] of warp cycles (per issued instruction), over every state
};

/// Which roof of the roofline bounds a kernel at its arithmetic intensity.
enum class roof { dram_bandwidth, fp32_compute };

/// The device's roofs, when ncu's own peak metrics are missing (the judge's device probe has them).
struct roofline_peaks {
  double fp32_flops_per_s = 0;
  double dram_bytes_per_s = 0;
};

struct kernel_digest {
  std::string name; ///< as ncu printed it, demangled
  std::string grid, block;
  std::optional<double> duration_s;
  std::optional<double> compute_pct, memory_pct; ///< [% of peak] speed of light: SM and memory throughput
  std::optional<double> achieved_occupancy_pct, theoretical_occupancy_pct;
  std::optional<double> l1_hit_pct, l2_hit_pct;
  std::optional<double> load_sectors_per_request, store_sectors_per_request; ///< global, through L1
  /// [%] global sectors beyond what perfectly coalesced accesses of the same instructions would move
  std::optional<double> excess_global_sectors_pct;
  std::optional<double> shared_wavefronts; ///< shared-memory accesses (wavefronts), loads and stores; 0: unused
  std::optional<double> shared_load_conflicts, shared_store_conflicts; ///< bank conflicts (extra wavefronts)
  /// [%] of shared-memory wavefronts beyond the ideal (bank conflicts), loads and stores together
  std::optional<double> shared_conflict_pct;
  /// Every warp state that took cycles, largest first ("selected", issuing, is no stall and is left out);
  /// reports show the top 3.
  std::vector<stall_share> stalls;
  std::optional<double> flops; ///< FP32 adds, multiplies and 2 per FMA, by all threads
  std::optional<double> dram_bytes;
  std::optional<double> arithmetic_intensity; ///< [FLOP/B] flops / dram_bytes
  std::optional<double> achieved_flops_per_s;
  std::optional<roofline_peaks> peaks;
  std::optional<roof> bound_by;      ///< the roof at this intensity (the lower of the two)
  std::optional<double> pct_of_roof; ///< [%] achieved FLOP/s over that roof's FLOP/s at this intensity
  bool tensor_pipe_used = false; ///< the tensor pipes were busy 5% of cycles or more (their FLOPs are not in `flops`)
};

/// The digest of one launch; `device` stands in for ncu's peak metrics where they are missing.
kernel_digest digest_launch(const ncu_launch& launch, const std::optional<roofline_peaks>& device = std::nullopt);

/// Every launch of a report, in launch order.
std::vector<kernel_digest> digest_launches(const std::vector<ncu_launch>& launches,
                                           const std::optional<roofline_peaks>& device = std::nullopt);

/// The launch that ran longest (where the figures matter most); nullptr when there is none.
const kernel_digest* longest(const std::vector<kernel_digest>& kernels);

} // namespace judge
