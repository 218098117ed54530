#include "judge/profile/ncu_csv.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace judge {
namespace {

/// The fields of one CSV line: comma-separated, optionally quoted, "" inside quotes for a quote.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

/// The value of a metric cell, or false when it holds no number ("n/a", "", text). ncu writes thousands
/// separators ("1,048,576") inside quoted cells.
bool number_of(std::string cell, double& value) {
  cell.erase(std::remove(cell.begin(), cell.end(), ','), cell.end());
  if (cell.empty()) return false;
  char* end = nullptr;
  value = std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size();
}

/// Time units as ncu names them, in seconds.
double time_scale(const std::string& unit) {
  if (unit == "nsecond" || unit == "ns") return 1e-9;
  if (unit == "usecond" || unit == "us") return 1e-6;
  if (unit == "msecond" || unit == "ms") return 1e-3;
  if (unit == "second" || unit == "s") return 1;
  return 0;
}

/// A unit without '/': a time, or a K/M/G/T-prefixed word ("Kbyte", "Gcycle"), or a plain word.
double simple_scale(const std::string& unit) {
  if (const double t = time_scale(unit)) return t;
  const bool short_bytes = unit.size() == 2 && unit[1] == 'B'; // "KB", "MB"
  if (unit.size() > 1 &&
      (short_bytes || std::islower(static_cast<unsigned char>(unit[1])) || unit.compare(1, 2, "Hz") == 0)) {
    switch (unit[0]) {
    case 'K':
      return 1e3;
    case 'M':
      return 1e6;
    case 'G':
      return 1e9;
    case 'T':
      return 1e12;
    default:
      break;
    }
  }
  return 1;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  const auto at = std::find(header.begin(), header.end(), name);
  return at == header.end() ? std::string::npos : static_cast<std::size_t>(at - header.begin());
}

std::string field(const std::vector<std::string>& row, std::size_t i) { return i < row.size() ? row[i] : ""; }

} // namespace

double ncu_unit_scale(const std::string& unit) {
  const std::size_t slash = unit.find('/');
  if (slash == std::string::npos) return simple_scale(unit);
  const double denominator = simple_scale(unit.substr(slash + 1));
  return simple_scale(unit.substr(0, slash)) / (denominator > 0 ? denominator : 1);
}

std::vector<ncu_launch> parse_ncu_csv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    std::vector<std::string> fields = csv_fields(line);
    if (column(fields, "ID") != std::string::npos && column(fields, "Kernel Name") != std::string::npos) {
      header = std::move(fields);
      break;
    }
  }
  if (header.empty()) throw ncu_csv_error("no Nsight Compute CSV header (a row naming \"ID\" and \"Kernel Name\")");
  const std::size_t id = column(header, "ID"), name = column(header, "Kernel Name");
  const std::size_t block = column(header, "Block Size"), grid = column(header, "Grid Size");
  const std::size_t metric_name = column(header, "Metric Name"), metric_unit = column(header, "Metric Unit"),
                    metric_value = column(header, "Metric Value");
  const bool long_form = metric_name != std::string::npos && metric_value != std::string::npos;
  // The columns before the first metric in the raw page: everything ncu says about the launch itself.
  const std::vector<std::string> launch_columns = {"ID",          "Process ID",  "Process Name", "Host Name",
                                                   "Kernel Name", "Kernel Time", "Context",      "Stream",
                                                   "Block Size",  "Grid Size",   "Device",       "CC"};
  std::vector<std::string> units(header.size());
  std::vector<ncu_launch> launches;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '"') continue; // ncu's own messages and a learner's prints
    const std::vector<std::string> row = csv_fields(line);
    if (field(row, id).empty()) { // the raw page's units row
      for (std::size_t i = 0; i < row.size() && i < units.size(); ++i) units[i] = row[i];
      continue;
    }
    if (launches.empty() || launches.back().id != field(row, id)) {
      launches.emplace_back();
      launches.back().id = field(row, id);
      launches.back().name = field(row, name);
      launches.back().block = field(row, block);
      launches.back().grid = field(row, grid);
    }
    ncu_launch& launch = launches.back();
    double value = 0;
    if (long_form) {
      if (number_of(field(row, metric_value), value))
        launch.metrics[field(row, metric_name)] = value * ncu_unit_scale(field(row, metric_unit));
      continue;
    }
    for (std::size_t i = 0; i < row.size() && i < header.size(); ++i) {
      if (std::find(launch_columns.begin(), launch_columns.end(), header[i]) != launch_columns.end()) continue;
      if (number_of(row[i], value)) launch.metrics[header[i]] = value * ncu_unit_scale(units[i]);
    }
  }
  return launches;
}

} // namespace judge
