// Instructions a solution may not contain, found by their bytes anywhere in what the loader maps
// executable: every byte of every PT_LOAD segment with PF_X, at every offset. Not a disassembly: an
// instruction hidden inside another's immediate and reached by a jump into the middle of it is found
// the same as one the compiler emitted, because the scan does not care where instructions begin.
//
// What is looked for (x86-64), and why each:
//   0f 05 syscall, 0f 34 sysenter, cd 80 int 0x80  -- raw system calls, which bypass the import rules;
//   0f 01 ef wrpkru                                -- rewrites the protection-key rights register;
//   0f ae /5 (memory form) xrstor, xrstor64        -- restores PKRU from memory when its bit is set.
// Out of scope, with the reason: xrstors (0f c7 /3) and xsetbv fault outside ring 0; rdpkru only reads;
// fxrstor restores the x87/SSE state, never PKRU. On AArch64 the instructions are 4-byte aligned, so
// every aligned word is every instruction: `svc` is looked for there.
//
// False positives: the byte pairs can occur inside an honest instruction's immediate or displacement.
// In the segments this scans that is rare (none in the accepted examples, CUB and Thrust included, nor
// in the 1 MiB of libstdc++'s code), and when it happens the message names the section, the symbol
// and the offset, so the learner can change the constant. Read-only data (.rodata, the fatbin in
// .nv_fatbin) lies in segments that are not executable and is not scanned.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace judge {

/// One forbidden instruction found by its bytes.
struct forbidden_instruction {
  std::string instruction;       ///< "syscall", "sysenter", "int 0x80", "wrpkru", "xrstor", "svc"
  std::uint64_t file_offset = 0; ///< where its first byte lies in the file
  std::uint64_t address = 0;     ///< its virtual address in the object (as nm and objdump show it)
  std::string section;           ///< the allocated section holding it (".text"), or "" when none does
  std::string symbol;            ///< the nearest symbol at or before it (mangled), or "" when none
  std::uint64_t symbol_offset = 0; ///< [B] address - the symbol's address
};

/// What the scan of one file found.
struct executable_bytes_scan {
  std::vector<forbidden_instruction> found;
  std::uint64_t bytes_scanned = 0; ///< [B] the executable segments' file bytes
  std::string unreadable;          ///< why the file is not an ELF object this can read; "" when it is
};

/// Scans `elf` (the whole file's bytes) as described above. Never throws: a file it cannot read as a
/// 64-bit little-endian ELF object says so in `unreadable`.
executable_bytes_scan scan_executable_bytes(const std::string& elf);

/// "syscall at 0x1149 (.text, sneaky_helper()+0x9, file offset 0x1149)": for the learner's message.
std::string describe(const forbidden_instruction& site);

} // namespace judge
