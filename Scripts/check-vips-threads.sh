#!/usr/bin/env bash
# libvips up to 8.14 compiles a liborc program when it sets a resize up and frees it with
# the resize, and liborc 0.4.33 frees without its lock: sitegen keeps those calls to one
# thread at a time (Sources/CVips/Vips.c), or photos made on two cores crash a build now
# and then. This builds a site of photos on every core with a shim before liborc
# (Scripts/vips-overlap-shim.c) that counts the programs compiled and freed, and the calls
# that began while another ran: there must be programs, and no such call.
#   Scripts/check-vips-threads.sh [SITEGEN]      (default .build/debug/sitegen)
set -euo pipefail
cd "$(dirname "$0")/.."
sitegen=${1:-.build/debug/sitegen}
libvips=$(ldconfig -p | awk '/libvips\.so\.42 / { found = $NF } END { print found }')
if [[ -z $libvips ]] || ! ldd "$libvips" | grep -q liborc; then
    echo "vips threads: this libvips has no liborc; nothing to keep apart"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -shared -fPIC -O1 -Wall -Werror -o "$work/shim.so" Scripts/vips-overlap-shim.c -ldl
.build/test-venv/bin/python Scripts/photo-corpus.py "$work/corpus" 60 700x525 >/dev/null
SITEGEN_SHIM_REPORT="$work/report" LD_PRELOAD="$work/shim.so" \
    "$sitegen" build --source "$work/corpus/sitegen" --output "$work/site" --no-cache --quiet
read -r _ compiled _ freed _ overlapped < "$work/report"
echo "vips threads: $compiled liborc programs compiled, $freed freed, $overlapped calls while another ran"
if (( compiled == 0 || freed != compiled || overlapped != 0 )); then
    echo "vips threads: libvips's liborc programs must be compiled and freed one thread at a time (Sources/CVips/Vips.c)" >&2
    exit 1
fi
