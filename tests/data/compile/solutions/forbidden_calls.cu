// Computes nothing useful; imports fork() and libc's syscall(), both of which the judge refuses by name
// before any runner loads the object.
#include <sys/syscall.h>
#include <unistd.h>

void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  if (M < 0) fork();
  if (N < 0) syscall(SYS_getpid);
  (void)A, (void)B, (void)C, (void)K;
}
