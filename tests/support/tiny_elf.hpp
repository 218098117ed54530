// A small ELF64 shared object made in memory, for testing what reads executable bytes without a
// compiler: `code` in an executable segment (.text at 0x1000, symbols `solve` at its start and
// `sneaky_helper()` from byte 4), `rodata` in a read-only one (.rodata at 0x2000).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include <elf.h>

namespace judge_test {

struct tiny_elf_options {
  bool sections = true;             ///< false: no section headers (a stripped-to-the-bone object)
  std::uint16_t machine = EM_X86_64;
};

inline std::string tiny_elf(const std::string& code, const std::string& rodata = "",
                            tiny_elf_options options = {}) {
  constexpr std::uint64_t code_at = 0x1000, rodata_at = 0x2000;
  const std::string shstrtab = std::string("\0.text\0.rodata\0.symtab\0.strtab\0.shstrtab\0", 42);
  const std::string strtab = std::string("\0solve\0_Z13sneaky_helperv\0", 26);
  std::string file(rodata_at + rodata.size(), '\0');
  auto put = [&](std::uint64_t at, const void* data, std::size_t size) {
    if (file.size() < at + size) file.resize(at + size, '\0');
    std::memcpy(&file[at], data, size);
  };
  put(code_at, code.data(), code.size());
  put(rodata_at, rodata.data(), rodata.size());

  Elf64_Sym symbols[3]{};
  symbols[1].st_name = 1;
  symbols[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
  symbols[1].st_shndx = 1;
  symbols[1].st_value = code_at;
  symbols[1].st_size = 4;
  symbols[2].st_name = 7;
  symbols[2].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
  symbols[2].st_shndx = 1;
  symbols[2].st_value = code_at + 4;
  symbols[2].st_size = code.size() > 4 ? code.size() - 4 : 0;
  const std::uint64_t shstrtab_at = file.size();
  put(shstrtab_at, shstrtab.data(), shstrtab.size());
  const std::uint64_t strtab_at = file.size();
  put(strtab_at, strtab.data(), strtab.size());
  const std::uint64_t symtab_at = (file.size() + 7) / 8 * 8;
  put(symtab_at, symbols, sizeof symbols);

  Elf64_Shdr sections[6]{};
  auto section = [&](int i, std::uint32_t name, std::uint32_t type, std::uint64_t flags, std::uint64_t addr,
                     std::uint64_t offset, std::uint64_t size) {
    sections[i].sh_name = name;
    sections[i].sh_type = type;
    sections[i].sh_flags = flags;
    sections[i].sh_addr = addr;
    sections[i].sh_offset = offset;
    sections[i].sh_size = size;
  };
  section(1, 1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, code_at, code_at, code.size());
  section(2, 7, SHT_PROGBITS, SHF_ALLOC, rodata_at, rodata_at, rodata.size());
  section(3, 15, SHT_SYMTAB, 0, 0, symtab_at, sizeof symbols);
  sections[3].sh_link = 4;
  sections[3].sh_entsize = sizeof(Elf64_Sym);
  section(4, 23, SHT_STRTAB, 0, 0, strtab_at, strtab.size());
  section(5, 31, SHT_STRTAB, 0, 0, shstrtab_at, shstrtab.size());
  const std::uint64_t sections_at = (file.size() + 7) / 8 * 8;
  if (options.sections) put(sections_at, sections, sizeof sections);

  Elf64_Phdr segments[2]{};
  segments[0].p_type = PT_LOAD;
  segments[0].p_flags = PF_R | PF_X;
  segments[0].p_offset = segments[0].p_vaddr = code_at;
  segments[0].p_filesz = segments[0].p_memsz = code.size();
  segments[1].p_type = PT_LOAD;
  segments[1].p_flags = PF_R;
  segments[1].p_offset = segments[1].p_vaddr = rodata_at;
  segments[1].p_filesz = segments[1].p_memsz = rodata.size();
  put(sizeof(Elf64_Ehdr), segments, sizeof segments);

  Elf64_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_DYN;
  header.e_machine = options.machine;
  header.e_version = EV_CURRENT;
  header.e_phoff = sizeof(Elf64_Ehdr);
  header.e_ehsize = sizeof(Elf64_Ehdr);
  header.e_phentsize = sizeof(Elf64_Phdr);
  header.e_phnum = 2;
  if (options.sections) {
    header.e_shoff = sections_at;
    header.e_shentsize = sizeof(Elf64_Shdr);
    header.e_shnum = 6;
    header.e_shstrndx = 5;
  }
  put(0, &header, sizeof header);
  return file;
}

} // namespace judge_test
