# The names of this machine's release files, sourced by dist.sh and check-dist.sh:
# $version, $arch (x86_64, arm64), $debian_arch (amd64, arm64), $name (the tarball's folder),
# $tarball and $deb (their paths in dist/).
# shellcheck shell=bash
version=$(tr -d ' \n' < VERSION)
case $(uname -m) in
    x86_64) arch=x86_64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "sitegen is released for x86_64 and arm64, not $(uname -m)" >&2; exit 1 ;;
esac
debian_arch=$(dpkg --print-architecture)
name=sitegen-$version-linux-$arch
tarball=dist/$name.tar.gz
deb=dist/sitegen_${version}_${debian_arch}.deb
export version arch debian_arch name tarball deb
