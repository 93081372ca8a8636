#!/usr/bin/env bash
# Instructions sitegen executes (valgrind --tool=callgrind, all threads) to build a
# generated corpus with the build cache: a full build, a rebuild with nothing changed, one
# after an article's story is edited and one after its title is. Instruction counts repeat
# to a fraction of a percent where wall times on a shared machine vary by a fifth, so they
# show what a change did.
#
#   Scripts/instructions.sh [small|medium|large|articles ...]   (default: medium)
#
# Each corpus is built from a copy, in a scratch folder removed at the end; the end is
# marked for Scripts/bench.sh, which waits before timing anything after mass deletions.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/corpora.sh
command -v valgrind >/dev/null || { echo "Scripts/instructions.sh needs valgrind (apt-get install valgrind)"; exit 1; }
bench_dir=${BENCH_DIR:-/tmp/sitegen-bench}
generator=../shared/bench/gen_corpus.py
today=2027-06-30T15:00
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(medium)

Scripts/build-release.sh >/dev/null
sitegen=$PWD/.build/release/sitegen
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; mkdir -p "$bench_dir"; touch "$bench_dir/.cleaned-at"' EXIT

instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        awk '/Collected :/ { gsub(",", "", $NF); printf "%.3f", $NF / 1e9 }'
}

printf '%-9s %12s %18s %14s %12s   (G instructions)\n' corpus full 'nothing changed' 'one article' 'one title'
for size in "${sizes[@]}"; do
    corpus_counts "$size"
    site=$bench_dir/site-$size
    if [[ ! -f $site/Content/site.yaml ]]; then
        [[ -f $generator ]] || { echo "no corpus generator at $generator"; exit 1; }
        mkdir -p "$bench_dir"
        python3 $generator --articles $articles --assignments $assignments --seed 1 --out "$site" >/dev/null 2>&1
    fi
    work=$scratch/$size
    cp -r "$site" "$work"
    # A copy made a moment before the build has sources too new to be trusted as settled,
    # which the next build reads again: aged by a minute, the rebuild with nothing changed
    # measures 70.0 M instructions for 10,000 articles each time, not 70 to 98 M.
    find "$work" -exec touch -h -d "@$(( $(date +%s) - 60 ))" {} +
    build=("$sitegen" build --source "$work" --output "$work.out" --cache-dir "$work.cache" --today "$today" --quiet)
    full=$(instructions "${build[@]}")
    nothing=$(instructions "${build[@]}")
    article=$(cd "$work" && find Content/articles -name '*.md' | sort | awk 'NR == 1')
    printf '\nEdited.\n' >> "$work/$article"
    one=$(instructions "${build[@]}")
    sed -i 's/^title: .*/title: "Edited"/' "$work/$article"
    title=$(instructions "${build[@]}")
    printf '%-9s %12s %18s %14s %12s\n' "$size" "$full" "$nothing" "$one" "$title"
done
