// Hostile, compile time: includes /dev/zero, an endless file. The preprocessor
// reads it until memory runs out: on the H200 it grew for 88 s until the kernel's OOM killer ended it,
// with the whole host at risk on the way.
//
// Verdict: compile error, within seconds. The compile's sandbox has a minimal /dev without /dev/zero, so
// the include fails at once ("No such file or directory"); and the compile runs under a memory bound
// (memory.max of its cgroup, or RLIMIT_AS where cgroups are not delegated), so an endless file reached by
// any other route ends as a compile error too (judge/sandbox/, judge/compile/compile.cpp).
#include "/dev/zero"

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {}
