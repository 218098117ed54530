#!/usr/bin/env bash
# Installs the build dependencies from Debian/Ubuntu packages (needs root and a package mirror).
# The CUDA toolkit (nvcc, cuBLAS, CUPTI) is expected in /usr/local/cuda already.
set -euo pipefail
packages=(cmake g++ make pkg-config libyaml-cpp-dev catch2 libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev
          libssl-dev libseccomp-dev libcpp-httplib-dev libcmark-dev libboost-dev)
# --with-browser: Chromium too, for the test that renders the leaderboard page (skipped without it).
# --with-slurm: munge and Slurm's daemons and client, for the single-node cluster of the Slurm backend's
# test (scripts/slurm-single-node.sh; skipped without them).
# --with-fuzzer: clang and libFuzzer, for the fuzz test of the replaying runner's recording decoder and
# check (tests/fuzz/; skipped without them).
for option in "$@"; do
  case $option in
    --with-browser) packages+=(chromium) ;;
    --with-slurm) packages+=(munge slurmctld slurmd slurm-client) ;;
    --with-fuzzer) packages+=(clang-14 libfuzzer-14-dev) ;;
    *) echo "install-deps.sh: unknown option $option (--with-browser, --with-slurm, --with-fuzzer)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all build dependencies are installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
