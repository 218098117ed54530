#include "catch.hpp"
#include "text_match.hpp"
#include "tiny_elf.hpp"

#include "judge/compile/executable_bytes.hpp"

#include <string>

using judge_test::contains;
using judge_test::tiny_elf;

namespace {

/// push %rbp; mov %rsp,%rbp; ... ret: code with none of the forbidden bytes.
const std::string honest = std::string("\x55\x48\x89\xe5\x0f\xae\xe8\x90\x5d\xc3", 10); // lfence is 0f ae e8

std::string with(const std::string& code, const std::string& inserted, std::size_t at) {
  std::string out = code;
  out.insert(at, inserted);
  return out;
}

} // namespace

TEST_CASE("honest code has no forbidden instruction bytes, and every executable byte is scanned", "[inspection]") {
  const auto scan = judge::scan_executable_bytes(tiny_elf(honest));
  CHECK(scan.unreadable.empty());
  CHECK(scan.found.empty());
  CHECK(scan.bytes_scanned == honest.size());
}

TEST_CASE("a forbidden instruction is found by its bytes wherever it lies in executable code", "[inspection]") {
  struct row {
    std::string bytes, instruction;
  };
  const row r = GENERATE(row{std::string("\x0f\x05", 2), "syscall"}, row{std::string("\x0f\x34", 2), "sysenter"},
                         row{std::string("\xcd\x80", 2), "int 0x80"}, row{std::string("\x0f\x01\xef", 3), "wrpkru"},
                         row{std::string("\x0f\xae\x2f", 3), "xrstor"},            // xrstor (%rdi)
                         row{std::string("\x48\x0f\xae\x6c\x24\x08", 6), "xrstor"}); // xrstor64 8(%rsp)
  // Inside another instruction's immediate: mov $0x..050f.., %eax is b8 + 4 bytes; a jump to b8's next
  // byte runs them. A disassembly lists one mov; the byte scan sees the instruction all the same.
  std::string immediate = std::string("\xb8", 1) + r.bytes + std::string(4 - std::min<std::size_t>(4, r.bytes.size()), '\x90');
  const std::string code = with(honest, immediate, 6);
  const auto scan = judge::scan_executable_bytes(tiny_elf(code));
  CAPTURE(r.instruction);
  REQUIRE(scan.found.size() == 1);
  const judge::forbidden_instruction& site = scan.found[0];
  CHECK(site.instruction == r.instruction);
  CHECK(site.address == 0x1000 + 7 + (r.bytes[0] == '\x48' ? 1 : 0));
  CHECK(site.file_offset == site.address); // the tiny object maps its file one to one
  CHECK(site.section == ".text");
  CHECK(site.symbol == "_Z13sneaky_helperv");
  CHECK(contains(judge::describe(site), r.instruction + " at 0x"));
  CHECK(contains(judge::describe(site), "(.text, sneaky_helper()+0x"));
}

TEST_CASE("lfence and other 0f ae forms without a memory operand are no xrstor", "[inspection]") {
  CHECK(judge::scan_executable_bytes(tiny_elf(std::string("\x0f\xae\xe8\x0f\xae\xf0\x0f\xae\xf8", 9))).found.empty());
  // xsave (0f ae /4) only reads the state.
  CHECK(judge::scan_executable_bytes(tiny_elf(std::string("\x0f\xae\x27", 3))).found.empty());
}

TEST_CASE("bytes in read-only data are not code and are not scanned", "[inspection]") {
  const auto scan = judge::scan_executable_bytes(tiny_elf(honest, std::string("\x0f\x05\xcd\x80\x0f\x01\xef", 7)));
  CHECK(scan.found.empty());
  CHECK(scan.bytes_scanned == honest.size());
}

TEST_CASE("an object without section headers is scanned all the same, by its segments", "[inspection]") {
  const auto scan = judge::scan_executable_bytes(tiny_elf(with(honest, std::string("\x0f\x05", 2), 2), "", {false}));
  REQUIRE(scan.found.size() == 1);
  CHECK(scan.found[0].section.empty());
  CHECK(contains(judge::describe(scan.found[0]), "outside any section"));
}

TEST_CASE("on AArch64 every aligned svc is found", "[inspection]") {
  judge_test::tiny_elf_options arm;
  arm.machine = EM_AARCH64;
  const std::string nop("\x1f\x20\x03\xd5", 4), svc("\x01\x00\x00\xd4", 4);
  CHECK(judge::scan_executable_bytes(tiny_elf(nop + nop, "", arm)).found.empty());
  const auto scan = judge::scan_executable_bytes(tiny_elf(nop + svc + nop, "", arm));
  REQUIRE(scan.found.size() == 1);
  CHECK(scan.found[0].instruction == "svc");
  CHECK(scan.found[0].address == 0x1004);
}

TEST_CASE("a file that is no readable ELF object says so instead of passing", "[inspection]") {
  CHECK(judge::scan_executable_bytes("").unreadable == "not an ELF file");
  CHECK(judge::scan_executable_bytes("#!/bin/sh\n").unreadable == "not an ELF file");
  std::string truncated = tiny_elf(honest);
  truncated.resize(0x1004); // the executable segment runs past the end
  CHECK(judge::scan_executable_bytes(truncated).unreadable == "an executable segment lies outside the file");
}
