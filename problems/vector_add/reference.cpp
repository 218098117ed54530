// CPU reference of vector_add: C = A + B in double, exact for almost all float pairs.
#include "cpu_reference.h"

#include <cstdint>

JUDGE_CPU_REFERENCE(vector_add, args) {
  const float* a = args.input("A").data();
  const float* b = args.input("B").data();
  double* c = args.output("C").data();
  judge_reference::parallel_for(args.size("N"), args.threads, [=](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) c[i] = static_cast<double>(a[i]) + static_cast<double>(b[i]);
  });
}
