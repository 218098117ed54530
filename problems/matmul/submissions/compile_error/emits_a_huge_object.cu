// Hostile, compile time: fills the judge's disk through its own compile. The source is a few lines, but
// the assembler is asked to emit 3 GiB of initialised data into the object (`.fill` in a data section),
// which a compile without a cap writes wherever the judge stages its builds; a folder of such units once
// took 7 GB of the cache's disk.
//
// Verdict: compile error. Every tool of a build writes into a tmpfs of what is left of the build's 1 GiB
// (judge/sandbox/sandbox_limits.hpp, compile::scratch_bytes) over its staging folder: the assembler
// stops at the cap ("No space left on device"), the judge reports that the build outgrew its scratch
// space, and nothing past the cap reaches the disk (judge/compile/build_tools.cpp).
asm(".pushsection .data.judge_fill, \"aw\"\n"
    ".fill 3221225472, 1, 0x5a\n"
    ".popsection\n");

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
