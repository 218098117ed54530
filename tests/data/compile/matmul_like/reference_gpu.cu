// A stand-in for a problem's GPU reference: compile_test only links runners, it never runs them.
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  (void)buffers;
  (void)sizes;
}
