// Hostile, compile time: makes the compiler's message spell out where the judge compiles it. __FILE__
// and __BASE_FILE__ are the unit's absolute path, in the staging folder under the runner cache; a
// static_assert quotes them, and a failed include in a folder of the judge's names it. Knowing the
// cache's path (and the judge's layout around it) is the first step of naming its files elsewhere.
//
// Verdict: compile error. Every message a learner reads names the staging folder relative to itself
// (spells_out_the_cache_path.cu), and every other folder of the judge's as "<runner cache>" or "<judge>",
// however the path is spelled (doubled slashes, "/./", with links resolved): judge/sandbox/judge_paths.cpp
// rewrites the compiler's and the runner's output (judge/compile/build_tools.cpp,
// judge/run/runner_session.cpp).
static_assert(sizeof(__FILE__) == 0, __FILE__);
static_assert(sizeof(__BASE_FILE__) == 0, __BASE_FILE__);

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
