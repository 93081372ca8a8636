#!/usr/bin/env bash
# Builds .build/release/sitegen as it is released: a binary that runs on a bare glibc Linux.
# The Swift runtime and Foundation are linked in (--static-swift-stdlib), and so are
# libcmark, libyaml and the C++ library, from Debian's static archives. The package manager
# takes each library's folder from its pkg-config file and puts it first among the linker's
# folders; copies of those files name a folder that holds only the static archives, so that
# -lcmark, -lyaml and -lstdc++ find them there. `ldd` then lists only the C library's own.
set -euo pipefail
cd "$(dirname "$0")/.."

archives=$PWD/.build/static-archives
mkdir -p "$archives"
multiarch=$(gcc -print-multiarch 2>/dev/null || true)
[[ -n $multiarch ]] || multiarch="$(uname -m)-linux-gnu"
for library in cmark:libcmark yaml:yaml-0.1; do
    name=${library%%:*}
    package=${library#*:}
    archive=/usr/lib/$multiarch/lib$name.a
    description=/usr/lib/$multiarch/pkgconfig/$package.pc
    if [[ ! -f $archive || ! -f $description ]]; then
        echo "build-release: $archive or $description is missing: apt-get install libcmark-dev libyaml-dev" >&2
        exit 1
    fi
    ln -sf "$archive" "$archives/lib$name.a"
    sed -e "s|^libdir=.*|libdir=$archives|" "$description" > "$archives/$package.pc"
done
ln -sf "$(clang -print-file-name=libstdc++.a)" "$archives/libstdc++.a"

# sitegen-import too, which `sitegen import` runs: the same, but for libcurl and libxml2,
# which Foundation's HTTP and XML link and it links as shared libraries.
for product in sitegen sitegen-import; do
    PKG_CONFIG_PATH="$archives${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
        swift build -c release --product "$product" --static-swift-stdlib \
        -Xlinker -L"$archives" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc "$@"
done
