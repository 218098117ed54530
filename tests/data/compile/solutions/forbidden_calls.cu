// Computes nothing useful; imports fork() and makes a raw system call, both of which the judge refuses
// before any runner loads the object.
#include <unistd.h>

static long raw_getpid() {
  long result;
  asm volatile("syscall" : "=a"(result) : "a"(39L) : "rcx", "r11", "memory");
  return result;
}

void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  if (M < 0) fork();
  if (N < 0) raw_getpid();
  (void)A, (void)B, (void)C, (void)K;
}
