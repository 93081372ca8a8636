#!/usr/bin/env bash
# Builds sitegen-fuzz with libFuzzer and AddressSanitizer and runs each fuzz target for
# FUZZ_SECONDS (default 60) on inputs of up to FUZZ_MAX_LEN bytes (16384), or only the
# targets named: `Scripts/fuzz.sh yaml http`.
#
# Each target starts from its seeds in Fuzz/corpus/<target>/ and keeps what it finds new in
# .build/fuzz/corpus/<target>/ for the next run. An input that crashes, trips the sanitizer
# or runs past 10 s is written to .build/fuzz/findings/<target>/ and the script fails: make
# it a regression test (CONTRIBUTING.md#fuzzing-and-sanitizers). Executions are added up per target in
# .build/fuzz/totals.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
# The largest input tried; smaller is faster per input, larger finds work that grows with size.
max_len="${FUZZ_MAX_LEN:-16384}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(yaml markdown mustache http cache image)

swift build -c release --build-path .build/fuzz --product sitegen-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -DSITEGEN_FUZZING \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
fuzzer=".build/fuzz/release/sitegen-fuzz"

totals=.build/fuzz/totals.tsv
[ -f "$totals" ] || printf 'target\texecutions\tseconds\n' > "$totals"
printf '%-10s %14s %12s %16s\n' target executions "per second" "all runs"
failed=0
for target in "${targets[@]}"; do
    [ -d "Fuzz/corpus/$target" ] || { echo "fuzz.sh: no target '$target' (Fuzz/corpus/ has its seeds)" >&2; exit 2; }
    mkdir -p ".build/fuzz/corpus/$target" ".build/fuzz/findings/$target"
    log=".build/fuzz/$target.log"
    status=0
    SITEGEN_FUZZ_TARGET="$target" "$fuzzer" ".build/fuzz/corpus/$target" "Fuzz/corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
        -artifact_prefix=".build/fuzz/findings/$target/" > "$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    printf '%s\t%s\t%s\n' "$target" "${executions:-0}" "$seconds" >> "$totals"
    all=$(awk -F'\t' -v t="$target" '$1 == t { sum += $2 } END { print sum + 0 }' "$totals")
    printf '%-10s %14s %12s %16s\n' "$target" "${executions:-?}" "${rate:-?}" "$all"
    if [ "$status" -ne 0 ]; then
        echo "fuzz.sh: $target found an input it does not survive; the log is $log:" >&2
        grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -8 >&2 || tail -20 "$log" >&2
        failed=1
    fi
done
exit "$failed"
