// Whether a solution's machine code uses tensor cores, read from its SASS (cuobjdump -sass solution.so).
// The plausibility floor depends on it (grading/plausibility.hpp): a kernel that only uses the FP32
// units cannot beat the FP32 peak, whatever the problem allows; one that issues tensor-core instructions
// is bounded by the tensor peak instead. The machine code is what runs, so names, comments and PTX that
// the compiler dropped cannot change the answer. A pure function over cuobjdump's text, tested on
// recorded output (tests/data/sass/README.md).
#pragma once

#include <string>
#include <vector>

namespace judge {

/// The distinct tensor-core opcodes in `sass` (cuobjdump -sass output), in order of first appearance, with
/// their modifiers ("HMMA.1684.F32.TF32"); empty when the code uses none. A tensor-core opcode is one
/// whose name (before the first '.') ends in "MMA": HMMA, IMMA, DMMA, BMMA, QMMA, OMMA (mma.sync, wmma),
/// HGMMA, IGMMA, QGMMA, BGMMA (sm_90 wgmma), UTC*MMA (sm_100 tcgen05).
std::vector<std::string> tensor_core_opcodes(const std::string& sass);

} // namespace judge
