#include "judge/compile/executable_bytes.hpp"

#include "judge/compile/object_inspection.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include <elf.h>

namespace judge {
namespace {

/// The bytes of the file, read with bounds checked: every header field comes from the file, and a
/// field pointing outside it makes the file unreadable rather than the judge crash.
class file_view {
public:
  explicit file_view(const std::string& bytes) : m_bytes(bytes) {}
  template <class T> std::optional<T> at(std::uint64_t offset) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < sizeof(T)) return std::nullopt;
    T value;
    std::memcpy(&value, m_bytes.data() + offset, sizeof value);
    return value;
  }
  bool holds(std::uint64_t offset, std::uint64_t size) const {
    return offset <= m_bytes.size() && size <= m_bytes.size() - offset;
  }
  const unsigned char* data() const { return reinterpret_cast<const unsigned char*>(m_bytes.data()); }
  std::string text_at(std::uint64_t offset) const {
    if (offset >= m_bytes.size()) return "";
    const char* begin = m_bytes.data() + offset;
    return std::string(begin, strnlen(begin, m_bytes.size() - offset));
  }

private:
  const std::string& m_bytes;
};

struct section {
  std::string name;
  std::uint64_t address = 0, size = 0;
};

struct symbol {
  std::string name;
  std::uint64_t address = 0, size = 0;
};

std::vector<section> allocated_sections(const file_view& file, const Elf64_Ehdr& header) {
  std::vector<section> sections;
  if (header.e_shoff == 0 || header.e_shentsize != sizeof(Elf64_Shdr)) return sections;
  std::vector<Elf64_Shdr> all;
  for (unsigned i = 0; i < header.e_shnum; ++i)
    if (auto s = file.at<Elf64_Shdr>(header.e_shoff + std::uint64_t(i) * sizeof(Elf64_Shdr))) all.push_back(*s);
  const std::uint64_t names = header.e_shstrndx < all.size() ? all[header.e_shstrndx].sh_offset : 0;
  for (const Elf64_Shdr& s : all)
    if ((s.sh_flags & SHF_ALLOC) && s.sh_type != SHT_NOBITS && s.sh_size > 0)
      sections.push_back({names ? file.text_at(names + s.sh_name) : "", s.sh_addr, s.sh_size});
  return sections;
}

/// Defined symbols of .symtab (when not stripped) and .dynsym, for naming where a site lies.
std::vector<symbol> defined_symbols(const file_view& file, const Elf64_Ehdr& header) {
  std::vector<symbol> symbols;
  if (header.e_shoff == 0 || header.e_shentsize != sizeof(Elf64_Shdr)) return symbols;
  std::vector<Elf64_Shdr> all;
  for (unsigned i = 0; i < header.e_shnum; ++i)
    if (auto s = file.at<Elf64_Shdr>(header.e_shoff + std::uint64_t(i) * sizeof(Elf64_Shdr))) all.push_back(*s);
  for (const Elf64_Shdr& table : all) {
    if ((table.sh_type != SHT_SYMTAB && table.sh_type != SHT_DYNSYM) || table.sh_link >= all.size() ||
        table.sh_entsize != sizeof(Elf64_Sym))
      continue;
    const std::uint64_t names = all[table.sh_link].sh_offset;
    for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= table.sh_size; at += sizeof(Elf64_Sym)) {
      const auto s = file.at<Elf64_Sym>(table.sh_offset + at);
      if (!s || s->st_shndx == SHN_UNDEF || s->st_name == 0) continue;
      const unsigned type = ELF64_ST_TYPE(s->st_info);
      if (type != STT_FUNC && type != STT_NOTYPE && type != STT_OBJECT) continue;
      symbols.push_back({file.text_at(names + s->st_name), s->st_value, s->st_size});
    }
  }
  return symbols;
}

void name_site(forbidden_instruction& site, const std::vector<section>& sections,
               const std::vector<symbol>& symbols) {
  for (const section& s : sections)
    if (site.address >= s.address && site.address - s.address < s.size) site.section = s.name;
  // The symbol that contains the site, else the nearest one before it.
  const symbol* best = nullptr;
  for (const symbol& s : symbols) {
    if (s.address > site.address || s.name.empty()) continue;
    const bool contains = site.address - s.address < s.size;
    const bool best_contains = best && site.address - best->address < best->size;
    if (!best || (contains && !best_contains) || (contains == best_contains && s.address > best->address))
      best = &s;
  }
  if (best) {
    site.symbol = best->name;
    site.symbol_offset = site.address - best->address;
  }
}

/// The x86-64 instructions of the header comment, at byte `i` of `code` (`n` bytes); nullptr if none.
const char* x86_instruction_at(const unsigned char* code, std::uint64_t i, std::uint64_t n) {
  if (i + 1 >= n) return nullptr;
  const unsigned char a = code[i], b = code[i + 1];
  if (a == 0xcd && b == 0x80) return "int 0x80";
  if (a != 0x0f) return nullptr;
  if (b == 0x05) return "syscall";
  if (b == 0x34) return "sysenter";
  if (i + 2 >= n) return nullptr;
  const unsigned char modrm = code[i + 2];
  if (b == 0x01 && modrm == 0xef) return "wrpkru";
  // 0f ae with ModRM.reg = 5: xrstor with a memory operand (mod != 11); mod = 11 is lfence.
  if (b == 0xae && ((modrm >> 3) & 7) == 5 && (modrm >> 6) != 3) return "xrstor";
  return nullptr;
}

/// AArch64 `svc #imm16`: 1101 0100 000 imm16 000 01, little-endian.
bool is_aarch64_svc(const unsigned char* word) {
  const std::uint32_t w = std::uint32_t(word[0]) | std::uint32_t(word[1]) << 8 | std::uint32_t(word[2]) << 16 |
                          std::uint32_t(word[3]) << 24;
  return (w & 0xffe0001fu) == 0xd4000001u;
}

std::string hex(std::uint64_t value) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value & 15]);
    value >>= 4;
  } while (value);
  return "0x" + text;
}

} // namespace

executable_bytes_scan scan_executable_bytes(const std::string& elf) {
  executable_bytes_scan scan;
  const file_view file(elf);
  const auto header = file.at<Elf64_Ehdr>(0);
  if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0) {
    scan.unreadable = "not an ELF file";
    return scan;
  }
  if (header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_ident[EI_DATA] != ELFDATA2LSB) {
    scan.unreadable = "not a 64-bit little-endian ELF object";
    return scan;
  }
  if (header->e_machine != EM_X86_64 && header->e_machine != EM_AARCH64) {
    scan.unreadable = "machine " + std::to_string(header->e_machine) + " is neither x86-64 nor AArch64";
    return scan;
  }
  if (header->e_phentsize != sizeof(Elf64_Phdr) || !file.holds(header->e_phoff, std::uint64_t(header->e_phnum) *
                                                                                     sizeof(Elf64_Phdr))) {
    scan.unreadable = "its program headers lie outside the file";
    return scan;
  }
  const std::vector<section> sections = allocated_sections(file, *header);
  const std::vector<symbol> symbols = defined_symbols(file, *header);
  for (unsigned p = 0; p < header->e_phnum; ++p) {
    const Elf64_Phdr segment = *file.at<Elf64_Phdr>(header->e_phoff + std::uint64_t(p) * sizeof(Elf64_Phdr));
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
    if (!file.holds(segment.p_offset, segment.p_filesz)) {
      scan.unreadable = "an executable segment lies outside the file";
      return scan;
    }
    const unsigned char* code = file.data() + segment.p_offset;
    const std::uint64_t n = segment.p_filesz;
    scan.bytes_scanned += n;
    auto found = [&](const char* instruction, std::uint64_t i) {
      forbidden_instruction site;
      site.instruction = instruction;
      site.file_offset = segment.p_offset + i;
      site.address = segment.p_vaddr + i;
      name_site(site, sections, symbols);
      scan.found.push_back(std::move(site));
    };
    if (header->e_machine == EM_X86_64) {
      for (std::uint64_t i = 0; i < n; ++i)
        if (const char* instruction = x86_instruction_at(code, i, n)) found(instruction, i);
    } else {
      // Words are aligned to the segment's virtual address, as the CPU fetches them.
      for (std::uint64_t i = (4 - segment.p_vaddr % 4) % 4; i + 4 <= n; i += 4)
        if (is_aarch64_svc(code + i)) found("svc", i);
    }
  }
  return scan;
}

std::string describe(const forbidden_instruction& site) {
  std::string where = site.section.empty() ? "outside any section" : site.section;
  if (!site.symbol.empty())
    where += ", " + demangle(site.symbol) + (site.symbol_offset ? "+" + hex(site.symbol_offset) : "");
  where += ", file offset " + hex(site.file_offset);
  return site.instruction + " at " + hex(site.address) + " (" + where + ")";
}

} // namespace judge
