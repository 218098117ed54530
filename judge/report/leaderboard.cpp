#include "judge/report/leaderboard.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/problem/case_set_version.hpp"
#include "judge/problem/problem.hpp"
#include "common/stats.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace judge {

namespace {

// The score is the geometric mean over these cases (see grading/grader.cpp), so they are the board's columns.
bool is_ranked(const case_result& c) { return c.hidden && c.timing && c.speed > 0; }

bool ranks_before(const solution_result* a, const solution_result* b) {
  if (a->score != b->score) return a->score > b->score;
  return a->graded_at < b->graded_at;
}

std::vector<board_case> board_cases(const std::vector<const solution_result*>& ranked) {
  std::vector<board_case> cases;
  std::map<std::string, std::vector<double>> baseline_speeds;
  for (const solution_result* r : ranked)
    for (const case_result& c : r->cases) {
      if (!is_ranked(c)) continue;
      auto same = [&](const board_case& b) { return b.name == c.name; };
      if (std::none_of(cases.begin(), cases.end(), same)) cases.push_back({c.name, c.shape, c.flops, c.bytes, 0});
      if (c.baseline_speed > 0) baseline_speeds[c.name].push_back(c.baseline_speed);
    }
  // Every grading run re-times the baseline; the median of those runs is the steadiest figure to draw.
  for (board_case& b : cases) b.baseline_speed = judge_stats::median(baseline_speeds[b.name]);
  return cases;
}

board_entry make_entry(const solution_result& r, const std::vector<board_case>& cases) {
  board_entry e;
  e.author = r.author;
  e.path = r.path;
  e.content_hash = r.content_hash;
  e.graded_at = r.graded_at;
  e.case_set = r.case_set;
  e.score = r.score;
  std::vector<double> intensities;
  for (const board_case& b : cases) {
    auto it = std::find_if(r.cases.begin(), r.cases.end(),
                           [&](const case_result& c) { return c.name == b.name && is_ranked(c); });
    if (it == r.cases.end()) {
      e.cells.emplace_back();
      continue;
    }
    e.cells.push_back(board_cell{it->speed, it->pct_of_baseline});
    intensities.push_back(it->bytes > 0 ? it->flops / it->bytes : 0);
  }
  // For a GB/s problem the score converts to GFLOPS through the same geometric mean:
  // geomean(flops_i / t_i) = geomean(bytes_i / t_i) × geomean(flops_i / bytes_i).
  e.intensity = judge_stats::geometric_mean(intensities);
  e.gflops = r.speed_unit == unit_name(speed_unit::gflops) ? r.score : r.score * e.intensity;
  return e;
}

leaderboard make_board(std::vector<const solution_result*> ranked) {
  std::stable_sort(ranked.begin(), ranked.end(), ranks_before);
  const solution_result* latest =
      *std::max_element(ranked.begin(), ranked.end(), [](auto* a, auto* b) { return a->graded_at < b->graded_at; });
  leaderboard board;
  board.problem = ranked.front()->problem;
  board.device = latest->device;
  board.speed_unit = latest->speed_unit;
  board.cases = board_cases(ranked);
  std::vector<double> baseline;
  for (const board_case& b : board.cases) baseline.push_back(b.baseline_speed);
  board.baseline_score = judge_stats::geometric_mean(baseline);
  for (const solution_result* r : ranked) {
    board.entries.push_back(make_entry(*r, board.cases));
    board.entries.back().rank = static_cast<int>(board.entries.size());
  }
  return board;
}

std::string number(double x) { return fmt::format("{:.1f}", x); }

/// An entry's case-set version, "*" marking one older than the problem's current cases.
std::string case_set_cell(const board_entry& e) { return case_set_label(e.case_set) + (e.older_cases ? "*" : ""); }

// fmt pads by characters, not bytes; author names may be any UTF-8.
std::size_t characters(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

} // namespace

std::vector<leaderboard> build_leaderboard(const std::vector<solution_result>& results) {
  // device name → author → that author's best result on it
  std::map<std::string, std::map<std::string, const solution_result*>> best;
  std::map<std::string, int> implausible; // device name → accepted results left out
  for (const solution_result& r : results) {
    if (r.v != verdict::accepted || r.score <= 0) continue;
    if (r.implausible) {
      ++implausible[r.device.name];
      continue;
    }
    const solution_result*& kept = best[r.device.name][r.author];
    if (kept == nullptr || ranks_before(&r, kept)) kept = &r;
  }
  std::map<std::string, std::vector<const solution_result*>> by_device;
  for (const auto& [device, authors] : best)
    for (const auto& [author, r] : authors) by_device[device].push_back(r);
  std::vector<leaderboard> boards;
  for (auto& [device, ranked] : by_device) {
    boards.push_back(make_board(std::move(ranked)));
    boards.back().implausible_left_out = implausible[device];
  }
  return boards;
}

std::vector<leaderboard> build_leaderboard(results_db& db, const std::string& problem) {
  std::vector<solution_result> results = db.best_accepted(problem);
  for (solution_result& r : db.implausible_accepted(problem)) results.push_back(std::move(r)); // only counted
  return build_leaderboard(results);
}

std::string parse_before(const std::string& text) {
  const auto matches = [&](const std::string& pattern) { return fits_time_pattern(text, pattern); };
  std::string t;
  if (matches("dddd-dd-dd"))
    t = text + "T00:00:00Z";
  else if (matches("dddd-dd-ddTdd:dd") || matches("dddd-dd-ddTdd:ddZ"))
    t = text.substr(0, 16) + ":00Z";
  else if (matches("dddd-dd-ddTdd:dd:dd") || matches("dddd-dd-ddTdd:dd:ddZ"))
    t = text.substr(0, 19) + "Z";
  else
    throw std::invalid_argument("'" + text + "' is not a date: give YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC)");
  t[10] = 'T';
  const int month = std::stoi(t.substr(5, 2)), day = std::stoi(t.substr(8, 2));
  const int hour = std::stoi(t.substr(11, 2)), minute = std::stoi(t.substr(14, 2)), second = std::stoi(t.substr(17, 2));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    throw std::invalid_argument("'" + text + "' is not a valid date and time (UTC)");
  return t;
}

/// Where an author has results graded on the current cases (a solution not run counts for nothing), their
/// results on older cases no longer rank: a rejudge's grades replace them, the store keeps both.
std::vector<solution_result> current_grades_first(std::vector<solution_result> results, const std::string& current) {
  if (current.empty()) return results;
  std::set<std::string> regraded;
  for (const solution_result& r : results)
    if (r.case_set == current && !r.compiled_only) regraded.insert(r.author);
  results.erase(std::remove_if(results.begin(), results.end(),
                               [&](const solution_result& r) { return r.case_set != current && regraded.count(r.author); }),
                results.end());
  return results;
}

std::vector<leaderboard> build_leaderboard(const std::vector<solution_result>& all, const board_filter& filter) {
  std::vector<solution_result> kept;
  for (const solution_result& r : all)
    if (filter.before.empty() || r.graded_at < filter.before) kept.push_back(r);
  kept = current_grades_first(std::move(kept), filter.current_case_set);
  if (filter.latest) {
    // device name → author → the latest graded; among equal times the later stored (the store gives
    // oldest first, and a stable order keeps that).
    std::map<std::string, std::map<std::string, const solution_result*>> latest;
    for (const solution_result& r : kept) {
      const solution_result*& last = latest[r.device.name][r.author];
      if (last == nullptr || !(r.graded_at < last->graded_at)) last = &r;
    }
    std::vector<solution_result> only_latest;
    for (const auto& [device, authors] : latest)
      for (const auto& [author, r] : authors) only_latest.push_back(*r);
    kept = std::move(only_latest);
  }
  std::vector<leaderboard> boards = build_leaderboard(kept);
  if (!filter.current_case_set.empty())
    for (leaderboard& b : boards)
      for (board_entry& e : b.entries) e.older_cases = e.case_set != filter.current_case_set;
  if (filter.anonymise) {
    // Numbered by first submission to the problem over the whole store, filters aside, so that a
    // student keeps their number from one published board to the next.
    std::vector<const solution_result*> by_time;
    for (const solution_result& r : all) by_time.push_back(&r);
    std::stable_sort(by_time.begin(), by_time.end(), [](auto* a, auto* b) { return a->graded_at < b->graded_at; });
    std::map<std::string, std::string> pseudonym;
    for (const solution_result* r : by_time)
      if (!pseudonym.count(r->author)) pseudonym[r->author] = fmt::format("student {}", pseudonym.size() + 1);
    for (leaderboard& b : boards)
      for (board_entry& e : b.entries) {
        e.author = pseudonym.at(e.author);
        // A path names the author's file or folder; a content hash lets whoever holds a file find its entry.
        e.path.clear();
        e.content_hash.clear();
      }
  }
  return boards;
}

std::vector<leaderboard> build_leaderboard(results_db& db, const std::string& problem, const board_filter& filter) {
  // Unfiltered, the store picks the bests itself and nothing else is loaded.
  if (filter.before.empty() && !filter.latest && !filter.anonymise && filter.current_case_set.empty())
    return build_leaderboard(db, problem);
  return build_leaderboard(db.results_for(problem), filter);
}

const std::string older_cases_note =
    "* graded on older cases than the problem's current ones (`judge rejudge` grades them again)";

std::string peaks_text(const leaderboard& b) {
  const device_info& d = b.device;
  if (d.dram_peak_gbps > 0)
    return fmt::format("fp32 peak {:.0f} GFLOPS, DRAM peak {:.0f} GB/s (copy measured {:.0f} GB/s)", d.fp32_peak_gflops,
                       d.dram_peak_gbps, d.measured_bandwidth_gbps);
  return fmt::format("fp32 peak {:.0f} GFLOPS, measured bandwidth {:.0f} GB/s", d.fp32_peak_gflops,
                     d.measured_bandwidth_gbps);
}

std::string implausible_note(const leaderboard& b) {
  if (b.implausible_left_out == 0) return "";
  return fmt::format("not ranked: {} accepted result(s) timed below what this GPU can physically do, flagged for "
                     "the instructor (the store keeps their figures)",
                     b.implausible_left_out);
}

double pct_of_baseline_score(const leaderboard& board, const board_entry& entry) {
  return board.baseline_score > 0 ? 100.0 * entry.score / board.baseline_score : 0;
}

std::string leaderboard_text(const std::string& problem, const std::vector<leaderboard>& boards) {
  if (boards.empty()) return fmt::format("No accepted, timed results for {} yet.\n", problem);
  std::string out;
  for (const leaderboard& b : boards) {
    std::size_t author_width = 8;
    for (const board_entry& e : b.entries) author_width = std::max(author_width, characters(e.author));
    const std::string score_header = "score " + b.speed_unit;
    out += fmt::format("{} on {} (cc {}): {}\n", problem, b.device.name, b.device.cc, peaks_text(b));
    out += fmt::format("{:>4}  {:<{}}  {:>14}  {:>10}  {:<20}  {:<13}  {}\n", "rank", "author", author_width,
                       score_header, "% baseline", "graded at", "cases", "path");
    bool older = false;
    for (const board_entry& e : b.entries) {
      const std::string pct = b.baseline_score > 0 ? number(pct_of_baseline_score(b, e)) + "%" : "-";
      out += fmt::format("{:>4}  {:<{}}  {:>14}  {:>10}  {:<20}  {:<13}  {}\n", e.rank, e.author, author_width,
                         number(e.score), pct, e.graded_at, case_set_cell(e), e.path);
      older = older || e.older_cases;
    }
    if (older) out += older_cases_note + "\n";
    if (b.baseline_score > 0)
      out += fmt::format("{:>4}  {:<{}}  {:>14}  {:>10}\n", "-", "baseline", author_width, number(b.baseline_score),
                         "100.0%");
    if (b.implausible_left_out > 0) out += implausible_note(b) + "\n";
    out += "\n";
  }
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string leaderboard_csv(const std::vector<leaderboard>& boards) {
  // RFC 4180 ends records with CRLF.
  std::string out = "device,cc,rank,author,score,speed_unit,pct_of_baseline_score,graded_at,path,case,speed,"
                    "baseline_speed,pct_of_baseline\r\n";
  for (const leaderboard& b : boards)
    for (const board_entry& e : b.entries)
      for (std::size_t k = 0; k < b.cases.size(); ++k) {
        if (!e.cells[k]) continue;
        // 10 significant digits: all a timing holds, without floating-point noise like 35.00000000000003.
        out += fmt::format("{},{},{},{},{:.10g},{},{:.10g},{},{},{},{:.10g},{:.10g},{:.10g}\r\n",
                           csv_field(b.device.name), csv_field(b.device.cc), e.rank, csv_field(e.author), e.score,
                           csv_field(b.speed_unit), pct_of_baseline_score(b, e), csv_field(e.graded_at),
                           csv_field(e.path), csv_field(b.cases[k].name), e.cells[k]->speed, b.cases[k].baseline_speed,
                           e.cells[k]->pct_of_baseline);
      }
  return out;
}

std::string leaderboard_json(const std::string& problem, const std::vector<leaderboard>& boards) {
  nlohmann::json doc = {{"problem", problem}, {"boards", nlohmann::json::array()}};
  for (const leaderboard& b : boards) {
    nlohmann::json board = {{"device",
                             {{"name", b.device.name},
                              {"cc", b.device.cc},
                              {"fp32_peak_gflops", b.device.fp32_peak_gflops},
                              {"measured_bandwidth_gbps", b.device.measured_bandwidth_gbps},
                              {"dram_peak_gbps", b.device.dram_peak_gbps}}},
                            {"speed_unit", b.speed_unit},
                            {"baseline_score", b.baseline_score},
                            {"implausible_left_out", b.implausible_left_out},
                            {"cases", nlohmann::json::array()},
                            {"entries", nlohmann::json::array()}};
    for (const board_case& c : b.cases)
      board["cases"].push_back({{"name", c.name},
                                {"shape", c.shape},
                                {"flops", c.flops},
                                {"bytes", c.bytes},
                                {"baseline_speed", c.baseline_speed}});
    for (const board_entry& e : b.entries) {
      nlohmann::json cells = nlohmann::json::array();
      for (const auto& cell : e.cells)
        cells.push_back(cell ? nlohmann::json{{"speed", cell->speed}, {"pct_of_baseline", cell->pct_of_baseline}}
                             : nlohmann::json(nullptr));
      board["entries"].push_back({{"rank", e.rank},
                                  {"author", e.author},
                                  {"path", e.path},
                                  {"content_hash", e.content_hash},
                                  {"graded_at", e.graded_at},
                                  {"case_set", e.case_set},
                                  {"older_cases", e.older_cases},
                                  {"score", e.score},
                                  {"pct_of_baseline_score", pct_of_baseline_score(b, e)},
                                  {"intensity", e.intensity},
                                  {"gflops", e.gflops},
                                  {"cases", std::move(cells)}});
    }
    doc["boards"].push_back(std::move(board));
  }
  // `// author:` lines are not checked for UTF-8; a stray byte must not lose the whole board.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace judge
