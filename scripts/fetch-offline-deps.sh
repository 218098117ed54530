#!/usr/bin/env bash
# Run where apt can reach a Debian/Ubuntu mirror: downloads the .deb files of the judge's build
# dependencies into .offline/debs, to be carried to a GPU node that has no internet access and
# unpacked there by scripts/setup-offline-deps.sh. Nothing is installed here.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/.offline/debs"
mkdir -p "$dest"
# Headers and libraries; each -dev package comes with the runtime library it links against.
packages=(libsqlite3-dev libsqlite3-0 libyaml-cpp-dev libyaml-cpp0.7 libfmt-dev libfmt9 libcli11-dev
          nlohmann-json3-dev catch2 libssl-dev libssl3 libseccomp-dev libseccomp2
          libcpp-httplib-dev libcpp-httplib0.11 libbrotli-dev libbrotli1 zlib1g-dev libcmark-dev libcmark0.30.2
          libboost1.74-dev)
cd "$dest"
apt-get download "${packages[@]}"
ls -l "$dest"
echo "fetch-offline-deps: carry $dest to the GPU node and run scripts/setup-offline-deps.sh there"
