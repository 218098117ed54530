// Nsight Compute's CSV, read back: `ncu --import FILE --csv --page raw` (one row per profiled kernel
// launch, one column per metric, a second row of units) and the long form that `--csv` prints by
// default (one row per launch and metric, "Metric Name", "Metric Unit", "Metric Value"). Pure text in,
// numbers out; which figures matter is profile_digest's business.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge {

/// One profiled kernel launch.
struct ncu_launch {
  std::string id;          ///< ncu's launch ID, in launch order
  std::string name;        ///< the kernel's name as ncu printed it (demangled, with its parameter list)
  std::string block, grid; ///< "(256, 1, 1)", as ncu printed them; "" when absent
  /// Every metric with a number, in SI base units: bytes, seconds, per second, %; counts as counted.
  /// A metric ncu printed as "n/a" or left empty is absent.
  std::map<std::string, double> metrics;
};

/// Thrown when the text has no header row of Nsight Compute's CSV.
struct ncu_csv_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Every launch in `text`, in order. Lines before the header (ncu's "==PROF==" and warning lines, a
/// learner's prints) are skipped. Throws ncu_csv_error when no header row is found.
std::vector<ncu_launch> parse_ncu_csv(const std::string& text);

/// The factor that turns a value in `unit` (as ncu prints units: "byte", "Kbyte", "nsecond",
/// "Gbyte/second", "cycle/usecond", "%") into SI base units; 1 for units without a scale.
double ncu_unit_scale(const std::string& unit);

} // namespace judge
