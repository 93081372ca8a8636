#!/usr/bin/env bash
# Runs the GitHub Action's script (Scripts/github-action.sh) outside GitHub against the
# files of `make dist`, as if they were the release's: a good checksum, a bad one, a system
# and a machine without a release, a version without release files (the build from the
# action's sources), a commit or branch that is not the release's, and the build step.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

version=$(tr -d ' \n' < VERSION)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checks=0
ok() { checks=$((checks + 1)); echo "ok   $*"; }
bad() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $*"; }

# Runs the script with a fresh runner's environment; its status, outputs and log are kept.
step() {
    local name=$1
    shift
    mkdir -p "$work/$name/temp"
    : > "$work/$name/outputs"
    env RUNNER_TEMP="$work/$name/temp" GITHUB_OUTPUT="$work/$name/outputs" GITHUB_PATH="$work/$name/path" \
        SITEGEN_INSTALL_DIR="${INSTALL_DIR:-$work/$name/install}" ACTION_PATH="$PWD" "$@" \
        > "$work/$name/stdout" 2> "$work/$name/log"
    echo $? > "$work/$name/status"
}
status() { cat "$work/$1/status"; }
out() { sed -n "s/^$2=//p" "$work/$1/outputs" | tail -1; }
logged() { grep -qF -- "$2" "$work/$1/log"; }
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else bad "$what"; sed 's/^/     | /' "$work"/*/log 2>/dev/null | tail -20; fi
}

release="file://$PWD/dist"

step plan env ACTION_REF="v$version" Scripts/github-action.sh plan
check "plan keys the cache by version, platform and release tag" \
    test "$(out plan key)" = "sitegen-$version-linux-$(uname -m | sed 's/aarch64/arm64/')-release-v$version"

step good env ACTION_REF="v$version" SITEGEN_DOWNLOAD_URL="$release" Scripts/github-action.sh install
check "the release is installed when its checksum matches" \
    bash -c "[[ $(status good) == 0 && '$(out good source)' == release && -x '$work/good/install/bin/sitegen' ]]"
check "the installed sitegen is the release's" \
    test "$("$work/good/install/bin/sitegen" --version 2>/dev/null)" = "$(tar -xzOf "dist/sitegen-$version-linux-$(uname -m | sed 's/aarch64/arm64/').tar.gz" --wildcards '*/sitegen' > "$work/released" && chmod +x "$work/released" && "$work/released" --version)"
check "its folder goes on the PATH and its path is an output" \
    bash -c "[[ \$(cat '$work/good/path') == '$work/good/install/bin' && '$(out good path)' == '$work/good/install/bin/sitegen' && '$(out good version)' == '$version' ]]"

INSTALL_DIR="$work/good/install" step cached env ACTION_REF="v$version" SITEGEN_DOWNLOAD_URL="file:///nonexistent" Scripts/github-action.sh install
check "a binary restored from the cache is used as it is" bash -c "[[ $(status cached) == 0 && '$(out cached source)' == cache ]]"

mkdir -p "$work/tampered"
cp dist/* "$work/tampered/"
sed -i 's/^[0-9a-f]\{8\}/00000000/' "$work/tampered/SHA256SUMS"
step badsum env ACTION_REF="v$version" SITEGEN_DOWNLOAD_URL="file://$work/tampered" Scripts/github-action.sh install
check "a file that does not match its checksum is refused" \
    bash -c "[[ $(status badsum) == 1 && ! -e '$work/badsum/install/bin/sitegen' ]]"
check "and the log says why" logged badsum "does not match its checksum in SHA256SUMS"

step arch env ACTION_REF="v$version" SITEGEN_DOWNLOAD_URL="$release" SITEGEN_ARCH=riscv64 Scripts/github-action.sh install
check "a machine without a release is refused" bash -c "[[ $(status arch) == 1 ]]"
check "and the log names the machines there are" logged arch "sitegen publishes builds for x86_64 and arm64 Linux, and this runner is riscv64"
step system env ACTION_REF="v$version" SITEGEN_DOWNLOAD_URL="$release" SITEGEN_OS=Darwin Scripts/github-action.sh install
check "a system without a release is refused, naming what to use" \
    bash -c "[[ $(status system) == 1 ]] && grep -qF 'use a Linux runner' '$work/system/log'"

# A swift that fails at once stands for the build from source where only the decision counts.
mkdir -p "$work/fake"
printf '#!/bin/sh\necho "swift (stand-in) $*" >&2\nexit 9\n' > "$work/fake/swift"
chmod +x "$work/fake/swift"
step commit env PATH="$work/fake:$PATH" ACTION_REF="$(printf '0%.0s' {1..40})" SITEGEN_DOWNLOAD_URL="$release" Scripts/github-action.sh install
check "a commit that is not the release's is built from source, not given the release" \
    bash -c "[[ $(status commit) != 0 && ! -e '$work/commit/install/bin/sitegen' ]] && grep -qF 'swift (stand-in) build' '$work/commit/log'"
check "and the log says why" logged commit "is not the one release v$version was built from"
step branch env PATH="$work/fake:$PATH" ACTION_REF=main SITEGEN_DOWNLOAD_URL="$release" Scripts/github-action.sh install
check "a branch is built from source" logged branch "The action is used at 'main', which names no release: building sitegen"

# No release files at all: the build from the action's sources, for real (this checkout's,
# already built, so it takes seconds).
mkdir -p "$work/empty"
step norelease env ACTION_REF="v$version" SITEGEN_DOWNLOAD_URL="file://$work/empty" Scripts/github-action.sh install
check "a version without release files is built from the action's sources" \
    bash -c "[[ $(status norelease) == 0 && '$(out norelease source)' == build ]] && '$work/norelease/install/bin/sitegen' --version | grep -q '^sitegen $version '"
check "and the log says so" logged norelease "::notice title=sitegen::Release v$version of"

# The runner keeps an action in _actions/<owner>/<name>/<ref>; that tells the repository and
# ref when GitHub leaves them empty in a composite action.
mkdir -p "$work/_actions/acme/sitegen/v$version"
cp VERSION "$work/_actions/acme/sitegen/v$version/"
step fromPath env ACTION_PATH="$work/_actions/acme/sitegen/v$version" ACTION_REF= ACTION_REPOSITORY= \
    "$PWD/Scripts/github-action.sh" plan
check "the repository and ref are read from the action's folder when GitHub gives none" \
    bash -c "[[ $(status fromPath) == 0 && '$(out fromPath key)' == *-release-v$version ]]"

# The build step: the inputs become sitegen's options, and the output folder an output.
"$work/good/install/bin/sitegen" init "$work/site" --timezone Asia/Hong_Kong > /dev/null
step build env SITEGEN="$work/good/install/bin/sitegen" INPUT_SOURCE="$work/site" INPUT_STRICT=true \
    INPUT_BASE_URL=https://example.org/school/ INPUT_ARGS="--today 2026-12-01T15:00 --drafts" Scripts/github-action.sh build
check "the build step builds the site with the inputs" \
    bash -c "[[ $(status build) == 0 && '$(out build output)' == '$work/site/Output' ]] && grep -q 'https://example.org/school/' '$work/site/Output/sitemap.xml'"
check "and logs the command it ran" logged build "sitegen build --source $work/site --output $work/site/Output --base-url https://example.org/school/ --strict --today 2026-12-01T15:00 --drafts"
step strict env SITEGEN="$work/good/install/bin/sitegen" INPUT_SOURCE="$work/site" INPUT_STRICT=yes Scripts/github-action.sh build
check "an input strict that is not true or false is refused" logged strict "the input strict must be true or false, found 'yes'"

# The input import: the teachers' posts are written before the build, and counted.
mkdir -p "$work/site/feeds"
cp Tests/Fixtures/import/wordpress.xml "$work/site/feeds/lee.xml"
sed -i 's|^- id: ms-lee$|- id: ms-lee\n  feed: feeds/lee.xml|' "$work/site/Content/teachers.yaml"
printf -- '- {id: mr-x, name: Mr. X, subject: Art, grades: [8], feed: feeds/missing.xml}\n' >> "$work/site/Content/teachers.yaml"
step import env SITEGEN="$work/good/install/bin/sitegen" INPUT_SOURCE="$work/site" INPUT_IMPORT=true \
    INPUT_ARGS="--today 2026-12-01T15:00" XDG_CACHE_HOME="$work/cache" Scripts/github-action.sh build
check "the input import writes the new posts before the build, and counts them" \
    bash -c "[[ $(status import) == 0 && '$(out import imported)' == 2 ]] && grep -rq 'Fractions worksheet' '$work/site/Output/homework/'"
check "and a feed that fails is a warning, not a failed build" logged import "::warning title=sitegen import::"
step importTwice env SITEGEN="$work/good/install/bin/sitegen" INPUT_SOURCE="$work/site" INPUT_IMPORT=true \
    INPUT_ARGS="--today 2026-12-01T15:00" XDG_CACHE_HOME="$work/cache" Scripts/github-action.sh build
check "a second run imports nothing" bash -c "[[ '$(out importTwice imported)' == 0 ]]"

echo "action: $((checks - failures)) passed, $failures failed"
((failures == 0))
