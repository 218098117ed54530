#include "catch.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include "judge/report/report_json.hpp"
#include "judge/service/web/web_pages.hpp"

#include <regex>

using namespace judge::service;
using judge::solution_result;
using judge::verdict;
using judge_test::contains;

namespace {
account student(const std::string& name = "alice") { return {1, name, role::student, "2025-03-01T09:00:00Z"}; }

submission queued_submission() {
  submission s;
  s.id = 17;
  s.account = "alice";
  s.problem = "matmul";
  s.files = {{"alice.cu", "__global__ void k() { if (a < b) {} }"}};
  s.now = state::queued;
  s.submitted_at = "2025-03-01T10:00:00Z";
  return s;
}

/// Every tag a page opens that must be closed is closed, in order: a page whose markup is broken by a
/// string it shows would fail here.
bool balanced(const std::string& page) {
  static const std::regex tag("<(/?)(html|head|body|main|header|nav|ul|li|form|table|thead|tbody|tr|th|td|dl|dt|dd|"
                              "p|div|pre|code|section|details|summary|h[1-6]|span|a|button|label|textarea|"
                              "caption|strong)\\b[^>]*>");
  std::vector<std::string> open;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), tag); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[2];
    if ((*it)[1].length() == 0) {
      open.push_back(name);
    } else {
      if (open.empty() || open.back() != name) return false;
      open.pop_back();
    }
  }
  return open.empty();
}
} // namespace

TEST_CASE("the sign-in page has a labelled password field and says what went wrong", "[web]") {
  const std::string page = signin_page("That token is not known here.");
  CHECK(contains(page, "<label for=\"token\">"));
  CHECK(contains(page, "type=\"password\" id=\"token\" name=\"token\""));
  CHECK(contains(page, "action=\"/signin\""));
  CHECK(contains(page, "role=\"alert\">That token is not known here."));
  CHECK_FALSE(contains(page, "Sign out"));
  CHECK(balanced(page));
}

TEST_CASE("every page of a signed-in account names it and offers to sign out", "[web]") {
  const std::string page = problems_page(student(), {{"matmul", "Matrix multiply", "GFLOPS", 2}});
  CHECK(contains(page, "Signed in as <strong>alice</strong> (student)"));
  CHECK(contains(page, "action=\"/signout\""));
  CHECK(contains(page, "href=\"/problems/matmul\""));
  CHECK(contains(page, "href=\"/board/matmul\""));
  CHECK(contains(page, "<link rel=\"stylesheet\" href=\"/assets/web.css\">"));
  CHECK(balanced(page));
}

TEST_CASE("no page refers to anything outside the server", "[web]") {
  const std::string pages = signin_page("") + problems_page(student(), {{"matmul", "M", "GFLOPS", 2}}) +
                            board_page(student(), "matmul", {}) + history_page(student(), {queued_submission()}, false);
  CHECK_FALSE(contains(pages, "http://"));
  CHECK_FALSE(contains(pages, "https://"));
  CHECK_FALSE(contains(pages, "src=\"//"));
}

TEST_CASE("names that came from users are escaped on every page", "[web]") {
  const account mallory = student("<b>mallory</b>");
  submission s = queued_submission();
  s.account = mallory.name;
  s.files = {{"x.cu", "</textarea><script>alert(1)</script>"}};
  const std::string pages =
      submission_page(mallory, s, std::nullopt, "cuBLAS") + history_page(mallory, {s}, true) +
      submit_page(mallory, {"matmul", "x.cu", "</textarea><script>alert(1)</script>", "", 8, 1024});
  CHECK_FALSE(contains(pages, "<b>mallory"));
  CHECK_FALSE(contains(pages, "<script>alert"));
  CHECK(contains(pages, "&lt;b&gt;mallory&lt;/b&gt;"));
}

TEST_CASE("a problem page shows the statement and the signature and links to submit and to the board", "[web]") {
  const problem_view view{{"matmul", "Matrix multiply", "GFLOPS", 2},
                          "<p>Compute C.</p>\n",
                          "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K)"};
  const std::string page = problem_page(student(), view);
  CHECK(contains(page, "<h1>matmul: Matrix multiply</h1>"));
  CHECK(contains(page, "<p>Compute C.</p>"));
  CHECK(contains(page, "extern &quot;C&quot; void solve(const float* A"));
  CHECK(contains(page, "href=\"/problems/matmul/submit\""));
  CHECK(balanced(page));
}

TEST_CASE("the submit page is prefilled with the starter and takes uploads", "[web]") {
  const std::string page = submit_page(student(), {"matmul", "solution.cu", "#include <cstdio>\n", "", 8, 262144});
  CHECK(contains(page, "enctype=\"multipart/form-data\""));
  CHECK(contains(page, "<textarea id=\"source\" name=\"source\""));
  CHECK(contains(page, "#include &lt;cstdio&gt;"));
  CHECK(contains(page, "type=\"file\" id=\"files\" name=\"files\" multiple"));
  CHECK(contains(page, "up to 8 files"));
  CHECK(contains(page, "256 KiB"));
  CHECK(balanced(page));
}

TEST_CASE("a submission being graded shows its state live and no result yet", "[web]") {
  const std::string page = submission_page(student(), queued_submission(), std::nullopt, "cuBLAS");
  CHECK(contains(page, "data-submission=\"17\" data-state=\"queued\""));
  CHECK(contains(page, "id=\"state\" class=\"state queued\" aria-live=\"polite\""));
  CHECK(contains(page, "<script src=\"/assets/submission.js\" defer></script>"));
  CHECK(contains(page, "<summary>alice.cu</summary>"));
  CHECK(contains(page, "if (a &lt; b)"));
  CHECK_FALSE(contains(page, "<h2>Result</h2>"));
  CHECK(balanced(page));
}

TEST_CASE("a graded submission shows the terminal report's case table", "[web]") {
  submission s = queued_submission();
  s.now = state::done;
  s.gpu = "GPU-1234 NVIDIA H200";
  const solution_result r = judge::testing::accepted_result("alice", 15000);
  const std::string page = submission_page(student(), s, r, "cuBLAS");
  CHECK(contains(page, "Verdict: <span class=\"verdict AC\">AC</span>"));
  CHECK(contains(page, "score <strong>15000.0 GFLOPS</strong>"));
  for (const char* column : {"case", "shape", "median", "GFLOPS", "% cuBLAS", "% peak", "noise", "±median", "n"})
    CHECK(contains(page, std::string("<th scope=\"col\">") + column + "</th>"));
  CHECK(contains(page, "sample_2x3x2 <span class=\"hint\">(sample)</span>"));
  CHECK(contains(page, "square_1024"));
  CHECK(contains(page, "<td class=\"num\">75.0%</td>")); // 15000 of the baseline's 20000
  CHECK(contains(page, "<td class=\"num\">120</td>"));
  CHECK(contains(page, "GPU-1234 NVIDIA H200"));
  CHECK(balanced(page));
}

TEST_CASE("a wrong answer shows which case failed and how", "[web]") {
  const std::string text = result_html(judge::testing::wrong_result("bob"), "cuBLAS");
  CHECK(contains(text, "<span class=\"verdict WA\">WA</span>"));
  CHECK(contains(text, "7 of 1048576 elements of C are wrong"));
  CHECK(contains(text, "What went wrong"));
}

TEST_CASE("a compile error shows the compiler's messages and no table", "[web]") {
  solution_result r = judge::testing::accepted_result("erin", 1);
  r.v = verdict::compile_error;
  r.message = "alice.cu(5): error: identifier \"x\" is undefined";
  r.cases.clear();
  const std::string text = result_html(r, "cuBLAS");
  CHECK(contains(text, "Compiler messages"));
  CHECK(contains(text, "alice.cu(5): error: identifier &quot;x&quot; is undefined"));
  CHECK_FALSE(contains(text, "<table"));
}

TEST_CASE("a result page shows the kernels with their hints and the sanitizer's findings", "[web]") {
  solution_result r = judge::testing::wrong_result("bob");
  judge::kernel_resources k;
  k.name = "void (anonymous namespace)::matmul_tc<64, 64>(float const*, float const*, float*, int, int, int)";
  k.arch = "sm_90";
  k.registers = 178;
  r.kernels.push_back(k);
  judge::sanitizer_finding f;
  f.kind = judge::sanitizer_error_kind::invalid_access;
  f.access = judge::access_kind::write;
  f.size = 4;
  f.kernel = "one_past(float *, int)";
  f.at = {"writes_past_end.cu", 21};
  judge::sanitizer_run run;
  run.errors = 1;
  run.findings.push_back(f);
  r.cases.front().sanitizer.push_back(run);
  const std::string text = result_html(r, "cuBLAS");
  CHECK(contains(text, "Kernels and hints"));
  CHECK(contains(text, "matmul_tc&lt;64, 64&gt; (sm_90): 178 registers"));
  CHECK(contains(text, "compute-sanitizer on " + r.cases.front().name));
  CHECK(contains(text, "writes_past_end.cu:21"));
}

TEST_CASE("a solution compiled but not run says there was no CUDA device", "[web]") {
  solution_result r;
  r.compiled_only = true;
  CHECK(contains(result_html(r, "cuBLAS"), "compiled, not run: no CUDA device"));
}

TEST_CASE("a solution compiled but not run shows what ptxas said as the terminal does", "[web]") {
  solution_result r;
  r.compiled_only = true;
  r.kernels.push_back({"tiled(float const*, float*)", "sm_90", 40, 8192, 0, 0, 0});
  const std::string html_text = result_html(r, "cuBLAS");
  CHECK(contains(html_text, "kernels (ptxas)"));
  CHECK(contains(html_text, "40 registers, 8192 B shared"));
}

TEST_CASE("a submission's files are shown with line numbers and nothing else added to the code", "[web]") {
  submission s = queued_submission();
  s.files = {{"a.cu", "line one\nline <two>\n\nline four"}};
  const std::string page = submission_page(student(), s, std::nullopt, "cuBLAS");
  CHECK(contains(page, "<ol class=\"source\"><li><code>line one</code></li><li><code>line &lt;two&gt;</code></li>"
                       "<li><code></code></li><li><code>line four</code></li></ol>"));
  CHECK(balanced(page));
}

TEST_CASE("the submit page shows the signature solve() must have", "[web]") {
  const std::string page = submit_page(student(), {"matmul", "solution.cu", "", "", 8, 262144,
                                                   "extern \"C\" void solve(const float* A, float* C, int n);"});
  CHECK(contains(page, "<h2>Signature</h2>"));
  CHECK(contains(page, "extern &quot;C&quot; void solve(const float* A, float* C, int n);"));
  CHECK(balanced(page));
}

TEST_CASE("every page names the judge's icon and the board says why it stays empty without a GPU", "[web]") {
  CHECK(contains(signin_page(""), "<link rel=\"icon\" href=\"/assets/favicon.svg\""));
  const std::string page = board_page(student(), "matmul", {}, "This server has no GPU (nvidia-smi not found): ...");
  CHECK(contains(page, "This server has no GPU (nvidia-smi not found)"));
  CHECK_FALSE(contains(board_page(student(), "matmul", {}), "no GPU"));
}

TEST_CASE("a failed submission says the judge could not grade it and why", "[web]") {
  submission s = queued_submission();
  s.now = state::failed;
  s.error = "the runner could not be built";
  const std::string page = submission_page(student(), s, std::nullopt, "cuBLAS");
  CHECK(contains(page, "not your solution's fault): the runner could not be built"));
  CHECK(contains(page, "class=\"state failed\""));
}

TEST_CASE("the board page shows the leaderboard's boards and refreshes them", "[web]") {
  auto boards = judge::build_leaderboard(std::vector<solution_result>{judge::testing::accepted_result("alice", 15000),
                                                                      judge::testing::accepted_result("bob", 9000)});
  const std::string page = board_page(student(), "matmul", boards);
  CHECK(contains(page, "<div id=\"boards\">"));
  CHECK(contains(page, "<table class=\"ranking\">"));
  CHECK(contains(page, "alice"));
  CHECK(contains(page, "<svg"));
  CHECK(contains(page, "/assets/board.js"));
  CHECK(contains(page, "/assets/leaderboard.css"));
  CHECK(contains(board_page(student(), "matmul", {}), "No accepted, timed results yet."));
}

TEST_CASE("the history lists submissions with their verdicts and accounts for an instructor", "[web]") {
  submission graded = queued_submission();
  graded.now = state::done;
  graded.result = judge::to_json(judge::testing::accepted_result("alice", 15000));
  const std::string own = history_page(student(), {graded}, false);
  CHECK(contains(own, "<h1>Your submissions</h1>"));
  CHECK(contains(own, "href=\"/submissions/17\""));
  CHECK(contains(own, "<span class=\"verdict AC\">AC</span>"));
  CHECK(contains(own, "15000.0 GFLOPS"));
  CHECK_FALSE(contains(own, "<th scope=\"col\">account</th>"));
  const account teacher{2, "tina", role::instructor, ""};
  CHECK(contains(history_page(teacher, {graded}, true), "<th scope=\"col\">account</th>"));
  CHECK(contains(history_page(student(), {}, false), "No submissions yet"));
}

TEST_CASE("without a GPU a student's board sends them to the instructor and the instructor's says what to run",
          "[web]") {
  const account teacher{2, "tina", role::instructor, ""};
  const std::string why = "This server has no GPU (nvidia-smi not found): ...";
  CHECK(contains(board_page(student(), "matmul", {}, why), "Ask your instructor"));
  const std::string own = board_page(teacher, "matmul", {}, why);
  CHECK_FALSE(contains(own, "Ask your instructor"));
  CHECK(contains(own, "Run judge serve on a machine with an NVIDIA GPU"));
}

TEST_CASE("a submission shows the case set it was graded on and the one it rejudges", "[web]") {
  submission s = queued_submission();
  s.now = state::done;
  s.rejudge_of = 9;
  solution_result r = judge::testing::accepted_result("alice", 15000);
  r.case_set = "0123456789ab";
  s.result = judge::to_json(r);
  const std::string page = submission_page(student(), s, r, "cuBLAS");
  CHECK(contains(page, "<dt>cases</dt><dd>0123456789ab</dd>"));
  CHECK(contains(page, "href=\"/submissions/9\""));
  CHECK(balanced(page));
  const std::string list = history_page(student(), {s}, false);
  CHECK(contains(list, "0123456789ab (rejudge of 9)"));
  r.case_set.clear();
  CHECK(contains(submission_page(student(), s, r, "cuBLAS"), "<dt>cases</dt><dd>unknown</dd>"));
}

TEST_CASE("an instructor's problem list marks drafts and the problem page links the similarity report", "[web]") {
  const account teacher{2, "tina", role::instructor, ""};
  problem_entry draft{"newprob", "New", "GFLOPS", 1, true, "0123456789ab"};
  CHECK(contains(problems_page(teacher, {draft}), "draft: students do not see it"));
  const std::string page = problem_page(teacher, {draft, "<p>x</p>", "void solve()"});
  CHECK(contains(page, "href=\"/similarity/newprob\""));
  CHECK(contains(page, "status: draft"));
  draft.draft = false;
  CHECK_FALSE(contains(problem_page(student(), {draft, "<p>x</p>", "void solve()"}), "/similarity/"));
}

TEST_CASE("the similarity page links both sides of each pair and says what it cannot see", "[web]") {
  const account teacher{2, "tina", role::instructor, ""};
  const std::vector<judge::compared_source> sources = {{"alice", "submission 3", 3, "x"},
                                                       {"<bob>", "submission 5", 5, "y"}};
  const std::string page = similarity_page(teacher, "matmul", 2, 0.8, {{&sources[0], &sources[1], 0.93}});
  CHECK(contains(page, "93.0%"));
  CHECK(contains(page, "href=\"/submissions/3\""));
  CHECK(contains(page, "href=\"/submissions/5\""));
  CHECK(contains(page, "&lt;bob&gt;"));
  CHECK(contains(page, "a rewritten algorithm is not"));
  CHECK(balanced(page));
  CHECK(contains(similarity_page(teacher, "matmul", 2, 0.8, {}), "No pair reaches it."));
}

namespace {
submission graded(std::int64_t id, const std::string& account, verdict v, bool not_run = false) {
  submission s = queued_submission();
  s.id = id;
  s.account = account;
  s.now = state::done;
  solution_result r = judge::testing::accepted_result(account, 1234.5);
  r.v = v;
  r.compiled_only = not_run;
  if (v != verdict::accepted) r.score = 0;
  s.result = judge::to_json(r);
  return s;
}
} // namespace

TEST_CASE("a problem's dashboard shows the verdicts, the queue, every submission and links the similarity report",
          "[web][dashboard]") {
  const account teacher{2, "tina", role::instructor, ""};
  submission waiting = queued_submission();
  waiting.id = 31;
  waiting.account = "<carol>";
  submission rejudged = graded(30, "bob", verdict::compile_error);
  rejudged.rejudge_of = 12;
  const std::vector<submission> listed = {waiting, rejudged, graded(29, "alice", verdict::accepted),
                                          graded(28, "alice", verdict::accepted, true)};
  const std::vector<line_place> line = {{waiting, 2, 3}};
  const problem_dashboard d = build_dashboard("matmul", listed, line, 1740823800); // 2025-03-01T10:10:00Z
  const std::string page = dashboard_page(teacher, d);
  CHECK(contains(page, "<h1>Dashboard: matmul</h1>"));
  CHECK(contains(page, "href=\"/similarity/matmul\""));
  CHECK(contains(page, "href=\"/api/v1/problems/matmul/dashboard\""));
  CHECK(contains(page, "id=\"dashboard\""));
  CHECK(contains(page, "src=\"/assets/board.js\""));
  // Latest per account: alice AC, bob CE, carol waiting; every submission adds alice's NR.
  CHECK(contains(page, "latest (3 accounts)</th><td class=\"num\">1</td><td class=\"num\">0</td>"));
  CHECK(contains(page, "every submission (4)</th><td class=\"num\">1</td><td class=\"num\">1</td>"));
  CHECK(contains(page, "2 of 3 waiting for a compile thread"));
  CHECK(contains(page, "<td class=\"num\">10 min</td>"));
  CHECK(contains(page, "&lt;carol&gt;"));
  CHECK_FALSE(contains(page, "<carol>"));
  CHECK(contains(page, "rejudge of <a href=\"/submissions/12\">12</a>"));
  CHECK(contains(page, "<span class=\"verdict NR\">NR</span>"));
  CHECK(contains(page, "<span class=\"verdict CE\">CE</span>"));
  CHECK(contains(page, "1234.5 GFLOPS"));
  CHECK(balanced(page));

  const std::string empty = dashboard_page(teacher, build_dashboard("softmax", {}, {}, 0));
  CHECK(contains(empty, "Nothing of softmax is waiting or being graded."));
  CHECK(contains(empty, "No submissions yet."));
  CHECK(balanced(empty));
}

TEST_CASE("the dashboards' first page lists every problem with its tally and the whole queue", "[web][dashboard]") {
  const account teacher{2, "tina", role::instructor, ""};
  submission running = queued_submission();
  running.now = state::running;
  running.worker = "gpu GPU-1";
  queue_overview overview;
  overview.tallies = {{"matmul", 5, 2, 1}};
  overview.line = {{{running, 0, 0}, 70, 40}};
  const std::vector<problem_entry> problems = {{"matmul", "M", "GFLOPS", 2}, {"softmax", "S", "GB/s", 1}};
  const std::string page = dashboard_index_page(teacher, problems, overview);
  CHECK(contains(page, "<a href=\"/dashboard/matmul\">matmul</a></td><td class=\"num\">5</td><td class=\"num\">2"
                       "</td><td class=\"num\">1</td>"));
  CHECK(contains(page, "<a href=\"/dashboard/softmax\">softmax</a></td><td class=\"num\">0</td>"));
  CHECK(contains(page, "running (gpu GPU-1) for 40 s"));
  CHECK(contains(page, "1 min"));
  CHECK(balanced(page));
  CHECK(contains(dashboard_index_page(teacher, problems, {}), "Nothing is waiting or being graded."));
}

TEST_CASE("only an instructor's pages link the dashboard", "[web][dashboard]") {
  const account teacher{2, "tina", role::instructor, ""};
  problem_entry p{"matmul", "M", "GFLOPS", 2};
  CHECK(contains(problems_page(teacher, {p}), "<a href=\"/dashboard\">Dashboard</a>"));
  CHECK(contains(problem_page(teacher, {p, "<p>x</p>", "void solve()"}), "href=\"/dashboard/matmul\""));
  CHECK_FALSE(contains(problems_page(student(), {p}), "/dashboard"));
  CHECK_FALSE(contains(problem_page(student(), {p, "<p>x</p>", "void solve()"}), "/dashboard"));
}

TEST_CASE("a graded submission whose explanation is pending shows its verdict, says so, and follows it", "[web]") {
  submission s = queued_submission();
  s.now = state::done;
  const solution_result pending = judge::testing::explained_result("alice", false);
  const std::string page = submission_page(student(), s, pending, "cuBLAS");
  CHECK(contains(page, "data-state=\"done\" data-sanitizer=\"pending\""));
  CHECK(contains(page, "<dt>sanitizer</dt><dd id=\"sanitizer\">pending</dd>"));
  CHECK(contains(page, "<span class=\"verdict RTE\">RTE</span>"));
  CHECK(contains(page, "compute-sanitizer on square_1024: pending (memcheck, at most 40 s)"));
  CHECK(balanced(page));
  const std::string explained =
      submission_page(student(), s, judge::testing::explained_result("alice", true), "cuBLAS");
  CHECK(contains(explained, "data-sanitizer=\"done\""));
  CHECK(contains(explained, "<h3>compute-sanitizer on square_1024</h3>"));
  CHECK_FALSE(contains(explained, "pending"));
  const std::string nothing = submission_page(student(), s, judge::testing::wrong_result("alice"), "cuBLAS");
  CHECK(contains(nothing, "data-sanitizer=\"none\""));
  CHECK_FALSE(contains(nothing, "<dt>sanitizer</dt>"));
}
