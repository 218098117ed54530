// B holds doubles: not the signature the problem expects (a real mismatch, not only constness).
extern "C" void solve(const float* A, const double* B, float* C, int M, int N, int K) {}
