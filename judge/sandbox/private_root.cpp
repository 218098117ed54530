#include "judge/sandbox/private_root.hpp"

#include "judge/sandbox/sandbox_limits.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace judge::detail {

// A CUDA toolkit under /usr/local comes with these; a toolkit elsewhere is named by the caller. Not
// /etc: the child gets an /etc of its own (plan_etc). Not /opt, unless asked: a judge installed there
// (docs/deploy.md) keeps its problems, solutions and store below its prefix.
const char* const system_paths[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", nullptr};
const char* const host_opt_path = "/opt";

// Found by compiling the accepted examples with nvcc and g++ in an /etc holding only the synthetic
// files: they need none of these, but the runner's loader finds libcuda and the driver's other
// libraries through ld.so.cache where they are not in the default folders, `cc` (tests, tools) is a
// link through alternatives/, and Nsight Compute reads the OS's name for its report.
const char* const host_etc_paths[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                      "/etc/alternatives", "/etc/os-release", nullptr};

std::vector<std::pair<std::string, std::string>> etc_files(const sandbox_identity& identity) {
  const std::string uid = std::to_string(identity.uid), gid = std::to_string(identity.gid);
  std::vector<std::pair<std::string, std::string>> files = {
      {"passwd", "sandbox:x:" + uid + ":" + gid + ":sandbox:/tmp:/usr/sbin/nologin\n"},
      {"group", "sandbox:x:" + gid + ":\n"},
      {"hosts", "127.0.0.1 localhost\n::1 localhost\n"},
      {"nsswitch.conf", "passwd: files\ngroup: files\nhosts: files\n"},
  };
  // Tools that look up root by name (file ownership in listings) find it too, unless that is the child.
  if (identity.uid != 0) files[0].second = "root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n" + files[0].second;
  if (identity.gid != 0) files[1].second = "root:x:0:\n" + files[1].second;
  return files;
}

namespace {

namespace fs = std::filesystem;

/// [B] the new root's own tmpfs holds only mount points.
constexpr const char* root_tmpfs = "size=1m,mode=0755";
constexpr const char* dev_tmpfs = "size=64k,mode=0755";
/// [B] /dev/shm for the CUDA driver (runners with GPU devices only).
constexpr std::size_t shm_bytes = 64u << 20;

/// The device files every program may use. Not /dev/zero: `#include "/dev/zero"` must fail at once.
const char* const basic_devices[] = {"/dev/null", "/dev/urandom", "/dev/random"};
/// /dev/fd and the standard streams, as links into the child's own /proc (bash and compilers use them).
const std::pair<const char*, const char*> dev_links[] = {
    {"/dev/fd", "/proc/self/fd"},
    {"/dev/stdin", "/proc/self/fd/0"},
    {"/dev/stdout", "/proc/self/fd/1"},
    {"/dev/stderr", "/proc/self/fd/2"},
};

struct path_kind {
  bool exists = false, is_dir = false, is_link = false;
  std::string link_text;
};

path_kind look_at(const std::string& path) {
  struct stat info {};
  path_kind k;
  if (::lstat(path.c_str(), &info) != 0) return k;
  k.exists = true;
  k.is_dir = S_ISDIR(info.st_mode);
  if (S_ISLNK(info.st_mode)) {
    char text[PATH_MAX];
    ssize_t n = ::readlink(path.c_str(), text, sizeof text - 1);
    if (n > 0) {
      k.is_link = true;
      k.link_text.assign(text, static_cast<std::size_t>(n));
    } else {
      k.exists = false;
    }
  }
  return k;
}

/// The path with links resolved, so that a named path and its bind agree on where it lives; empty if
/// it does not exist.
std::string resolved(const fs::path& path) {
  std::error_code ec;
  fs::path real = fs::canonical(fs::absolute(path, ec), ec);
  return ec ? std::string() : real.string();
}

class planner {
public:
  explicit planner(const std::string& root) { m_plan.root = root; }

  void add(mount_step::kind what, const std::string& source, const std::string& shown, bool is_dir,
           bool writable = false, bool device = false, bool no_exec = false) {
    mount_step step;
    step.what = what;
    step.source = source;
    step.target = m_plan.root + shown;
    step.shown = shown;
    step.is_dir = is_dir;
    step.writable = writable;
    step.device = device;
    step.no_exec = no_exec;
    m_plan.steps.push_back(std::move(step));
  }

  root_plan take() { return std::move(m_plan); }

private:
  root_plan m_plan;
};

void plan_system_path(planner& p, const char* path) {
  const path_kind k = look_at(path);
  if (!k.exists) return;
  if (k.is_link)
    p.add(mount_step::kind::symlink, k.link_text, path, false);
  else if (k.is_dir)
    p.add(mount_step::kind::bind, path, path, true);
}

void plan_system(planner& p, bool host_opt) {
  for (const char* const* path = system_paths; *path; ++path) plan_system_path(p, *path);
  if (host_opt) plan_system_path(p, host_opt_path);
}

/// An /etc of the child's own: a tmpfs with the synthetic files and the few host files programs need.
void plan_etc(planner& p, const sandbox_identity& identity) {
  p.add(mount_step::kind::tmpfs, dev_tmpfs, "/etc", true, false, false, true);
  for (const auto& [name, contents] : etc_files(identity)) p.add(mount_step::kind::file, contents, "/etc/" + name, false);
  for (const char* const* path = host_etc_paths; *path; ++path) {
    const path_kind k = look_at(*path);
    if (!k.exists) continue;
    if (k.is_link)
      p.add(mount_step::kind::symlink, k.link_text, *path, false);
    else
      p.add(mount_step::kind::bind, *path, *path, k.is_dir);
  }
  p.add(mount_step::kind::remount_ro, "", "/etc", true, false, false, true);
}

void plan_dev(planner& p, bool gpu_devices) {
  p.add(mount_step::kind::tmpfs, dev_tmpfs, "/dev", true);
  for (const char* device : basic_devices)
    if (look_at(device).exists) p.add(mount_step::kind::bind, device, device, false, false, true);
  for (const auto& [link, text] : dev_links) p.add(mount_step::kind::symlink, text, link, false);
  if (gpu_devices) {
    // /dev/nvidia0.., nvidiactl, nvidia-uvm, nvidia-uvm-tools, nvidia-modeset, and nvidia-caps/ (MIG).
    std::vector<std::string> names;
    if (DIR* dir = ::opendir("/dev")) {
      while (const dirent* entry = ::readdir(dir))
        if (std::strncmp(entry->d_name, "nvidia", 6) == 0) names.push_back(entry->d_name);
      ::closedir(dir);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      const std::string path = "/dev/" + name;
      const path_kind k = look_at(path);
      if (k.exists && !k.is_link) p.add(mount_step::kind::bind, path, path, k.is_dir, false, true);
    }
    p.add(mount_step::kind::tmpfs, "size=" + std::to_string(shm_bytes) + ",mode=1777", "/dev/shm", true, false, false,
          true);
  }
  p.add(mount_step::kind::remount_ro, "", "/dev", true);
}

/// The judge's folders to mask: resolved, existing folders, none of them a named path itself (that one is
/// bound as asked) or "/".
std::vector<std::string> masks_of(const process_options& options) {
  std::vector<std::string> named;
  for (const auto* paths : {&options.read_only_paths, &options.writable_paths})
    for (const fs::path& path : *paths)
      if (!path.empty()) named.push_back(resolved(path));
  std::vector<std::string> masks;
  for (const fs::path& path : options.masked_paths) {
    if (path.empty()) continue;
    const std::string real = resolved(path);
    if (real.empty() || real == "/" || !look_at(real).is_dir) continue;
    if (std::find(named.begin(), named.end(), real) != named.end()) continue;
    // Never the system itself (a $HOME of /usr would hide the compiler).
    bool system = real == host_opt_path;
    for (const char* const* path = system_paths; *path; ++path) system = system || real == *path;
    if (system) continue;
    if (std::find(masks.begin(), masks.end(), real) == masks.end()) masks.push_back(real);
  }
  return masks;
}

/// The scratch folder's inside: a tmpfs of `bytes` owned by the sandbox user (0 of the namespace the
/// root is built in), noexec, with the folder's sub-folders bound read-only into it, and its files too
/// when `with_files`. Files left out may be written anew: nvcc --keep names its intermediate files after
/// the unit's file name, which two units in different folders share, and a read-only file would refuse
/// the second one's (the copy out then replaces the first's).
void plan_scratch(planner& p, const std::string& folder, std::size_t bytes, bool with_files) {
  p.add(mount_step::kind::tmpfs, "size=" + std::to_string(bytes) + ",mode=0755,uid=0,gid=0", folder, true, false, false,
        true);
  std::vector<std::string> names;
  if (DIR* dir = ::opendir(folder.c_str())) {
    while (const dirent* entry = ::readdir(dir))
      if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) names.push_back(entry->d_name);
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = folder + "/" + name;
    const path_kind k = look_at(path);
    // A link is not followed: the judge's own files are never links, and one would name a path outside.
    if (k.exists && !k.is_link && (k.is_dir || with_files))
      p.add(mount_step::kind::bind, path, path, k.is_dir, false, false, true);
  }
}

/// The caller's paths, ancestors first, so that a folder named inside another lands on top of it.
void plan_named(planner& p, const process_options& options, const std::string& scratch) {
  struct named {
    std::string path;
    bool is_dir, writable;
  };
  std::vector<named> all;
  auto collect = [&](const std::vector<fs::path>& paths, bool writable) {
    for (const fs::path& path : paths) {
      if (path.empty()) continue; // not "the working directory"
      const std::string real = resolved(path);
      if (real.empty() || real == "/") continue; // "/" would undo the whole point
      all.push_back({real, look_at(real).is_dir, writable});
    }
  };
  collect(options.read_only_paths, false);
  collect(options.writable_paths, true);
  auto depth = [](const std::string& s) { return std::count(s.begin(), s.end(), '/'); };
  std::stable_sort(all.begin(), all.end(),
                   [&](const named& a, const named& b) { return depth(a.path) < depth(b.path); });
  // The scratch folder named read-only too (a source in it is compiled: its includes are beside it):
  // its files are shown; otherwise only the files named below it are.
  bool scratch_files = false;
  for (const named& n : all) scratch_files = scratch_files || (!n.writable && n.path == scratch);
  // Writable means data: what a child writes it may not run.
  for (const named& n : all) {
    if (!scratch.empty() && n.path == scratch && !n.writable) continue; // shown by the scratch's own binds
    if (n.writable && n.path == scratch)
      plan_scratch(p, scratch, options.scratch_bytes, scratch_files);
    else
      p.add(mount_step::kind::bind, n.path, n.path, n.is_dir, n.writable, false, n.writable);
  }
  // A path named through a link (/usr/local/cuda, /opt/cuda -> cuda-12.4) is bound where the link
  // leads; the link itself is made too, where no bind shows it, so that the name given still works.
  std::vector<std::string> links;
  for (const auto* paths : {&options.read_only_paths, &options.writable_paths})
    for (const fs::path& path : *paths) {
      if (path.empty() || !path.is_absolute()) continue;
      fs::path prefix = "/";
      for (const fs::path& part : path.lexically_normal().relative_path()) {
        prefix /= part;
        const path_kind k = look_at(prefix.string());
        if (!k.exists) break;
        if (!k.is_link) continue;
        if (std::find(links.begin(), links.end(), prefix.string()) == links.end()) {
          links.push_back(prefix.string());
          p.add(mount_step::kind::symlink, k.link_text, prefix.string(), false);
        }
        break;
      }
    }
}

// ---- the child (async-signal-safe calls only) ----

/// mkdir -p of `path`'s ancestors.
int make_parents(const std::string& path) {
  char buffer[PATH_MAX];
  if (path.size() >= sizeof buffer) return ENAMETOOLONG;
  std::memcpy(buffer, path.c_str(), path.size() + 1);
  for (char* slash = std::strchr(buffer + 1, '/'); slash; slash = std::strchr(slash + 1, '/')) {
    *slash = '\0';
    if (::mkdir(buffer, 0755) != 0 && errno != EEXIST) return errno;
    *slash = '/';
  }
  return 0;
}

/// mkdir -p of `path` (or its ancestors and an empty file); an existing path stays as it is (it may be
/// inside a read-only bind, where nothing can be created).
int make_mount_point(const std::string& path, bool is_dir) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0) return 0;
  if (int error = make_parents(path)) return error;
  if (is_dir) return ::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST ? 0 : errno;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return errno == EEXIST ? 0 : errno;
  ::close(fd);
  return 0;
}

/// Makes the mount at `target` and every mount below it read-only (and, unless `device`, without
/// device files or set-user-id programs). mount_setattr (Linux 5.12) reaches the submounts too, which
/// a remount cannot: /etc/resolv.conf in a container, /sys/fs/cgroup.
int make_read_only(const char* target, bool device) {
  mount_attr attr{};
  attr.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | (device ? 0 : MOUNT_ATTR_NODEV);
  if (::syscall(SYS_mount_setattr, AT_FDCWD, target, AT_RECURSIVE, &attr, sizeof attr) != 0) return errno;
  return 0;
}

/// Makes the writable mount at `target` and every mount below it data only: no exec, no set-user-id
/// programs, no device files.
int make_data_only(const char* target) {
  mount_attr attr{};
  attr.attr_set = MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
  if (::syscall(SYS_mount_setattr, AT_FDCWD, target, AT_RECURSIVE, &attr, sizeof attr) != 0) return errno;
  return 0;
}

int run_step(const mount_step& step) {
  const char* target = step.target.c_str();
  switch (step.what) {
  case mount_step::kind::tmpfs:
    if (int error = make_mount_point(step.target, true)) return error;
    return ::mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | (step.no_exec ? MS_NOEXEC : 0),
                   step.source.c_str()) == 0
               ? 0
               : errno;
  case mount_step::kind::bind:
    if (int error = make_mount_point(step.target, step.is_dir)) return error;
    if (::mount(step.source.c_str(), target, nullptr, MS_BIND | MS_REC, nullptr) != 0) return errno;
    if (step.no_exec)
      if (int error = make_data_only(target)) return error;
    return step.writable ? 0 : make_read_only(target, step.device);
  case mount_step::kind::file: {
    if (int error = make_parents(step.target)) return error;
    int fd = ::open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return errno;
    const char* data = step.source.data();
    std::size_t left = step.source.size();
    while (left > 0) {
      const ssize_t n = ::write(fd, data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int error = n < 0 ? errno : EIO;
        ::close(fd);
        return error;
      }
      data += n;
      left -= static_cast<std::size_t>(n);
    }
    return ::close(fd) == 0 ? 0 : errno;
  }
  case mount_step::kind::proc:
    if (int error = make_mount_point(step.target, true)) return error;
    return ::mount("proc", target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0 ? 0 : errno;
  case mount_step::kind::symlink: {
    struct stat info {};
    if (::lstat(target, &info) == 0) return 0; // the bind of a parent brought it already
    if (int error = make_parents(step.target)) return error;
    return ::symlink(step.source.c_str(), target) == 0 ? 0 : errno;
  }
  case mount_step::kind::remount_ro:
    // A remount sets every flag anew: one the tmpfs was made with (noexec) must be named again.
    return ::mount(nullptr, target, nullptr,
                   MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | (step.no_exec ? MS_NOEXEC : 0),
                   nullptr) == 0
               ? 0
               : errno;
  case mount_step::kind::mask: {
    struct stat info {};
    if (::stat(target, &info) != 0 || !S_ISDIR(info.st_mode)) return 0; // no bind shows it: nothing to mask
    return ::mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, judge::sandbox_limits::mask_tmpfs) == 0
               ? 0
               : errno;
  }
  case mount_step::kind::seal: {
    // Only a mask that was mounted: a folder on another file system than its parent's.
    struct stat info {
    }, parent{};
    char above[PATH_MAX];
    const std::size_t length = step.target.size();
    if (length >= sizeof above) return ENAMETOOLONG;
    std::memcpy(above, target, length + 1);
    char* slash = std::strrchr(above, '/');
    if (!slash || slash == above) return 0;
    *slash = '\0';
    if (::stat(target, &info) != 0 || ::stat(above, &parent) != 0 || info.st_dev == parent.st_dev) return 0;
    return ::mount(nullptr, target, nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                   nullptr) == 0
               ? 0
               : errno;
  }
  case mount_step::kind::cover: {
    struct stat info {};
    if (::stat(target, &info) != 0) return 0; // not visible in the new root: nothing to cover
    int rc = S_ISDIR(info.st_mode)
                 ? ::mount("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0755")
                 : ::mount("/dev/null", target, nullptr, MS_BIND, nullptr);
    return rc == 0 ? 0 : errno;
  }
  }
  return EINVAL;
}

} // namespace

root_plan plan_private_root(const process_options& options, const std::string& root,
                            const sandbox_identity& identity) {
  planner p(root);
  plan_system(p, options.host_opt);
  // The judge's own folders a system bind shows, before the named paths, which may lie below them.
  const std::vector<std::string> masks = masks_of(options);
  for (const std::string& mask : masks) p.add(mount_step::kind::mask, "", mask, true);
  plan_etc(p, identity);
  p.add(mount_step::kind::tmpfs, "size=" + std::to_string(options.tmp_bytes) + ",mode=1777", "/tmp", true, false,
        false, true);
  plan_dev(p, options.gpu_devices);
  p.add(mount_step::kind::proc, "", "/proc", true);
  if (options.gpu_devices) p.add(mount_step::kind::bind, "/sys", "/sys", true);
  std::string scratch;
  if (options.scratch_bytes > 0 && !options.working_dir.empty()) {
    scratch = resolved(options.working_dir);
    bool writable = false;
    for (const fs::path& path : options.writable_paths)
      writable = writable || (!path.empty() && resolved(path) == scratch);
    if (!writable || scratch == "/") scratch.clear();
  }
  plan_named(p, options, scratch);
  for (const std::string& mask : masks) p.add(mount_step::kind::seal, "", mask, true);
  // Defence in depth: a secret or database under a bound folder (an install in /opt) stays covered.
  for (const fs::path& hidden : options.hidden_paths) {
    const std::string real = resolved(hidden);
    if (!real.empty() && real != "/") p.add(mount_step::kind::cover, "", real, look_at(real).is_dir);
  }
  p.add(mount_step::kind::remount_ro, "", "", true); // the root itself, last
  root_plan plan = p.take();
  plan.scratch = scratch;
  return plan;
}

int enter_private_root(const root_plan& plan, int* failed_step) {
  const char* root = plan.root.c_str();
  *failed_step = -1;
  if (::mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, root_tmpfs) != 0) return errno;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    if (int error = run_step(plan.steps[i])) {
      *failed_step = static_cast<int>(i);
      ::umount2(root, MNT_DETACH);
      return error;
    }
  }
  // pivot_root(".", ".") stacks the old root under the new one, where it can be detached at once.
  int error = 0;
  if (::chdir(root) != 0 || ::syscall(SYS_pivot_root, ".", ".") != 0)
    error = errno;
  else if (::umount2(".", MNT_DETACH) != 0 || ::chdir("/") != 0)
    return errno; // past the pivot there is no way back to the old root
  if (error) {
    *failed_step = static_cast<int>(plan.steps.size());
    (void)::chdir("/");
    ::umount2(root, MNT_DETACH);
  }
  return error;
}

} // namespace judge::detail
