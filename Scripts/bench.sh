#!/usr/bin/env bash
# Prints sitegen's benchmark figures, and Hugo's beside them when Hugo is installed:
#   1. the Mustache benchmark (ns per article page);
#   2. for each corpus of ../shared/bench/gen_corpus.py: a full build into an empty
#      folder, a rebuild with nothing changed, a rebuild after one article's story is
#      edited, one after its title is edited, one after an assignment's details are
#      edited (corpora with homework), one after one template is edited, one
#      after the stylesheet is edited (every page written again) and one into a deleted
#      output with the cache kept; wall and CPU time, peak memory, files
#      and bytes written, pages per second.
#      Each figure is the median of $RUNS runs (default 3).
#
#   Scripts/bench.sh [small|medium|large|articles ...]   (default: small medium large)
# Corpora are generated once into $BENCH_DIR (default /tmp/sitegen-bench).
#
# Each full build goes into a new folder, and the folders are removed only once every
# build is measured (folders of a run that was stopped are moved aside and removed then):
# on ext4 without a journal (this kind of VM) creating files within minutes of deleting
# thousands makes the kernel skip over every recently freed inode (half of a build's CPU
# time, once), which once tripled a build's time and grew with each run; a CI machine
# building a fresh clone never pays it.
set -euo pipefail
# Decimal points, whatever the user's locale.
export LC_NUMERIC=C
cd "$(dirname "$0")/.."
source Scripts/corpora.sh
bench_dir=${BENCH_DIR:-/tmp/sitegen-bench}
runs=${RUNS:-3}
generator=../shared/bench/gen_corpus.py
today=2027-06-30T15:00
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(small medium large)

# The kernel keeps stepping over freed inodes for up to six minutes (one, plus five while
# their inode table is not yet written back; see above): a run starts no sooner than seven
# minutes after the clean-up of the run before.
settled=$bench_dir/.cleaned-at
# One run at a time: a second run started while the first removed its builds measured
# their removal, and moved aside the folders the first was still measuring in. Held until
# this run's own clean-up is done (the lock goes with the process).
mkdir -p "$bench_dir"
exec 9> "$bench_dir/.running"
if ! flock -n 9; then
    echo "waiting for the other Scripts/bench.sh on $bench_dir to finish"
    flock 9
fi
if [[ -f $settled ]]; then
    wait_s=$(( $(stat -c %Y "$settled") + 420 - $(date +%s) ))
    if (( wait_s > 0 )); then
        echo "waiting ${wait_s} s for the file system to settle after the last run's clean-up"
        sleep "$wait_s"
    fi
fi

Scripts/build-release.sh >/dev/null
swift build -c release --product sitegen-bench --static-swift-stdlib >/dev/null
.build/release/sitegen-bench

if [[ ! -f $generator ]]; then
    echo "skipped: no corpus generator at $generator"
    exit 0
fi
command -v /usr/bin/time >/dev/null || { echo "Scripts/bench.sh needs /usr/bin/time (apt-get install time)"; exit 1; }
hugo=$(command -v hugo || true)
sitegen=$PWD/.build/release/sitegen

# One measured command: prints "wall cpu peak_kib system", the kernel's part of the CPU
# time (system) last. CPU times and peak memory are /usr/bin/time's; the wall time is taken
# around it in milliseconds (it prints hundredths of a second, a sixth of a small site's
# build), so it includes /usr/bin/time's own start, some 2 ms, for both tools alike (started
# with posix_spawn, which copies nothing of Python).
measure() {
    python3 - "$@" <<'PY'
import os, sys, tempfile, time
with tempfile.NamedTemporaryFile(mode="r") as report:
    quiet = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawn("/usr/bin/time", ["/usr/bin/time", "-f", "%U %S %M", "-o", report.name] + sys.argv[1:], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, quiet, 1), (os.POSIX_SPAWN_DUP2, quiet, 2)])
    _, status = os.waitpid(pid, 0)
    wall = time.perf_counter() - start
    fields = report.read().split()
    if status != 0:
        sys.exit(f"failed: {' '.join(sys.argv[1:])}: {' '.join(fields)}")
    user, system, peak = fields[-3:]
    print(f"{wall:.3f} {float(user) + float(system):.2f} {peak} {float(system):.2f}")
PY
}

# The middle one of $runs measurements ("wall cpu peak_kib system"), by wall time.
middle() { printf '%s\n' "$@" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)'; }
# The wall times of measurements, in the order given, on one line.
walls() { printf '%s\n' "$@" | awk '{ printf "%s ", $1 }'; }
# Their CPU and system times, likewise, as "cpu/system".
cpus() { printf '%s\n' "$@" | awk '{ printf "%s/%s ", $2, $4 }'; }

# The median of $runs measurements of a command prepared by the function named in $1;
# @OUT@ in the command stands for the output folder of the moment ($current_out). Each
# measurement gets two fields more: the files of the folder $watched that the run wrote
# (modified after a mark made just before it) and their bytes, as found on the disk rather
# than as the tool reports them.
median() {
    local prepare=$1
    shift
    local results=() mark=$bench_dir/.mark measured files bytes
    for _ in $(seq "$runs"); do
        $prepare
        # File times come from a clock that ticks every few milliseconds: the mark is made
        # a tick after the last write before the run, and the run writes a tick after it.
        sleep 0.02
        touch "$mark"
        sleep 0.02
        measured=$(measure "${@//@OUT@/$current_out}")
        read -r files bytes _ <<< "$(tally "$watched" -newer "$mark")"
        results+=("$measured $files $bytes")
    done
    middle "${results[@]}"
}

# "files bytes pages" of the folder $1, in one walk: its files (those `find` tests given
# after the folder select), their bytes (du counts folders' blocks as well), and how many
# of them are pages.
tally() {
    local folder=$1
    shift
    find "$folder" -type f "$@" -printf '%s %f\n' | awk '{ total += $1 } /\.html$/ { pages++ } END { print NR, total + 0, pages + 0 }'
}
# A row of a rebuild: its files and bytes are those of its median measurement.
rebuild_row() { # corpus tool build "wall cpu peak system files bytes" pages
    local files bytes
    read -r _ _ _ _ files bytes <<< "$4"
    row "$1" "$2" "$3" "$4" "$files" "$bytes" "$5"
}


printf '%-9s %-8s %-16s %8s %8s %9s %8s %9s %9s\n' corpus tool build wall_s cpu_s peak_MiB files MB_out pages/s
row() { # corpus tool build "wall cpu peak system" files bytes pages
    read -r wall cpu peak _ <<< "$4"
    awk -v c="$1" -v t="$2" -v b="$3" -v w="$wall" -v u="$cpu" -v m="$peak" -v f="$5" -v y="$6" -v p="$7" \
        'BEGIN { printf "%-9s %-8s %-16s %8.3f %8.2f %9.0f %8d %9.1f %9.0f\n", c, t, b, w, u, m / 1024, f, y / 1e6, (w > 0 ? p / w : 0) }'
}

# Every corpus's full builds come before any rebuild: a rebuild replaces files (a template
# edit rewrites a thousand pages), and the full builds after it paid for the freed inodes
# (see above) — a third more time for 10,000 articles measured after the large corpus.
declare -A full_rows sitegen_outs hugo_outs hugo_full_rows sitegen_walls hugo_walls sitegen_cpus hugo_cpus
# The generated corpus of $size, its Hugo twin and the commands that build them in full.
corpus() {
    site=$bench_dir/site-$size
    twin=$bench_dir/hugo-$size
    build=("$sitegen" build --source "$site" --output @OUT@ --today "$today" --cache-dir @OUT@.cache --quiet)
    hugo_build=("${hugo:-hugo}" --source "$twin" --destination @OUT@ --quiet)
}
# Moves a folder aside, to be removed after the last measurement (see above).
to_trash() { if [[ -d $1 ]]; then mkdir -p "$bench_dir/trash" && mv "$1" "$bench_dir/trash/$(basename "$1")-$(date +%s%N)"; fi; }
for size in "${sizes[@]}"; do
    corpus_counts "$size"
    corpus
    if [[ ! -f $site/Content/site.yaml || ( -n $hugo && ! -d $twin ) ]]; then
        rm -rf "$site" "$twin"
        python3 $generator --articles $articles --assignments $assignments --seed 1 --out "$site" --hugo "$twin" >/dev/null 2>&1
    fi
    runs_dir=$bench_dir/runs-$size
    to_trash "$runs_dir"
    mkdir -p "$runs_dir"
    run=0
    fresh() { run=$((run + 1)); current_out=$runs_dir/sitegen-$run; sync; }
    hugo_fresh() { run=$((run + 1)); current_out=$runs_dir/hugo-$run; sync; }
    # Full builds of the two tools alternate, run by run: this machine's speed drifts over
    # minutes, and a ratio of medians taken minutes apart measured the drift too.
    fresh
    "${build[@]//@OUT@/$current_out}" >/dev/null
    sitegen_out=$current_out
    if [[ -n $hugo ]]; then
        hugo_fresh
        "${hugo_build[@]//@OUT@/$current_out}" >/dev/null 2>&1
        hugo_out=$current_out
    fi
    sitegen_fulls=()
    hugo_fulls=()
    for _ in $(seq "$runs"); do
        fresh
        sitegen_fulls+=("$(measure "${build[@]//@OUT@/$current_out}")")
        sitegen_out=$current_out
        if [[ -n $hugo ]]; then
            hugo_fresh
            hugo_fulls+=("$(measure "${hugo_build[@]//@OUT@/$current_out}")")
            hugo_out=$current_out
        fi
    done
    full_rows[$size]=$(middle "${sitegen_fulls[@]}")
    sitegen_walls[$size]=$(walls "${sitegen_fulls[@]}")
    sitegen_cpus[$size]=$(cpus "${sitegen_fulls[@]}")
    sitegen_outs[$size]=$sitegen_out
    if [[ -n $hugo ]]; then
        hugo_full_rows[$size]=$(middle "${hugo_fulls[@]}")
        hugo_walls[$size]=$(walls "${hugo_fulls[@]}")
        hugo_cpus[$size]=$(cpus "${hugo_fulls[@]}")
        hugo_outs[$size]=$hugo_out
    fi
done

for size in "${sizes[@]}"; do
    corpus
    out=$bench_dir/out-$size
    cache=$bench_dir/cache-$size
    # A copy of the corpus to edit, so the generated one stays as generated; made once and
    # put back after each run (removing and copying 60,000 files would slow the builds
    # that follow, see above).
    work=$bench_dir/work-$size
    first_article=$(cd "$site" && find Content/articles -name '*.md' | sort | awk 'NR == 1')
    # The assignment in the middle of the homework folder: a day in the middle of the year.
    middle_assignment=$( (cd "$site" && find Content/homework -name '*.md' 2>/dev/null) | sort | awk '{ all[NR] = $0 } END { if (NR) print all[int((NR + 1) / 2)] }')
    if [[ -d $work ]]; then
        cp "$site/$first_article" "$work/$first_article"
        if [[ -n $middle_assignment ]]; then cp "$site/$middle_assignment" "$work/$middle_assignment"; fi
        rm -f "$work/Themes/default/article.card.mustache"
    else
        cp -r "$site" "$work"
    fi
    edit_build=("$sitegen" build --source "$work" --output "$out-edit" --today "$today" --cache-dir "$cache-edit" --quiet)
    # The edited copy's output and cache are made anew each run, as the full builds' are
    # (moved to the trash, removed after the last measurement): an output rewritten by the
    # edits of hundreds of runs before, its files' entries scattered in the kernel's
    # memory, took a quarter longer to check than a new one.
    to_trash "$out-edit"
    to_trash "$cache-edit"
    # Each rebuild starts once the kernel has written back what the builds before it
    # wrote (the full builds' hundreds of MB, the edited copy's first build): the kernel
    # writes data back 30 s after it was written, and a rebuild of a tenth of a second
    # that falls into that write-back shares both cores with it.
    nothing() { sync; }

    current_out=${sitegen_outs[$size]}
    read -r files bytes pages <<< "$(tally "$current_out")"
    row "$size" sitegen full "${full_rows[$size]}" "$files" "$bytes" "$pages"
    watched=$current_out
    noop=$(median nothing "${build[@]}")
    rebuild_row "$size" sitegen "nothing changed" "$noop" "$pages"

    "${edit_build[@]}" >/dev/null
    article=$work/$first_article
    template=$work/Themes/default/article.card.mustache
    mkdir -p "$work/Themes/default"
    edit_article() { printf '\nEdited at %s.\n' "$RANDOM$RANDOM" >> "$article"; sync; }
    edit_template() { printf '<article class="card">{{! edit %s }}\n' "$RANDOM$RANDOM" > "$template"; sed -n '2,$p' Themes/default/article.card.mustache >> "$template"; sync; }
    watched=$out-edit
    one=$(median edit_article "${edit_build[@]}")
    rebuild_row "$size" sitegen "one article" "$one" "$pages"
    # An edit of the front matter: the title, which the lists, the restaurants and the
    # map show. The story's edit above changes the article's page alone (and the feed).
    edit_title() { sed -i "s/^title: .*/title: \"Edited $RANDOM$RANDOM\"/" "$article"; sync; }
    retitled=$(median edit_title "${edit_build[@]}")
    rebuild_row "$size" sitegen "one title" "$retitled" "$pages"
    # An assignment's details: its day's page, and its grade's feeds and calendar when they
    # carry it.
    if [[ -n $middle_assignment ]]; then
        assignment=$work/$middle_assignment
        edit_assignment() { printf '\nEdited at %s.\n' "$RANDOM$RANDOM" >> "$assignment"; sync; }
        reassigned=$(median edit_assignment "${edit_build[@]}")
        rebuild_row "$size" sitegen "one assignment" "$reassigned" "$pages"
    fi
    card=$(median edit_template "${edit_build[@]}")
    rebuild_row "$size" sitegen "one template" "$card" "$pages"
    # A rule added to the stylesheet: its fingerprinted name changes, and with it every
    # page that links to it — all of them are written again.
    stylesheet=$work/Themes/default/assets/style.css
    mkdir -p "$(dirname "$stylesheet")"
    edit_stylesheet() { { cat Themes/default/assets/style.css; printf '.edit-%s { color: red; }\n' "$RANDOM$RANDOM"; } > "$stylesheet"; sync; }
    restyled=$(median edit_stylesheet "${edit_build[@]}")
    rebuild_row "$size" sitegen "one stylesheet" "$restyled" "$pages"
    # The output gone and the cache kept (`rm -rf Output`, a CI machine that restores only
    # the cache): the first run parses the articles again, since the cache left their HTML
    # in their pages, and stores it; the later runs parse nothing.
    output_gone() { to_trash "$out-edit"; sync; }
    gone=$(median output_gone "${edit_build[@]}")
    rebuild_row "$size" sitegen "output deleted" "$gone" "$pages"

    if [[ -n $hugo ]]; then
        current_out=${hugo_outs[$size]}
        read -r files bytes pages <<< "$(tally "$current_out")"
        row "$size" hugo full "${hugo_full_rows[$size]}" "$files" "$bytes" "$pages"
        read -r ours _ <<< "${full_rows[$size]}"
        read -r theirs _ <<< "${hugo_full_rows[$size]}"
        awk -v c="$size" -v o="$ours" -v t="$theirs" 'BEGIN { printf "%-9s ratio    full, sitegen/Hugo %8.3f\n", c, (t > 0 ? o / t : 0) }'
        # Every full build's wall time in the order they ran, and the ratio of each round
        # (a sitegen build and the Hugo build right after it): how far the medians' ratio
        # could have moved with the machine.
        printf '%s\n' "${sitegen_walls[$size]}" "${hugo_walls[$size]}" | awk -v c="$size" '
            NR == 1 { n = split($0, s, " ") } NR == 2 { split($0, h, " ") }
            END {
                line = sprintf("%-9s rounds   sitegen", c); for (i = 1; i <= n; i++) line = line sprintf(" %.3f", s[i])
                line = line "; Hugo"; for (i = 1; i <= n; i++) line = line sprintf(" %.3f", h[i])
                line = line "; ratios"; for (i = 1; i <= n; i++) line = line sprintf(" %.3f", (h[i] > 0 ? s[i] / h[i] : 0))
                print line
            }'
        # Their CPU times with the kernel's part (cpu/system): a slow spell of the machine
        # shows in one or the other.
        printf '%-9s cpu/sys  sitegen %s; Hugo %s\n' "$size" "${sitegen_cpus[$size]% }" "${hugo_cpus[$size]% }"
        watched=$current_out
        noop=$(median nothing "${hugo_build[@]}")
        rebuild_row "$size" hugo "nothing changed" "$noop" "$pages"
    fi
done
# The dev server: reload latency after an edit on the large corpus (an article's story, an
# assignment's details), and the time to show a mistake in an assignment, site.yaml or a
# template and to reload once it is undone, before the clean-up
# below (the server writes each edit's pages to disk, and files made within minutes of
# thousands deleted are slow to make); then a load of 100 connections for 10 s on the
# sample site with wrk (Debian's wrk) when it is installed.
if [[ " ${sizes[*]} " == *" large "* ]]; then
    python3 Scripts/measure-reload.py "$sitegen" "$bench_dir/work-large" 20 article assignment assignment-error settings-error template-error
fi
for size in "${sizes[@]}"; do rm -rf "$bench_dir/runs-$size"; done
rm -rf "$bench_dir/trash"
touch "$settled"
if command -v wrk >/dev/null; then
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$sitegen" serve --port "$port" --today 2026-11-25T15:00 >/dev/null 2>&1 &
    server=$!
    sleep 2
    wrk -c 100 -t 2 -d 10s --latency "http://127.0.0.1:$port/articles/lovely-breakfast/" |
        awk '/Requests\/sec/ { rps = $2 } / 99%/ { p99 = $2 } /Non-2xx|Socket errors/ { errors = errors $0 "; " }
             END { printf "serve under wrk (100 connections, 10 s): %s requests/s, p99 %s%s\n", rps, p99, errors == "" ? ", no errors" : ", " errors }'
    kill $server
fi
# The dev server while a crowd holds it: 1,000 slow clients and 1,000 listening pages.
python3 Scripts/serve-crowd.py "$sitegen" --slow 1000 --listeners 1000 --requests 50
