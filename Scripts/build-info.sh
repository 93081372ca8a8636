#!/bin/sh
# Writes OUTPUT/BuildStamp.swift: the version (VERSION), the commit and the GitHub
# repository sitegen is built from. Run by the BuildInfo plugin before every build; the
# file is rewritten only when its text changes. SITEGEN_COMMIT and SITEGEN_REPOSITORY
# (owner/name) say what git cannot tell, as in a container without the .git folder.
#   Scripts/build-info.sh PACKAGE_DIR OUTPUT_DIR
#   Scripts/build-info.sh --repository PACKAGE_DIR    prints the repository alone
set -eu
if [ "$1" = --repository ]; then
    package=$2
    output=
else
    package=$1
    output=$2
fi

version=$(tr -d ' \n' < "$package/VERSION")
git_in() { git -c safe.directory='*' -C "$package" "$@" 2>/dev/null; }

commit=${SITEGEN_COMMIT:-}
modified=false
if [ -z "$commit" ] && command -v git >/dev/null 2>&1 && commit=$(git_in rev-parse HEAD); then
    [ -n "$(git_in status --porcelain --untracked-files=no)" ] && modified=true
fi
case $commit in *[!0-9a-f]*) commit= ;; esac

repository=${SITEGEN_REPOSITORY:-}
if [ -z "$repository" ] && command -v git >/dev/null 2>&1; then
    # https://github.com/owner/name(.git) or git@github.com:owner/name(.git)
    url=$(git_in remote get-url origin || true)
    case $url in
        https://github.com/*/*|git@github.com:*/*|ssh://git@github.com/*/*)
            repository=$(printf '%s\n' "$url" | sed -e 's#^.*github\.com[:/]##' -e 's#\.git$##' -e 's#/$##') ;;
    esac
fi
case $repository in
    */*/*|*[!A-Za-z0-9._/-]*) repository= ;;
    */*) ;;
    *) repository= ;;
esac

if [ -z "$output" ]; then
    printf '%s\n' "$repository"
    exit 0
fi

text="// Written by Scripts/build-info.sh for the build: do not edit.
enum BuildStamp {
    static let version = \"$version\"
    static let commit = \"$commit\"
    static let modified = $modified
    static let repository = \"$repository\"
}"
mkdir -p "$output"
file="$output/BuildStamp.swift"
if [ -f "$file" ] && [ "$(cat "$file")" = "$text" ]; then exit 0; fi
printf '%s\n' "$text" > "$file.new"
mv "$file.new" "$file"
