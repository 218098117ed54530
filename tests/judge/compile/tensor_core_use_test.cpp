#include "catch.hpp"

#include "judge/base/file_input.hpp"
#include "judge/compile/tensor_core_use.hpp"

#include <string>
#include <vector>

using judge::tensor_core_opcodes;
using strings = std::vector<std::string>;

namespace {

/// cuobjdump -sass output recorded on the H200 (tests/data/sass/README.md).
std::string recorded(const std::string& name) {
  return judge::read_file(std::string(JUDGE_TEST_DATA_DIR) + "/sass/" + name + ".txt");
}

} // namespace

TEST_CASE("a TF32 mma.sync kernel is found by its HMMA instruction", "[tensor_core_use]") {
  const strings found = tensor_core_opcodes(recorded("tc_small"));
  REQUIRE(found.size() == 1);
  CHECK(found[0].rfind("HMMA.", 0) == 0);
  CHECK(found[0].find("TF32") != std::string::npos);
}

TEST_CASE("an FP32 kernel named like a tensor-core one uses none", "[tensor_core_use]") {
  const std::string sass = recorded("fp32_small");
  CHECK(sass.find("hmma_mma_wgmma_lookalike") != std::string::npos); // the name is in the listing
  CHECK(sass.find("FFMA") != std::string::npos);                     // and the FP32 code
  CHECK(tensor_core_opcodes(sass).empty());
}

TEST_CASE("tensor-core opcodes are read after the address and any predicate", "[tensor_core_use]") {
  const std::string sass = "        /*0100*/                   HGMMA.64x64x8.F32.TF32 gdesc[UR4], RZ, !UPT ;\n"
                           "        /*0110*/              @!P0 IMMA.16816.S8.S8 R4, R8, R12, R4 ;\n"
                           "        /*0120*/               @P1 HMMA.1684.F32.TF32 R4, R8, R12, R4 ;\n"
                           "        /*0130*/                   HMMA.1684.F32.TF32 R8, R8, R12, R8 ;\n"
                           "        /*0140*/                   DMMA.884 R4, R8, R12, R4 ;\n";
  CHECK(tensor_core_opcodes(sass) ==
        strings{"HGMMA.64x64x8.F32.TF32", "IMMA.16816.S8.S8", "HMMA.1684.F32.TF32", "DMMA.884"});
}

TEST_CASE("only opcodes count: operands, names and comments that mention MMA do not", "[tensor_core_use]") {
  const std::string sass = "\tFunction : _Z4hmmaPf\n"
                           "        /*0000*/                   MOV R1, c[0x0][0x28] ;  /* HMMA.1684 in a comment */\n"
                           "        /*0010*/                   FFMA R4, R8, R12, R4 ;\n"
                           "        /*0020*/                   CALL.REL.NOINC `(_Z5immaa) ;\n"
                           "        /*0030*/                   STG.E [R2.64], R4 ;\n"
                           "        .text._Z4hmmaPf HMMA\n";
  CHECK(tensor_core_opcodes(sass).empty());
}
