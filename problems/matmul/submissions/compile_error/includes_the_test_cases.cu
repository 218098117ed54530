// Hostile, compile time: includes the problem's test-case file, to learn the hidden
// cases' shapes, distributions and seeds at compile time. Compiled in place, the path from the
// submissions folder to testcases/ is four folders up (from a class's solutions folder, it is a similar
// walk). The file is YAML, so even where it is found this is no C++; the point is that it must not be
// found.
//
// Verdict: compile error ("No such file or directory"). Compiles see only their own sources, copied into
// a staging folder, and the system (judge/compile/compile.cpp, judge/sandbox/): testcases/ is not in the
// compile's root.
#include "../../../../testcases/matmul/cases.yaml"

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {}
