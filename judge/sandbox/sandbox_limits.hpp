// The limits the judge gives untrusted children: compiles of learner code and runners. One place, so
// that every site that starts one agrees, and the security notes can name a single file.
#pragma once

#include <cstddef>

namespace judge::sandbox_limits {

constexpr std::size_t mib = std::size_t(1) << 20;
constexpr std::size_t gib = std::size_t(1) << 30;

/// nvcc, its cicc/ptxas and the host compiler, on the learner's sources.
namespace compile {
constexpr std::size_t tmp_bytes = 256 * mib;  ///< [B] private /tmp (nvcc's own temporaries go to the staging folder)
constexpr std::size_t memory_bytes = 4 * gib; ///< [B] cgroup memory.max
constexpr int max_pids = 256;                 ///< cgroup pids.max
/// [B] RLIMIT_AS, the bound where no memory cgroup is delegated: a preprocessor that grows without end
/// (an include of an endless file) stops at this, within seconds, instead of at the kernel's OOM killer.
constexpr std::size_t address_space_bytes = 8 * gib;
constexpr std::size_t file_size_bytes = 1 * gib; ///< [B] RLIMIT_FSIZE: the largest object or executable
/// [B] everything one build may write to its staging folder, over all its tools: each tool writes into
/// a tmpfs of what is left of this inside its sandbox (process_options::scratch_bytes), and only what
/// it leaves there reaches the runner cache's disk. A folder of units that each emit a huge object
/// stops here, not at a full disk. It lives in memory while a tool runs, so it counts against
/// memory_bytes.
constexpr std::size_t scratch_bytes = 1 * gib;
} // namespace compile

/// The empty read-only folder put over each of the judge's own folders (its install prefix, problems,
/// runner cache, store, $HOME) that a bound system folder would otherwise show (an install under /usr/local).
constexpr const char* mask_tmpfs = "size=4k,mode=0755";

/// A runner: the harness with the learner's code in it. No RLIMIT_AS: the CUDA driver reserves address
/// space far beyond any memory it uses (unified addressing), so only the cgroup bounds its memory.
namespace runner {
constexpr std::size_t tmp_bytes = 256 * mib;   ///< [B] private /tmp
constexpr std::size_t memory_bytes = 16 * gib; ///< [B] cgroup memory.max (host memory; GPU memory is the device's)
constexpr int max_pids = 512;                  ///< cgroup pids.max (the CUDA driver starts a few threads)
/// [B] RLIMIT_FSIZE: an output file holds one output buffer; 16 GiB is more than any problem's largest.
constexpr std::size_t file_size_bytes = 16 * gib;
} // namespace runner

} // namespace judge::sandbox_limits
