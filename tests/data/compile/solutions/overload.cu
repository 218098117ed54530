// Without extern "C" and with double buffers this is a C++ overload, not the solve() the judge calls.
void solve(const double* A, const double* B, double* C, int M, int N, int K) {}
