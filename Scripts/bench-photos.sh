#!/usr/bin/env bash
# The photo benchmark (Scripts/bench-photos.py), with the release binary and Pillow (which
# draws the photos) in a virtual environment of its own.
#   Scripts/bench-photos.sh [COUNT]        (default 200; RUNS, HUGO_RUNS, BENCH_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/bench-venv
if [[ ! -x $venv/bin/python ]] || ! $venv/bin/python -c 'import PIL' 2>/dev/null; then
    python3 -m venv "$venv"
    $venv/bin/pip install -q --disable-pip-version-check "pillow>=11.3"
fi
Scripts/build-release.sh >/dev/null
exec "$venv/bin/python" Scripts/bench-photos.py .build/release/sitegen "$@"
