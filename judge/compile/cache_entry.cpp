#include "judge/compile/cache_entry.hpp"

#include "judge/compile/content_hash.hpp"
#include "judge/base/file_input.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

namespace judge {
namespace fs = std::filesystem;
namespace {

/// Part of a solution's cache key only: its entries hold ptxas's resource lines and the tensor-core
/// answer since this format, so older entries (without them) are not reused.
constexpr const char* solution_entry_format = "solution.so + ptxas_info.txt + tensor_cores.txt + device/*.fatbin";

std::string tensor_cores_text(const std::optional<bool>& uses) { return uses ? (*uses ? "yes" : "no") : "unknown"; }

/// The answer kept in a cache entry: unknown when the file is missing or says anything else.
std::optional<bool> kept_tensor_cores(const fs::path& entry) {
  std::error_code unreadable;
  const auto text = read_file(entry / cached_solution::tensor_cores_file, unreadable);
  if (text && *text == "yes") return true;
  if (text && *text == "no") return false;
  return std::nullopt;
}

} // namespace

staging_dir::staging_dir(const fs::path& final_dir) : m_staged(final_dir) { fs::create_directories(path()); }

void staging_dir::publish() {
  reclaim();
  m_staged.publish(on_existing::keep);
}

void staging_dir::reclaim() const {
  if (::getuid() != 0) return;
  std::error_code ec;
  auto own = [](const fs::path& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) return;
    if (info.st_uid != 0 || info.st_gid != 0) (void)::lchown(path.c_str(), 0, 0);
    if (!S_ISLNK(info.st_mode) && (info.st_mode & (S_IWGRP | S_IWOTH)))
      (void)::chmod(path.c_str(), info.st_mode & ~(S_IWGRP | S_IWOTH) & 07777);
  };
  own(path());
  for (auto it = fs::recursive_directory_iterator(path(), ec), end = fs::recursive_directory_iterator();
       !ec && it != end; it.increment(ec))
    own(it->path());
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

void mark_cache_entry_used(const fs::path& entry) {
  std::error_code ignored;
  fs::last_write_time(entry, fs::file_time_type::clock::now(), ignored);
}

std::string solution_entry_key(const fs::path& source, const std::vector<fs::path>& hashed, runner_kind kind,
                               const std::string& declaration, const std::string& runner_key,
                               const std::vector<std::string>& link_libraries) {
  content_hash hash;
  hash.add(cache_format).add(kind == runner_kind::baseline ? "baseline" : "solution");
  // A folder's layout matters (#include "kernels/tile.cuh"); a single file's name does not.
  for (const fs::path& file : hashed)
    hash.add(file == source ? "" : fs::relative(file, source).string()).add_file(file);
  hash.add(declaration).add(runner_key);
  for (const auto& library : link_libraries) hash.add(library);
  if (kind == runner_kind::solution) hash.add(solution_entry_format);
  return hash.hex();
}

std::vector<fs::path> device_code_files(const fs::path& entry) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(entry / cached_solution::device_code_folder, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().extension() == ".fatbin") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

bool read_solution_entry(const fs::path& entry, runner_kind kind, build_result& result) {
  if (!fs::exists(entry / cached_solution::object_file)) return false;
  mark_cache_entry_used(entry);
  result.cached = true;
  std::error_code unreadable; // an entry without the file (published by hand) just has no kernels
  if (kind == runner_kind::solution) {
    if (auto ptxas_info = read_file(entry / cached_solution::ptxas_info_file, unreadable))
      result.kernels = parse_ptxas_resources(*ptxas_info);
    result.uses_tensor_cores = kept_tensor_cores(entry);
    result.device_code = device_code_files(entry);
  }
  return true;
}

void publish_solution_entry(staging_dir& staging, runner_kind kind, const std::string& ptxas_info,
                            const std::optional<bool>& uses_tensor_cores) {
  const fs::path work = staging.path();
  const fs::path solution = work / cached_solution::object_file;
  const fs::path ptxas_info_path = work / cached_solution::ptxas_info_file;
  const fs::path tensor_cores_path = work / cached_solution::tensor_cores_file;
  const fs::path device_dir = work / cached_solution::device_code_folder;
  if (kind == runner_kind::solution) {
    write_text(ptxas_info_path, ptxas_info);
    write_text(tensor_cores_path, tensor_cores_text(uses_tensor_cores));
  }
  for (const auto& entry : fs::directory_iterator(work))
    if (entry.path() != solution && entry.path() != ptxas_info_path && entry.path() != tensor_cores_path &&
        entry.path() != device_dir)
      fs::remove_all(entry.path());
  staging.publish();
}

} // namespace judge
