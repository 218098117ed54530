// Hostile, compile time (host files): embeds the host's /etc/shadow into the solution with the
// assembler's .incbin, then prints it from solve(). No include, nothing for the preprocessor to refuse:
// the assembler reads the file while it builds the object, and the bytes ride along in .rodata to the
// runner, where the captured output shows them to the learner.
//
// Verdict: compile error, quoting nothing of the file. The assembler runs in the compile's sandbox, whose
// /etc holds only the synthetic files (no shadow): .incbin fails with "file not found". A judge run as
// root gives the compile an unprivileged uid, so a root-only file is unreadable even where it is visible
// (judge/sandbox/private_root.cpp, judge/sandbox/process_spawn.cpp).
#include <cstdio>

asm(".pushsection .rodata\n"
    ".globl host_file_bytes\n"
    "host_file_bytes:\n"
    ".incbin \"/etc/shadow\"\n"
    ".byte 0\n"
    ".popsection\n");
extern "C" const char host_file_bytes[];

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  std::printf("%s\n", host_file_bytes);
}
