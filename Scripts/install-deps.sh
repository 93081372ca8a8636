#!/usr/bin/env bash
# Installs the Debian packages sitegen needs to build (and, with --test, to run its
# test suite), only those that are missing. Uses sudo only when not root.
set -euo pipefail

packages=(pkg-config libcmark-dev libyaml-dev)
if [[ "${1:-}" == "--test" ]]; then
    packages+=(python3)
fi

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing ${missing[*]}" >&2
sudo=()
[[ "$(id -u)" -ne 0 ]] && sudo=(sudo)
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
