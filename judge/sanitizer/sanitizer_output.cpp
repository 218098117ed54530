#include "judge/sanitizer/sanitizer_output.hpp"

#include <regex>
#include <sstream>

namespace judge {

namespace {

const std::string prefix = "========= ";

access_kind access_from(const std::string& word) {
  if (word == "read" || word == "Read") return access_kind::read;
  if (word == "write" || word == "Write") return access_kind::write;
  if (word == "atomic" || word == "Atomic") return access_kind::atomic;
  return access_kind::unknown;
}

memory_space space_from(const std::string& word) {
  if (word == "__global__") return memory_space::global;
  if (word == "__shared__") return memory_space::shared;
  if (word == "__local__") return memory_space::local;
  return memory_space::unknown;
}

std::uint64_t hex(const std::string& text) { return std::stoull(text, nullptr, 16); }

/// "4,000" → 4000: the tool writes sizes and distances with thousands separators.
std::uint64_t count(const std::string& text) {
  std::string digits;
  for (char c : text)
    if (c != ',') digits += c;
  return std::stoull(digits);
}

/// "kernel(args)+0x70 in /x/src/a.cu:23" (CUDA 12), "0x70 in /x/src/a.cu:23:kernel(args)" (CUDA 11),
/// "kernel(args)+0x70" (no line information): the kernel and the learner's line.
void read_location(const std::string& text, std::string& kernel, source_line& at) {
  static const std::regex file_line(R"(^(.+?):(\d+)(?::(.*))?$)");
  const std::size_t in = text.find(" in ");
  std::string left = in == std::string::npos ? text : text.substr(0, in);
  if (in != std::string::npos) {
    const std::string right = text.substr(in + 4);
    std::smatch m;
    if (std::regex_match(right, m, file_line)) {
      at = {learner_file(m[1]), std::stoi(m[2])};
      if (m[3].matched && kernel.empty()) kernel = m[3];
    } else if (kernel.empty() && left.rfind("0x", 0) == 0) {
      kernel = right; // "0x70 in kernel(args)": an offset, no line information
    }
  }
  if (left.rfind("0x", 0) == 0) return; // an offset only
  const std::size_t plus = left.rfind("+0x");
  if (plus != std::string::npos) left.erase(plus);
  if (kernel.empty()) kernel = left;
}

/// An error's first line, and whether it is one (lines such as "ERROR SUMMARY" are not).
struct headline_match {
  bool is_error = false;
  bool needs_place = false; ///< only an error if a body line says where ("at ..." or "by thread")
};

class parser {
public:
  parser(sanitizer_tool tool, const std::vector<judge_wire::buffer_place>& buffers, std::size_t kept)
      : m_tool(tool), m_buffers(buffers), m_kept(kept) {}

  void line(const std::string& raw) {
    if (raw.compare(0, prefix.size(), prefix) != 0) {
      if (raw == "=========") close(); // the blank separator between errors
      return;
    }
    const std::string text = raw.substr(prefix.size());
    if (text.empty()) return close();
    if (text[0] == ' ') return body(text.substr(text.find_first_not_of(' ')));
    headline(text);
  }

  sanitizer_findings finish() {
    close();
    return std::move(m_result);
  }

private:
  void headline(const std::string& text) {
    close();
    // "ERROR SUMMARY: 777777 errors" (a second "ERROR SUMMARY: N errors were not printed" line follows
    // when --print-limit cut the list); "RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)".
    static const std::regex summary(
        R"(^(?:ERROR SUMMARY: ([\d,]+) errors?|RACECHECK SUMMARY: ([\d,]+) hazards? displayed.*)$)");
    static const std::regex invalid(R"(^Invalid (\S+) (read|write|atomic) of size ([\d,]+) bytes?)");
    static const std::regex uninitialised(R"(^Uninitialized (\S+) memory read of size ([\d,]+) bytes?)");
    static const std::regex race(R"(^(?:Error|Warning): Race reported between (Read|Write) access at (.+)$)");
    static const std::regex api(R"re(^Program hit (\w+) \(error \d+\) due to "(.*)" on CUDA API call to (\w+))re");
    static const std::regex hardware(R"(^(?:Warp|Lane|Device|Misaligned|Out-of-range|Illegal)\b)");
    std::smatch m;
    if (std::regex_match(text, m, summary)) {
      m_result.summary_seen = true;
      m_result.errors = static_cast<int>(count(m[1].matched ? m[1] : m[2]));
      return;
    }
    sanitizer_finding f;
    f.tool = m_tool;
    f.headline = text;
    bool needs_place = false;
    if (std::regex_search(text, m, invalid)) {
      f.kind = sanitizer_error_kind::invalid_access;
      f.space = space_from(m[1]);
      f.access = access_from(m[2]);
      f.size = static_cast<int>(count(m[3]));
    } else if (std::regex_search(text, m, uninitialised)) {
      f.kind = sanitizer_error_kind::uninitialised_read;
      f.space = space_from(m[1]);
      f.access = access_kind::read;
      f.size = static_cast<int>(count(m[2]));
    } else if (std::regex_search(text, m, race)) {
      f.kind = sanitizer_error_kind::shared_race;
      f.space = memory_space::shared;
      f.access = access_from(m[1]);
      read_location(m[2], f.kernel, f.at);
    } else if (std::regex_search(text, m, api)) {
      f.kind = sanitizer_error_kind::cuda_api_error;
      f.api_error = m[1];
      f.api_call = m[3];
    } else if (std::regex_search(text, m, hardware)) {
      f.kind = sanitizer_error_kind::hardware_exception;
      needs_place = true;
    } else {
      f.kind = sanitizer_error_kind::other;
      needs_place = true;
    }
    m_open = std::move(f);
    m_needs_place = needs_place;
    m_has_place = false;
  }

  void body(const std::string& text) {
    if (!m_open) return;
    sanitizer_finding& f = *m_open;
    static const std::regex at(R"(^at (.+)$)");
    static const std::regex thread(R"(^by thread \((\d+), ?(\d+), ?(\d+)\) in block \((\d+), ?(\d+), ?(\d+)\))");
    // "Address 0x.." (initcheck), "Access to 0x.. is out of bounds" (memcheck, CUDA 13).
    static const std::regex address(R"(^(?:Address|Access to) (0x[0-9a-fA-F]+))");
    static const std::regex outside(
        R"(is ([\d,]+) bytes (after|before) the nearest allocation at (0x[0-9a-fA-F]+) of size ([\d,]+) bytes?)");
    static const std::regex inside(R"(is inside the nearest allocation at (0x[0-9a-fA-F]+) of size ([\d,]+) bytes?)");
    // A race's other access; a write may race with several reads, one line each: the first is kept and
    // the hazards of all are added up.
    static const std::regex other_access(R"(^and (Read|Write) access at (.+?)(?: \[([\d,]+) hazards?\])?$)");
    std::smatch m;
    if (text.rfind("Saved host backtrace", 0) == 0 || text.rfind("Host Frame", 0) == 0 ||
        text.rfind("Device Frame", 0) == 0)
      return;
    if (std::regex_search(text, m, other_access)) {
      if (f.other_access == access_kind::unknown) {
        f.other_access = access_from(m[1]);
        std::string ignored;
        read_location(m[2], ignored, f.other_at);
      }
      if (m[3].matched) f.hazards += static_cast<int>(std::min<std::uint64_t>(count(m[3]), 1u << 30));
    } else if (std::regex_search(text, m, at)) {
      if (f.at.file.empty() && f.kernel.empty()) read_location(m[1], f.kernel, f.at);
      m_has_place = true;
    } else if (std::regex_search(text, m, thread)) {
      f.thread = std::array<int, 3>{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
      f.block = std::array<int, 3>{std::stoi(m[4]), std::stoi(m[5]), std::stoi(m[6])};
      m_has_place = true;
    } else if (std::regex_search(text, m, address)) {
      f.address = hex(m[1]);
    }
    if (std::regex_search(text, m, outside)) {
      m_allocation = hex(m[3]);
      m_allocation_bytes = count(m[4]);
      f.relation = m[2] == "after" ? buffer_relation::after : buffer_relation::before;
      // The tool counts "after" from the allocation's last byte: a write to C[n] of an n-element C "is 1
      // bytes after" it (seen on the H200). The judge says how far past the end the access starts (0:
      // just past it), from the address where it has one; "before" is already that distance.
      const std::uint64_t counted = count(m[1]);
      if (f.relation == buffer_relation::after)
        f.distance = f.address && *f.address >= *m_allocation + m_allocation_bytes
                         ? *f.address - (*m_allocation + m_allocation_bytes)
                         : (counted > 0 ? counted - 1 : 0);
      else
        f.distance = counted;
    } else if (std::regex_search(text, m, inside)) {
      m_allocation = hex(m[1]);
      m_allocation_bytes = count(m[2]);
      f.relation = buffer_relation::inside;
    }
  }

  /// Names the buffer an address belongs to or missed: the sanitizer's nearest allocation when it is one
  /// of the judge's buffers, else the buffer of the map that holds the address or is nearest to it within
  /// 1 MiB. An address near none of them keeps only the sanitizer's nearest allocation when that is near
  /// too (the learner's own allocation); a wild pointer is placed nowhere.
  void place(sanitizer_finding& f) {
    constexpr std::uint64_t near_enough = 1u << 20;
    if (m_allocation) {
      for (const judge_wire::buffer_place& b : m_buffers)
        if (b.address == *m_allocation) {
          f.buffer = b.name;
          f.buffer_bytes = b.bytes;
          if (f.relation == buffer_relation::inside && f.address) f.distance = *f.address - b.address;
          return;
        }
    }
    if (!f.address || f.space == memory_space::shared || f.space == memory_space::local) return;
    if (m_allocation) {
      // Not one of the judge's buffers: said only when near (the learner's own allocation).
      if (f.relation == buffer_relation::inside || f.distance < near_enough)
        f.buffer_bytes = m_allocation_bytes;
      else
        f.relation = buffer_relation::unknown;
      if (f.relation != buffer_relation::unknown) return;
      f.distance = 0;
    }
    const std::uint64_t a = *f.address;
    const judge_wire::buffer_place* best = nullptr;
    std::uint64_t best_distance = near_enough;
    buffer_relation best_relation = buffer_relation::unknown;
    for (const judge_wire::buffer_place& b : m_buffers) {
      if (a >= b.address && a < b.address + b.bytes) {
        best = &b;
        best_relation = buffer_relation::inside;
        best_distance = a - b.address;
        break;
      }
      const std::uint64_t d = a >= b.address + b.bytes ? a - (b.address + b.bytes) : b.address - a;
      if (d < best_distance || (best == nullptr && d == 0)) {
        best = &b;
        best_distance = d;
        best_relation = a >= b.address + b.bytes ? buffer_relation::after : buffer_relation::before;
      }
    }
    if (!best) return;
    f.buffer = best->name;
    f.buffer_bytes = best->bytes;
    f.relation = best_relation;
    f.distance = best_distance;
  }

  void close() {
    if (!m_open) return;
    sanitizer_finding f = std::move(*m_open);
    m_open.reset();
    const bool counted = !m_needs_place || m_has_place;
    if (counted && f.kind != sanitizer_error_kind::shared_race && f.kind != sanitizer_error_kind::cuda_api_error)
      place(f);
    m_allocation.reset();
    m_allocation_bytes = 0;
    if (counted && m_result.findings.size() < m_kept) m_result.findings.push_back(std::move(f));
  }

  sanitizer_tool m_tool;
  const std::vector<judge_wire::buffer_place>& m_buffers;
  std::size_t m_kept;
  sanitizer_findings m_result;
  std::optional<sanitizer_finding> m_open;
  bool m_needs_place = false;
  bool m_has_place = false;
  std::optional<std::uint64_t> m_allocation;
  std::uint64_t m_allocation_bytes = 0;
};

} // namespace

const char* tool_name(sanitizer_tool tool) {
  switch (tool) {
  case sanitizer_tool::memcheck:
    return "memcheck";
  case sanitizer_tool::racecheck:
    return "racecheck";
  case sanitizer_tool::initcheck:
    return "initcheck";
  }
  return "memcheck";
}

std::optional<sanitizer_tool> tool_from_name(const std::string& name) {
  for (sanitizer_tool t : {sanitizer_tool::memcheck, sanitizer_tool::racecheck, sanitizer_tool::initcheck})
    if (name == tool_name(t)) return t;
  return std::nullopt;
}

bool sanitizer_finding::operator==(const sanitizer_finding& o) const {
  return tool == o.tool && kind == o.kind && space == o.space && access == o.access && size == o.size &&
         kernel == o.kernel && at == o.at && thread == o.thread && block == o.block && address == o.address &&
         buffer == o.buffer && buffer_bytes == o.buffer_bytes && relation == o.relation && distance == o.distance &&
         other_access == o.other_access && other_at == o.other_at && hazards == o.hazards && api_error == o.api_error &&
         api_call == o.api_call && headline == o.headline;
}

std::string learner_file(const std::string& path) {
  const std::size_t staging = path.find("/.tmp-");
  if (staging == std::string::npos) return path;
  const std::size_t src = path.find("/src/", staging);
  return src == std::string::npos ? path : path.substr(src + 5);
}

sanitizer_findings parse_sanitizer_output(sanitizer_tool tool, const std::string& text,
                                          const std::vector<judge_wire::buffer_place>& buffers, std::size_t kept) {
  parser p(tool, buffers, kept);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    p.line(line);
  }
  return p.finish();
}

std::vector<judge_wire::buffer_place> parse_buffer_map(const std::string& text) {
  std::vector<judge_wire::buffer_place> map;
  bool in_map = false;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto place = judge_wire::parse_buffer_map_line(line);
    if (!place) {
      in_map = false;
      continue;
    }
    if (!in_map) map.clear();
    in_map = true;
    map.push_back(*place);
  }
  return map;
}

} // namespace judge
