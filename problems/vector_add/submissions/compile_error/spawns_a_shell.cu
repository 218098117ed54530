// Hostile (work outside the process; same user, same view), by the exec route: starts /bin/sh from
// solve() with posix_spawn (no fork() by name) to leave a detached job behind (`setsid sleep` here;
// anything the shell can run), which outlives the grading and can read or write whatever the runner's
// user can.
//
// Verdict: compile error. posix_spawn() is not on the list of symbols a solution may use
// (judge/compile/object_inspection.cpp). Behind that, the syscall filter refuses new processes and exec
// (harness/runner/syscall_filter.cpp), and the runner's PID namespace and cgroup end whatever got out
// (judge/sandbox/).
#include <cuda_runtime.h>
#include <spawn.h>

extern char** environ;

__global__ void vector_add_simple(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static const bool spawned = [] {
    pid_t pid;
    char sh[] = "/bin/sh", dash_c[] = "-c", job[] = "setsid sleep 3600 &";
    char* argv[] = {sh, dash_c, job, nullptr};
    return posix_spawn(&pid, sh, nullptr, nullptr, argv, environ) == 0;
  }();
  (void)spawned;
  const int threads = 256;
  vector_add_simple<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
