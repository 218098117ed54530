// The test driver is kept behind ONLINE_JUDGE, which the judge defines; so are a main() in a namespace
// and a static member function named main, which are not the program's main().
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}

namespace driver {
int main() { return 1; }
} // namespace driver

struct check {
  static int main() { return driver::main(); }
};

int run_checks() { return check::main(); }

#ifndef ONLINE_JUDGE
int main() { return run_checks(); }
#endif
