#!/usr/bin/env bash
# Prints sitegen's benchmark figures: Mustache renders per second, then full builds of
# generated sites (../shared/bench/gen_corpus.py) with wall and CPU time, peak memory,
# files and bytes written and pages per second.
#
#   Scripts/bench.sh [small|medium|large ...]   (default: small medium large)
# Corpora are generated once into $BENCH_DIR (default /tmp/sitegen-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
bench_dir=${BENCH_DIR:-/tmp/sitegen-bench}
generator=../shared/bench/gen_corpus.py
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(small medium large)

swift build -c release --product sitegen >/dev/null
swift build -c release --product sitegen-bench >/dev/null
.build/release/sitegen-bench

if [[ ! -f $generator ]]; then
    echo "skipped: no corpus generator at $generator"
    exit 0
fi
command -v /usr/bin/time >/dev/null || { echo "Scripts/bench.sh needs /usr/bin/time (apt-get install time)"; exit 1; }

printf '%-8s %8s %8s %8s %9s %8s %9s %9s %8s\n' corpus articles assign. wall_s cpu_s peak_MiB files MB_out pages/s
for size in "${sizes[@]}"; do
    case $size in
        small) articles=100; assignments=500 ;;
        medium) articles=1000; assignments=5000 ;;
        large) articles=10000; assignments=50000 ;;
        *) echo "unknown corpus '$size' (small, medium, large)"; exit 2 ;;
    esac
    site=$bench_dir/site-$size
    if [[ ! -f $site/Content/site.yaml ]]; then
        python3 $generator --articles $articles --assignments $assignments --seed 1 --out "$site" >/dev/null 2>&1
    fi
    out=$bench_dir/out-$size
    rm -rf "$out"
    .build/release/sitegen build --source "$site" --output "$out" --today 2027-06-30T15:00 --quiet >/dev/null # warm the file cache
    rm -rf "$out"
    report=$(mktemp)
    summary=$(/usr/bin/time -f '%e %U %S %M' -o "$report" .build/release/sitegen build --source "$site" --output "$out" --today 2027-06-30T15:00)
    read -r wall user system peak < "$report"
    rm -f "$report"
    pages=$(echo "$summary" | sed -E 's/^Built ([0-9,]+) pages?.*/\1/' | tr -d ,)
    files=$(find "$out" -type f | wc -l)
    bytes=$(du -sb "$out" | cut -f1)
    awk -v s="$size" -v a=$articles -v n=$assignments -v w="$wall" -v u="$user" -v y="$system" -v m="$peak" -v f="$files" -v b="$bytes" -v p="$pages" \
        'BEGIN { printf "%-8s %8d %8d %8.2f %9.2f %8.0f %9d %9.1f %8.0f\n", s, a, n, w, u + y, m / 1024, f, b / 1e6, p / w }'
done
