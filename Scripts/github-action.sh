#!/usr/bin/env bash
# The steps of the sitegen GitHub Action (action.yml), kept here so that they run and are
# tested outside GitHub as well:
#
#   Scripts/github-action.sh plan      where the binary goes and the key it is cached by
#   Scripts/github-action.sh install   puts sitegen there: the release of the action's
#                                      version, checked against SHA256SUMS, or else built
#                                      from the action's own sources
#   Scripts/github-action.sh build     runs sitegen build with the action's inputs
#
# What GitHub gives the action comes in the environment:
#   ACTION_PATH        the action's files at its ref (GITHUB_ACTION_PATH)
#   ACTION_REPOSITORY  owner/name the action was used from (github.action_repository)
#   ACTION_REF         the ref it was used at (github.action_ref): a tag, a commit, a branch
#   RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_PATH   as on any runner (optional here)
# and for tests or mirrors:
#   SITEGEN_DOWNLOAD_URL  where the release's files are (default: the GitHub release of the
#                         version); a file:// URL works
#   SITEGEN_OS, SITEGEN_ARCH   the system and machine, instead of uname's
#   SITEGEN_INSTALL_DIR   where the binary goes (default: under RUNNER_TOOL_CACHE or ~/.cache)
set -euo pipefail

say() { printf '%s\n' "$*" >&2; }
fail() { say "::error title=sitegen::$*"; exit 1; }
notice() { say "::notice title=sitegen::$*"; }
output() {
    printf '%s=%s\n' "$1" "$2"
    if [[ -n ${GITHUB_OUTPUT:-} ]]; then printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; fi
}

action_path=${ACTION_PATH:-${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}}
[[ -f $action_path/VERSION ]] || fail "no VERSION file in $action_path: is this sitegen's repository?"
version=$(tr -d ' \n' < "$action_path/VERSION")

# GitHub leaves github.action_repository and github.action_ref empty in some composite
# actions; the runner keeps an action's files in _actions/<owner>/<name>/<ref>, which tells.
repository=${ACTION_REPOSITORY:-}
ref=${ACTION_REF:-}
if [[ -z $repository || -z $ref ]] && [[ $action_path =~ /_actions/([^/]+)/([^/]+)/([^/]+)$ ]]; then
    repository=${repository:-${BASH_REMATCH[1]}/${BASH_REMATCH[2]}}
    ref=${ref:-${BASH_REMATCH[3]}}
fi

system=${SITEGEN_OS:-$(uname -s)}
machine=${SITEGEN_ARCH:-$(uname -m)}
case $machine in
    x86_64 | amd64 | X64) arch=x86_64 ;;
    aarch64 | arm64 | ARM64) arch=arm64 ;;
    *) arch="" ;;
esac

# Which release the ref stands for, if any: its own tag, a commit (checked against the
# binary's once downloaded), or a shorter tag such as v1 that the version falls under.
release_commit=""
uses_release=false
if [[ $ref == "v$version" ]]; then
    uses_release=true
elif [[ $ref =~ ^[0-9a-f]{40}$ ]]; then
    uses_release=true
    release_commit=$ref
elif [[ $ref =~ ^v[0-9]+(\.[0-9]+)?$ && "v$version." == "$ref."* ]]; then
    uses_release=true
fi

tree_hash() {
    (cd "$action_path" && find Package.swift VERSION Sources Plugins Scripts Themes Starter -type f -print0 2>/dev/null |
        LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}

install_dir() {
    if [[ -n ${SITEGEN_INSTALL_DIR:-} ]]; then
        printf '%s\n' "$SITEGEN_INSTALL_DIR"
    else
        printf '%s/sitegen/%s-%s\n' "${RUNNER_TOOL_CACHE:-$HOME/.cache}" "$version" "${ref//\//-}"
    fi
}

plan() {
    local key="sitegen-$version-linux-${arch:-$machine}"
    if $uses_release; then key+="-release-$ref"; else key+="-source-$(tree_hash)"; fi
    output dir "$(install_dir)"
    output key "$key"
}

# Downloads the release's tarball and SHA256SUMS into $1; returns 3 when the release has no
# such files (the caller builds from source), fails on anything else.
download() {
    local folder=$1 base name
    base=${SITEGEN_DOWNLOAD_URL:-https://github.com/$repository/releases/download/v$version}
    name="sitegen-$version-linux-$arch.tar.gz"
    for file in SHA256SUMS "$name"; do
        local status=0
        curl --fail --silent --show-error --location --retry 3 --max-time 300 --proto '=https,file' \
            --output "$folder/$file" "$base/$file" 2> "$folder/curl.log" || status=$?
        if ((status != 0)); then
            # 22: an HTTP error (GitHub answers 404 for a release without the file); 37: no such file://.
            if [[ $status == 22 || $status == 37 ]]; then
                say "No $file at $base ($(tr -d '\n' < "$folder/curl.log"))"
                return 3
            fi
            fail "could not download $base/$file: $(cat "$folder/curl.log")"
        fi
    done
    local expected actual
    expected=$(awk -v name="$name" '$2 == name || $2 == "*" name { print $1 }' "$folder/SHA256SUMS")
    [[ -n $expected ]] || fail "SHA256SUMS of v$version has no line for $name"
    actual=$(sha256sum "$folder/$name" | cut -d' ' -f1)
    [[ $actual == "$expected" ]] || fail "$name does not match its checksum in SHA256SUMS (expected $expected, found $actual): not installed"
    tar -xzf "$folder/$name" -C "$folder"
    [[ -x $folder/sitegen-$version-linux-$arch/sitegen ]] || fail "$name holds no sitegen-$version-linux-$arch/sitegen"
}

build_from_source() {
    local reason=$1 destination=$2 commit=""
    notice "$reason: building sitegen $version from the action's own sources (a few minutes; the binary is then cached)"
    command -v swift >/dev/null || fail "building sitegen needs Swift 6 on the runner (GitHub's Ubuntu runners have it)"
    [[ $ref =~ ^[0-9a-f]{40}$ ]] && commit=$ref
    (
        cd "$action_path"
        Scripts/install-deps.sh
        SITEGEN_COMMIT=$commit SITEGEN_REPOSITORY=$repository Scripts/build-release.sh
    ) >&2
    install -D -m 755 "$action_path/.build/release/sitegen" "$destination/bin/sitegen"
    install -D -m 755 "$action_path/.build/release/sitegen-import" "$destination/bin/sitegen-import"
    output source build
}

# sitegen opens libvips to publish photos and libqrencode to draw posters: installed from
# the runner's packages when they are missing, as the .deb's dependencies would be.
ensure_libraries() {
    local packages=()
    ldconfig -p 2>/dev/null | grep -q 'libvips\.so\.42 ' || packages+=(libvips)
    ldconfig -p 2>/dev/null | grep -q 'libqrencode\.so\.4 ' || packages+=(libqrencode4)
    ((${#packages[@]})) || return 0
    if ! command -v apt-get >/dev/null; then
        notice "${packages[*]} not installed and this runner has no apt-get: a site with photos or homework posters will not build (install libvips 8.12 or later and libqrencode 4)"
        return
    fi
    local sudo=()
    [[ $(id -u) -ne 0 ]] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq >&2
    if [[ ${packages[0]} == libvips ]]; then
        # libvips42t64 from Ubuntu 24.04 and Debian 13, libvips42 before.
        packages[0]=libvips42
        apt-cache show libvips42t64 >/dev/null 2>&1 && packages[0]=libvips42t64
    fi
    say "Installing ${packages[*]}, which sitegen opens to publish photos and draw posters"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2
}

install_sitegen() {
    [[ $system == Linux ]] || fail "sitegen publishes builds for Linux only, and this runner is $system: use a Linux runner (runs-on: ubuntu-latest)"
    [[ -n $arch ]] || fail "sitegen publishes builds for x86_64 and arm64 Linux, and this runner is $machine"
    local destination
    destination=$(install_dir)
    if [[ -x $destination/bin/sitegen ]] && "$destination/bin/sitegen" --version >/dev/null 2>&1; then
        say "sitegen found in $destination (cached): $("$destination/bin/sitegen" --version)"
        output source cache
    elif ! $uses_release; then
        build_from_source "The action is used at '$ref', which names no release" "$destination"
    else
        local work status=0
        work=$(mktemp -d "${RUNNER_TEMP:-/tmp}/sitegen-release.XXXXXX")
        download "$work" || status=$?
        if ((status == 3)); then
            build_from_source "Release v$version of $repository has no files for linux-$arch" "$destination"
        else
            local unpacked="$work/sitegen-$version-linux-$arch" line
            line=$("$unpacked/sitegen" --version)
            if [[ -n $release_commit && $line != *"commit $release_commit"* ]]; then
                build_from_source "The action's commit $release_commit is not the one release v$version was built from ($line)" "$destination"
            else
                install -D -m 755 "$unpacked/sitegen" "$destination/bin/sitegen"
                install -D -m 755 "$unpacked/sitegen-import" "$destination/bin/sitegen-import"
                say "Installed the release: $line"
                output source release
            fi
        fi
        rm -rf "$work"
    fi
    ensure_libraries
    if [[ -n ${GITHUB_PATH:-} ]]; then printf '%s\n' "$destination/bin" >> "$GITHUB_PATH"; fi
    output path "$destination/bin/sitegen"
    output version "$version"
}

# `sitegen import` before the build: the number of files it wrote is an output; a feed that
# fails is a warning, since the other teachers' work should still be published tonight.
import_posts() {
    local sitegen=$1 source=$2 report status=0
    say "sitegen import --source $source"
    report=$("$sitegen" import --source "$source") || status=$?
    say "$report"
    ((status == 0)) || say "::warning title=sitegen import::A teacher's feed could not be imported (see the log above); the build goes on with the others"
    local written
    written=$(sed -n 's/.*: wrote \([0-9][0-9]*\) of .*/\1/p' <<< "$report" | awk '{ total += $1 } END { print total + 0 }')
    output imported "$written"
}

build_site() {
    local sitegen=${SITEGEN:-sitegen} source=${INPUT_SOURCE:-.} output_folder=${INPUT_OUTPUT:-}
    case ${INPUT_IMPORT:-false} in
        true) import_posts "$sitegen" "$source" ;;
        false | "") output imported 0 ;;
        *) fail "the input import must be true or false, found '${INPUT_IMPORT}'" ;;
    esac
    [[ -n $output_folder ]] || output_folder="$source/Output"
    local arguments=(build --source "$source" --output "$output_folder")
    if [[ -n ${INPUT_BASE_URL:-} ]]; then arguments+=(--base-url "$INPUT_BASE_URL"); fi
    case ${INPUT_STRICT:-false} in
        true) arguments+=(--strict) ;;
        false | "") ;;
        *) fail "the input strict must be true or false, found '${INPUT_STRICT}'" ;;
    esac
    if [[ -n ${INPUT_ARGS:-} ]]; then
        local extra
        read -r -a extra <<< "$INPUT_ARGS"
        arguments+=("${extra[@]}")
    fi
    say "sitegen ${arguments[*]}"
    "$sitegen" "${arguments[@]}"
    output output "$(cd "$output_folder" && pwd)"
}

case ${1:-} in
    plan) plan ;;
    install) install_sitegen ;;
    build) build_site ;;
    *) say "usage: Scripts/github-action.sh plan|install|build"; exit 2 ;;
esac
