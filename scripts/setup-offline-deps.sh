#!/usr/bin/env bash
# On a GPU node without internet access: unpacks the .deb files that scripts/fetch-offline-deps.sh
# downloaded into a private prefix (.offline/prefix), but only for dependencies the node lacks, and
# prints the CMake argument that points the build at it. Nothing outside .offline/ is written.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
debs="$root/.offline/debs"
prefix="$root/.offline/prefix"
[ -d "$debs" ] || { echo "setup-offline-deps: $debs is missing; run scripts/fetch-offline-deps.sh where apt works" >&2; exit 2; }
mkdir -p "$prefix"
# dependency : header that shows the system has it : packages to unpack when it does not
needs=(
  "sqlite3:/usr/include/sqlite3.h:libsqlite3-dev libsqlite3-0"
  "yaml-cpp:/usr/include/yaml-cpp/yaml.h:libyaml-cpp-dev libyaml-cpp0.7"
  "fmt:/usr/include/fmt/core.h:libfmt-dev libfmt9"
  "CLI11:/usr/include/CLI/CLI.hpp:libcli11-dev"
  "nlohmann-json:/usr/include/nlohmann/json.hpp:nlohmann-json3-dev"
  "Catch2:/usr/include/catch2:catch2"
  "libseccomp:/usr/include/seccomp.h:libseccomp-dev libseccomp2"
  "cmark:/usr/include/cmark.h:libcmark-dev libcmark0.30.2"
  "cpp-httplib:/usr/include/httplib.h:libcpp-httplib-dev libcpp-httplib0.11"
  "brotli (cpp-httplib's pkg-config file names it):/usr/include/brotli/decode.h:libbrotli-dev libbrotli1"
  "zlib (likewise):/usr/include/zlib.h:zlib1g-dev"
  "Boost (Beast and Asio, header-only):/usr/include/boost/version.hpp:libboost1.74-dev"
)
for need in "${needs[@]}"; do
  IFS=: read -r name header pkgs <<<"$need"
  if [ -e "$header" ]; then
    echo "setup-offline-deps: $name: the system has it"
    continue
  fi
  for pkg in $pkgs; do
    deb=$(ls "$debs"/"${pkg}"_*.deb 2>/dev/null | head -n 1 || true)
    [ -n "$deb" ] || { echo "setup-offline-deps: $name: no .deb for $pkg in $debs" >&2; exit 2; }
    dpkg-deb -x "$deb" "$prefix"
  done
  echo "setup-offline-deps: $name: unpacked into $prefix"
done
# pkg-config files name /usr as their prefix; the unpacked ones live under $prefix/usr.
find "$prefix" -name '*.pc' -exec sed -i "s|^prefix=/usr\$|prefix=$prefix/usr|" {} +
echo "-DCMAKE_PREFIX_PATH=$prefix/usr"
