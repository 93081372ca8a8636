#!/usr/bin/env bash
# Checks the files `make dist` wrote to dist/ as a user gets them: the checksums, what the
# binary links to and which glibc it asks for, `init` and `build` on a bare glibc Linux (a
# root holding the binary, the C library and /proc, nothing else: no Swift, no Debian
# JavaScript, no time zone files), the tarball's files, and the .deb's fields and files.
# Run by `make test` and by the release workflow on each architecture. Needs root, or user
# namespaces, for the bare root.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=Scripts/release-names.sh
source Scripts/release-names.sh
failures=0
checks=0
ok() { checks=$((checks + 1)); echo "ok   $*"; }
bad() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $*"; }
expect() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

work=$(mktemp -d)
root=$work/root
cleanup() {
    mountpoint -q "$root/proc" 2>/dev/null && umount "$root/proc"
    rm -rf "$work"
}
trap cleanup EXIT

expect "SHA256SUMS matches the tarball and the .deb" \
    bash -c "cd dist && sha256sum --check --strict --quiet SHA256SUMS && [[ \$(wc -l < SHA256SUMS) == 2 ]]"

tar -xzf "$tarball" -C "$work"
binary=$work/$name/sitegen
expected_files="CHANGELOG.md LICENSE README.md THIRD-PARTY-LICENSES completions/_sitegen completions/sitegen.bash completions/sitegen.fish sitegen sitegen-import sitegen.1"
actual_files=$(cd "$work/$name" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
expect "the tarball holds $expected_files" test "$actual_files" = "$expected_files"
expect "the tarball's binary is version $version" bash -c "'$binary' --version | grep -q '^sitegen $version (commit '"
for piece in Leaflet markercluster cmark YAML "Swift" "ICU" "libstdc++"; do
    expect "THIRD-PARTY-LICENSES covers $piece" grep -qi -- "$piece" "$work/$name/THIRD-PARTY-LICENSES"
done

# Only the C library's own: libc, libm, libpthread, libdl, librt, the loader and the vDSO.
others=$(ldd "$binary" | awk '{ print $1 }' | grep -Ev '^(linux-vdso\.so|linux-gate\.so|lib(c|m|pthread|dl|rt)\.so|/lib.*/ld-linux[^/]*\.so)' || true)
expect "ldd lists only the C library ($(ldd "$binary" | awk '{ print $1 }' | tr '\n' ' '))" test -z "$others"
newest=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -t. -k1,1n -k2,2n | tail -1)
expect "the binary asks for glibc $newest, no newer than 2.35 (Ubuntu 22.04)" \
    bash -c "printf '%s\n%s\n' '$newest' 2.35 | sort -t. -k1,1n -k2,2n -C"

# A root that has the binary, the C library it names, /proc and /tmp, and nothing else.
mkdir -p "$root/bin" "$root/tmp" "$root/proc" "$root/site"
cp "$binary" "$root/bin/sitegen"
for library in $(ldd "$binary" | grep -o '/[^ ]*'); do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
done
chroot=$(command -v chroot)
in_root() {
    if [[ $(id -u) == 0 ]]; then
        mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
        env -i HOME=/tmp PATH=/bin "$chroot" "$root" "$@"
    else
        # shellcheck disable=SC2016 # expanded by the inner shell, in the new namespace
        env -i HOME=/tmp PATH=/bin "$(command -v unshare)" --user --map-root-user --mount --fork \
            /bin/sh -c 'mount -t proc proc "$0/proc" && exec '"$chroot"' "$0" "$@"' "$root" "$@"
    fi
}
expect "init works on a bare glibc root" in_root /bin/sitegen init /site/school --timezone Asia/Hong_Kong --currency HKD
# No libvips and no libqrencode there: the starter's photo and its grades' posters are an
# error each that names the package, and nothing is published.
cp -r "$root/site/school" "$work/school-with-photo"
no_libraries=$(in_root /bin/sitegen build --source /site/school --today 2026-12-01T15:00 --quiet 2>&1 || true)
expect "without libvips and libqrencode, the photo and the posters are an error each naming its package ($no_libraries)" \
    bash -c "[[ '$(grep -c 'error:' <<< "$no_libraries")' == 2 && '$no_libraries' == *'sudo apt install libvips42 on Debian 12'* && '$no_libraries' == *'sudo apt install libqrencode4'* && ! -e '$root/site/school/Output' ]]"
# libqrencode where its package puts it, with the parts of the C library it names
# (libpthread.so.0, which the binary does not): without the photo, the site builds.
# awk reads to the end: one that left early could stop ldconfig with SIGPIPE, and with
# pipefail that failed the whole check now and then.
qrencode=$(ldconfig -p | awk '/libqrencode\.so\.4 / && !found { print $NF; found = 1 }')
for library in "$qrencode" $(ldd "$qrencode" | grep -o '/[^ ]*'); do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
done
rm "$root/site/school/Content/articles/lovely-breakfast/toast.jpg"
sed -i '/^cover:/d' "$root/site/school/Content/articles/lovely-breakfast/index.md"
expect "build works there for a site without photos" in_root /bin/sitegen build --source /site/school --today 2026-12-01T15:00 --quiet
expect "the posters' QR codes come from the libqrencode there" grep -q 'class="qr-code"' "$root/site/school/Output/homework/grade-8/poster/index.html"
expect "the map's Leaflet comes from the binary" test -s "$root/site/school/Output/assets/leaflet/leaflet.markercluster.js"
expect "the time zone is known without zoneinfo (14:00 in Hong Kong is +08:00)" \
    grep -q "<updated>2026-12-01T14:00:00+08:00</updated>" "$root/site/school/Output/homework/grade-8/feed.xml"
again=$(in_root /bin/sitegen build --source /site/school --today 2026-12-01T15:00)
expect "a second build writes nothing ($again)" test "${again#Nothing changed: }" != "$again"
expect "where libvips is installed, the binary publishes the starter's photo in its sizes" \
    bash -c "'$binary' build --source '$work/school-with-photo' --today 2026-12-01T15:00 --quiet --no-cache && test -s '$work/school-with-photo/Output/articles/lovely-breakfast/toast-640w.webp'"

# The .deb: its fields, and exactly the files a user gets.
field() { dpkg-deb --field "$deb" "$1"; }
expect "the .deb is sitegen $version for $debian_arch" \
    test "$(field Package) $(field Version) $(field Architecture)" = "sitegen $version $debian_arch"
# sitegen-import, which `sitegen import` runs, links libcurl and libxml2 (Foundation's HTTP
# and XML); sitegen itself only the C library (above).
expect "the .deb depends on the C library, libcurl and libxml2 (for sitegen-import), libvips and libqrencode alone ($(field Depends))" \
    bash -c "[[ '$(field Depends)' =~ ^libc6\ \(\>=\ 2\.[0-9]+\),\ libcurl4\ \(\>=\ [0-9.]+\)\ \|\ libcurl4t64,\ libxml2\ \(\>=\ [0-9.+]+\),\ libvips42\ \(\>=\ 8\.12\)\ \|\ libvips42t64,\ libqrencode4\ \(\>=\ 4\.0\)$ ]]"
expect "the .deb has a section, a priority, a maintainer and a size" \
    bash -c "[[ '$(field Section)' == web && '$(field Priority)' == optional && -n '$(field Maintainer)' && '$(field Installed-Size)' =~ ^[0-9]+$ ]]"
expected_deb="./usr/bin/sitegen ./usr/bin/sitegen-import ./usr/share/bash-completion/completions/sitegen ./usr/share/doc/sitegen/changelog.gz ./usr/share/doc/sitegen/copyright ./usr/share/fish/vendor_completions.d/sitegen.fish ./usr/share/man/man1/sitegen.1.gz ./usr/share/zsh/vendor-completions/_sitegen"
actual_deb=$(dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ { print $NF }' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
expect "the .deb installs $expected_deb" test "$actual_deb" = "$expected_deb"
dpkg-deb --extract "$deb" "$work/deb"
expect "the .deb's binary is the tarball's" cmp -s "$work/deb/usr/bin/sitegen" "$binary"
expect "the .deb's sitegen-import is the tarball's" cmp -s "$work/deb/usr/bin/sitegen-import" "$work/$name/sitegen-import"
expect "sitegen import runs the sitegen-import beside it" \
    bash -c "'$binary' import --source '$work/school-with-photo' --dry-run | grep -q 'has a .feed.'"
expect "the .deb's owners are root" bash -c "! dpkg-deb --contents '$deb' | awk '{ print \$2 }' | grep -qv '^root/root$'"
if [[ $(id -u) == 0 ]]; then
    expect "dpkg would install the .deb here, its dependencies met" dpkg --dry-run --install "$deb"
fi

echo "dist: $((checks - failures)) passed, $failures failed"
((failures == 0))
