// Hostile, compile time: fills the judge's disk through its own compile. The source is a few lines, but
// the assembler is asked to emit 3 GiB of initialised data into the object (`.fill` in a data section),
// which a compile without a cap writes wherever the judge stages its builds; a folder of such units once
// took 7 GB of the cache's disk.
//
// Verdict: compile error. Two caps stop it, whichever comes first: no file a compile writes may pass
// 1 GiB (RLIMIT_FSIZE, judge/sandbox/sandbox_limits.hpp: the assembler is stopped with "File size limit
// exceeded"), and every tool of a build writes into a tmpfs of what is left of the build's 1 GiB over its
// staging folder ("No space left on device", and the judge says the build outgrew its scratch space,
// judge/compile/build_tools.cpp). Nothing past the cap reaches the disk.
asm(".pushsection .data.judge_fill, \"aw\"\n"
    ".fill 3221225472, 1, 0x5a\n"
    ".popsection\n");

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
