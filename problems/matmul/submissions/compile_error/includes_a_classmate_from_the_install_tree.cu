// Hostile, compile time: includes a classmate's submission from the judge's own install tree. A judge
// installed with `cmake --install build --prefix /opt/gpu-judge` (docs/deploy.md) and run without
// --root keeps its problems, the learners' solutions and the store below that prefix
// (share/gpu-judge/solutions/<problem>/). The compile's sandbox once bound all of /opt read-only, so an
// absolute #include of a classmate's file there compiled, and the copy got that file's verdict.
//
// Verdict: compile error ("No such file or directory"). The compile's root no longer holds /opt: the CUDA
// toolkit is bound by its own path, the system from /usr, and any of the judge's folders that a bound
// system folder would show (an install under /usr/local) is an empty read-only folder there
// (judge/sandbox/private_root.cpp, judge/sandbox/judge_paths.cpp).
#include "/opt/gpu-judge/share/gpu-judge/solutions/matmul/bob.cu"
