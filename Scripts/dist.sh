#!/usr/bin/env bash
# make dist: the release files of this machine's architecture, in dist/:
#   sitegen-<version>-linux-<arch>.tar.gz   the binary, its man page and completions, the
#                                           licences and a short README
#   sitegen_<version>_<debian arch>.deb     the same, installed where Debian keeps them, with
#                                           Depends from dpkg-shlibdeps
#   SHA256SUMS
# Files carry the commit's time and no owner, so the same commit gives the same archives.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh --dist
Scripts/build-release.sh

# shellcheck source=Scripts/release-names.sh
source Scripts/release-names.sh
binary=.build/release/sitegen
line=$("$binary" --version)
[[ $line == "sitegen $version "* ]] || { echo "dist: the binary says '$line', VERSION says $version" >&2; exit 1; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
repository=$(Scripts/build-info.sh --repository .)
homepage=${repository:+https://github.com/$repository}

stage=.build/dist
rm -rf "$stage" dist
mkdir -p "$stage" dist

# The licences of what the binary carries, from the Debian packages it was linked from.
licences() {
    local owner
    printf 'The sitegen binary carries the following software, under these licences.\n'
    for path in /usr/share/javascript/leaflet/leaflet.js /usr/share/javascript/leaflet/leaflet.markercluster.js \
        "/usr/lib/$(gcc -print-multiarch)/libcmark.a" "/usr/lib/$(gcc -print-multiarch)/libyaml.a" \
        "$(readlink -f "$(clang -print-file-name=libstdc++.a)")"; do
        owner=$(dpkg -S "$path" | head -1 | cut -d: -f1)
        printf '\n\n==== %s (Debian package %s) ====\n\n' "$(basename "$path")" "$owner"
        cat "/usr/share/doc/$owner/copyright"
    done
    local swift
    swift=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
    printf '\n\n==== The Swift runtime and Foundation (the Swift toolchain) ====\n\n'
    cat "$swift/share/swift/LICENSE.txt"
    printf '\n\n==== ICU data, in Foundation ====\n\n'
    cat "$(find /usr/share/icu -name LICENSE | sort -V | tail -1)"
}

# One folder laid out as the tarball and one as the package; both from the same files.
tree=$stage/$name
mkdir -p "$tree/completions"
install -m 755 "$binary" "$tree/sitegen"
install -m 755 "$(dirname "$binary")/sitegen-import" "$tree/sitegen-import"
strip --strip-unneeded "$tree/sitegen" "$tree/sitegen-import" 2>/dev/null || true
"$tree/sitegen" man > "$tree/sitegen.1"
"$tree/sitegen" completion bash > "$tree/completions/sitegen.bash"
"$tree/sitegen" completion zsh > "$tree/completions/_sitegen"
"$tree/sitegen" completion fish > "$tree/completions/sitegen.fish"
cp LICENSE CHANGELOG.md "$tree/"
licences > "$tree/THIRD-PARTY-LICENSES"
docs="the docs/ folder of sitegen's repository"
[[ -z $homepage ]] || docs=$homepage/tree/v$version/docs
sed -e "s|@VERSION@|$version|g" -e "s|@DOCS@|$docs|" Scripts/dist/README.md > "$tree/README.md"

root=$stage/deb
install -D -m 755 "$tree/sitegen" "$root/usr/bin/sitegen"
install -D -m 755 "$tree/sitegen-import" "$root/usr/bin/sitegen-import"
install -d "$root/usr/share/man/man1" "$root/usr/share/doc/sitegen"
gzip -9n < "$tree/sitegen.1" > "$root/usr/share/man/man1/sitegen.1.gz"
install -D -m 644 "$tree/completions/sitegen.bash" "$root/usr/share/bash-completion/completions/sitegen"
install -D -m 644 "$tree/completions/_sitegen" "$root/usr/share/zsh/vendor-completions/_sitegen"
install -D -m 644 "$tree/completions/sitegen.fish" "$root/usr/share/fish/vendor_completions.d/sitegen.fish"
gzip -9n < CHANGELOG.md > "$root/usr/share/doc/sitegen/changelog.gz"
{
    printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: sitegen\n'
    [[ -n $homepage ]] && printf 'Source: %s\n' "$homepage"
    printf '\nFiles: *\nCopyright: 2026 the sitegen authors\nLicense: MIT\n'
    sed -e 's/^$/./' -e 's/^/ /' LICENSE
    printf '\n'
    sed -e 's/^$/./' -e 's/^/ /' "$tree/THIRD-PARTY-LICENSES"
} > "$root/usr/share/doc/sitegen/copyright"

# dpkg-shlibdeps reads the package's name from a debian/control of the folder it runs in.
mkdir -p "$stage/shlibs/debian"
printf 'Source: sitegen\n\nPackage: sitegen\nArchitecture: any\n' > "$stage/shlibs/debian/control"
# sitegen-import links libcurl and libxml2; libcurl's package is libcurl4t64 from Debian 13
# and Ubuntu 24.04.
depends=$(cd "$stage/shlibs" && dpkg-shlibdeps -O -e "$OLDPWD/$root/usr/bin/sitegen" -e "$OLDPWD/$root/usr/bin/sitegen-import" 2>/dev/null \
    | sed -n 's/^shlibs:Depends=//p' | sed -E 's/(libcurl4 \([^)]*\))/\1 | libcurl4t64/')
[[ -n $depends ]] || { echo "dist: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# sitegen opens libvips when a site has photos, and libqrencode when it has posters
# (dpkg-shlibdeps sees no link to them); libvips's package is libvips42t64 from Debian 13
# and Ubuntu 24.04.
depends="$depends, libvips42 (>= 8.12) | libvips42t64, libqrencode4 (>= 4.0)"
mkdir -p "$root/DEBIAN"
{
    printf 'Package: sitegen\nVersion: %s\nArchitecture: %s\n' "$version" "$debian_arch"
    printf 'Maintainer: sitegen maintainers <maintainers@users.noreply.a-seed-69284502.example>\n'
    printf 'Installed-Size: %s\nDepends: %s\nSection: web\nPriority: optional\n' "$(du -sk --exclude=DEBIAN "$root" | cut -f1)" "$depends"
    [[ -n $homepage ]] && printf 'Homepage: %s\n' "$homepage"
    printf 'Description: static-site generator for food articles and homework digests\n'
    printf ' sitegen turns a folder of Markdown files with YAML front matter into a fast,\n'
    printf ' accessible website: food articles with photos, prices and a map of the\n'
    printf ' restaurants, and homework digests per grade with feeds, calendars and a\n'
    printf ' printable agenda. It serves the site while you write and publishes it from CI.\n'
}  > "$root/DEBIAN/control"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null

tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -C "$stage" -cf - "$name" |
    gzip -9n > "$tarball"
(cd dist && sha256sum -- *.tar.gz *.deb > SHA256SUMS)
ls -l dist
