// How a kernel is named to a learner: its demangled name without the parameter list, the return type a
// template's demangled name carries, or the unnamed namespace ("(anonymous namespace)::", "<unnamed>::"). ptxas, CUPTI,
// Nsight Compute and compute-sanitizer all give the full signature; the report, the hints and the sanitizer's findings
// shorten it here, in one way.
#pragma once

#include <string>

namespace judge {

/// "void (anonymous namespace)::matmul_tc<64, 64, 32>(const float *, float *)" → "matmul_tc<64, 64, 32>";
/// "one_past(float *, int)" → "one_past"; a name without parameters is returned as it is.
std::string kernel_label(const std::string& demangled);

} // namespace judge
