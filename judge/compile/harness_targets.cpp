#include "judge/compile/harness_targets.hpp"

#include "judge/base/file_input.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace judge {

namespace {

constexpr std::uint32_t fatbin_magic = 0xBA55ED50;
constexpr std::uint16_t kind_ptx = 1, kind_elf = 2;
constexpr std::string_view elf_magic = "\177ELF"; // 0x7f 'E' 'L' 'F'

template <typename T> T read_at(std::string_view bytes, std::size_t at, const char* what) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) throw std::runtime_error(std::string("truncated ") + what);
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

/// The `.nv_fatbin` section of the ELF64 object `object`; empty when it has none (host code only).
std::string_view fatbin_section(std::string_view object) {
  if (object.size() < 64 || object.substr(0, 4) != elf_magic || object[4] != 2)
    throw std::runtime_error("an archive member is not a 64-bit ELF object");
  const auto section_offset = read_at<std::uint64_t>(object, 0x28, "ELF header");
  const auto section_size = read_at<std::uint16_t>(object, 0x3A, "ELF header");
  const auto sections = read_at<std::uint16_t>(object, 0x3C, "ELF header");
  const auto names_index = read_at<std::uint16_t>(object, 0x3E, "ELF header");
  if (section_size < 64 || names_index >= sections) throw std::runtime_error("malformed ELF section table");
  const auto header = [&](std::size_t i) { return section_offset + i * section_size; };
  const auto names_at = read_at<std::uint64_t>(object, header(names_index) + 0x18, "section header");
  const auto names_bytes = read_at<std::uint64_t>(object, header(names_index) + 0x20, "section header");
  if (names_at > object.size() || object.size() - names_at < names_bytes)
    throw std::runtime_error("truncated ELF section names");
  const std::string_view names = object.substr(names_at, names_bytes);
  for (std::size_t i = 0; i < sections; ++i) {
    const auto name = read_at<std::uint32_t>(object, header(i), "section header");
    if (name >= names.size() || names.substr(name, names.find('\0', name) - name) != ".nv_fatbin") continue;
    const auto at = read_at<std::uint64_t>(object, header(i) + 0x18, "section header");
    const auto bytes = read_at<std::uint64_t>(object, header(i) + 0x20, "section header");
    if (at > object.size() || object.size() - at < bytes) throw std::runtime_error("truncated .nv_fatbin section");
    return object.substr(at, bytes);
  }
  return {};
}

} // namespace

std::vector<gpu_code> fat_binary_entries(std::string_view blob) {
  std::vector<gpu_code> entries;
  std::size_t at = 0;
  while (at < blob.size()) {
    // A fat binary: magic, version, header size, size of what follows; nvcc may pad between binaries.
    if (blob.size() - at < 16) {
      if (blob.substr(at).find_first_not_of('\0') == std::string_view::npos) break;
      throw std::runtime_error("truncated fat binary header");
    }
    if (read_at<std::uint32_t>(blob, at, "fat binary header") != fatbin_magic) {
      if (blob[at] == '\0') {
        ++at;
        continue;
      }
      throw std::runtime_error("no fat binary where one should start");
    }
    const auto header_bytes = read_at<std::uint16_t>(blob, at + 6, "fat binary header");
    const auto body_bytes = read_at<std::uint64_t>(blob, at + 8, "fat binary header");
    const std::size_t end = at + header_bytes + body_bytes;
    if (end > blob.size() || end < at) throw std::runtime_error("truncated fat binary");
    // Each entry: kind, flags, its header's size, its size, ..., its target at byte 28 of its header.
    for (std::size_t entry = at + header_bytes; entry < end;) {
      const auto kind = read_at<std::uint16_t>(blob, entry, "fat binary entry");
      const auto entry_header = read_at<std::uint32_t>(blob, entry + 4, "fat binary entry");
      const auto entry_bytes = read_at<std::uint64_t>(blob, entry + 8, "fat binary entry");
      const auto target = read_at<std::uint32_t>(blob, entry + 28, "fat binary entry");
      if (entry_header < 32) throw std::runtime_error("malformed fat binary entry");
      if (kind == kind_ptx || kind == kind_elf) entries.push_back({kind == kind_elf, static_cast<int>(target)});
      entry += entry_header + entry_bytes;
    }
    at = end;
  }
  return entries;
}

std::vector<std::vector<gpu_code>> library_gpu_code_by_object(const std::filesystem::path& library) {
  const std::string bytes = read_file(library); // throws "cannot read <library>: <why>"
  const std::string_view archive(bytes);
  if (archive.substr(0, 8) != "!<arch>\n") throw std::runtime_error(library.string() + " is not an ar archive");
  std::vector<std::vector<gpu_code>> objects;
  try {
    // Members: a 60-byte header (its size, in decimal, at byte 48), then the member, padded to even.
    for (std::size_t at = 8; at + 60 <= archive.size();) {
      const std::string size_text(archive.substr(at + 48, 10));
      const std::size_t size = std::stoull(size_text);
      const std::size_t data = at + 60;
      if (data + size > archive.size()) throw std::runtime_error("truncated archive member");
      const std::string_view member = archive.substr(data, size);
      if (member.substr(0, 4) == elf_magic)
        if (const std::string_view fatbin = fatbin_section(member); !fatbin.empty())
          objects.push_back(fat_binary_entries(fatbin));
      at = data + size + (size % 2);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(library.string() + ": " + e.what());
  }
  return objects;
}

std::vector<gpu_code> library_gpu_code(const std::filesystem::path& library) {
  std::vector<gpu_code> found;
  for (const std::vector<gpu_code>& object : library_gpu_code_by_object(library))
    for (const gpu_code& code : object)
      if (std::find(found.begin(), found.end(), code) == found.end()) found.push_back(code);
  return found;
}

bool runs_as_built(int target, const std::string& cc) {
  const std::size_t dot = cc.find('.');
  if (dot == std::string::npos) return false;
  try {
    const int major = std::stoi(cc.substr(0, dot)), minor = std::stoi(cc.substr(dot + 1));
    return target / 10 == major && target % 10 <= minor;
  } catch (const std::exception&) {
    return false;
  }
}

} // namespace judge
