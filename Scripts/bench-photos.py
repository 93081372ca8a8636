#!/usr/bin/env python3
"""The photo benchmark: sitegen and Hugo (when installed) making the same sizes and formats
of phone-sized photos (Scripts/photo-corpus.py), measured side by side, runs interleaved.

  Scripts/bench-photos.py SITEGEN [COUNT]        (default 200 photos of 4032x3024)

Rows: a full build (empty cache and output), a rebuild with nothing changed, a rebuild
after one photo changed; wall and CPU seconds and peak memory, each the median of $RUNS
runs (default 3; Hugo's full build, minutes long, $HUGO_RUNS, default 1). Then the bytes
a reader's browser downloads for an article's cover at 390 px (3x) and 1280 px (1x and
2x), before this step (the photo itself) and now; and peak memory for 1 and for 50 photos
of 24 megapixels, which must not grow with their number.
"""
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sitegen = os.path.abspath(sys.argv[1])
count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
runs = int(os.environ.get("RUNS", "3"))
hugo_runs = int(os.environ.get("HUGO_RUNS", "1"))
bench = pathlib.Path(os.environ.get("BENCH_DIR", "/tmp/sitegen-bench"))
hugo = shutil.which("hugo")


def corpus(name, photos, size="4032x3024"):
    folder = bench / name
    if not (folder / "sitegen" / "Content" / "articles" / f"photo-{photos - 1:03d}" / "photo.jpg").exists():
        print(f"generating {photos} photos of {size} into {folder}", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, str(ROOT / "Scripts" / "photo-corpus.py"), str(folder), str(photos), size], check=True)
    return folder


def measure(command, cwd):
    """(wall s, cpu s, peak MiB) of one run."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", report.name] + command, cwd=cwd, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        user, system, peak = report.read().split()[-3:]
    return wall, float(user) + float(system), int(peak) / 1024


def median(results):
    return sorted(results, key=lambda r: r[0])[(len(results) - 1) // 2]


def row(build, tool, result, extra=""):
    wall, cpu, peak = result
    print(f"{build:<26} {tool:<8} {wall:9.2f} {cpu:9.2f} {peak:9.0f} {extra}", flush=True)


def sitegen_build(folder, cache, output, cold):
    if cold:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(output, ignore_errors=True)
    return measure([sitegen, "build", "--quiet", "--cache-dir", str(cache), "--output", str(output)], folder / "sitegen")


def hugo_build(folder, cold):
    if cold:
        shutil.rmtree(folder / "hugo" / "resources", ignore_errors=True)
        shutil.rmtree(folder / "hugo" / "public", ignore_errors=True)
    return measure([hugo, "--quiet"], folder / "hugo")


def change_one_photo(folder, round_number):
    """Another camera name in the first photo's EXIF: other bytes, the same pixels."""
    photo = folder / "sitegen" / "Content" / "articles" / "photo-000" / "photo.jpg"
    data = bytearray(photo.read_bytes())
    at = data.find(b"Model 1")
    data[at + 7] = ord("0") + round_number % 10
    # Written in place: the Hugo twin's hard link sees the same bytes.
    with open(photo, "r+b") as file:
        file.write(data)


def downloads(folder, output):
    """The cover's bytes a browser takes at 390 px (3x) and 1280 px (1x, 2x): the smallest
    WebP at least as wide as the slot (the column, 42rem less nothing, or the screen less
    32 px), against the photo itself."""
    page = (output / "articles" / "photo-000" / "index.html").read_text()
    srcset = re.search(r'<source type="image/webp" srcset="([^"]+)"', page).group(1)
    candidates = [(int(w), url) for url, w in re.findall(r"(\S+) (\d+)w", srcset)]
    original = (folder / "sitegen" / "Content" / "articles" / "photo-000" / "photo.jpg").stat().st_size
    for viewport, density in [(390, 3), (1280, 1), (1280, 2)]:
        slot = min(672, viewport - 32) * density
        width, url = next(((w, u) for w, u in sorted(candidates) if w >= slot), max(candidates))
        size = (output / url.lstrip("/")).stat().st_size
        print(f"cover at {viewport} px {density}x: {width}w WebP {size / 1024:.0f} KB (the photo itself: {original / 1024:.0f} KB)")


def main():
    folder = corpus(f"photos-{count}", count)
    work = pathlib.Path(tempfile.mkdtemp(prefix="photo-bench-", dir=bench))
    cache, output = work / "cache", work / "out"
    print(f"{count} photos of 4032x3024; sitegen {subprocess.run([sitegen, '--version'], capture_output=True, text=True).stdout.strip()}"
          + (f"; {subprocess.run([hugo, 'version'], capture_output=True, text=True).stdout.split()[1]}" if hugo else "; Hugo not installed"))
    print(f"{'build':<26} {'tool':<8} {'wall_s':>9} {'cpu_s':>9} {'peak_MiB':>9}")
    full, hugo_full = [], []
    for number in range(max(runs, hugo_runs)):
        if number < runs:
            full.append(sitegen_build(folder, cache, output, cold=True))
        if hugo and number < hugo_runs:
            hugo_full.append(hugo_build(folder, cold=True))
    row("full", "sitegen", median(full))
    if hugo_full:
        row("full", "hugo", median(hugo_full), f"sitegen/hugo {median(full)[0] / median(hugo_full)[0]:.3f}")
    nothing = [sitegen_build(folder, cache, output, cold=False) for _ in range(runs)]
    row("nothing changed", "sitegen", median(nothing), f"{100 * median(nothing)[0] / median(full)[0]:.2f} % of full")
    if hugo_full:
        row("nothing changed", "hugo", median([hugo_build(folder, cold=False) for _ in range(runs)]))
    one, hugo_one = [], []
    for number in range(runs):
        change_one_photo(folder, number + 1)
        one.append(sitegen_build(folder, cache, output, cold=False))
        if hugo_full:
            hugo_one.append(hugo_build(folder, cold=False))
    row("one photo changed", "sitegen", median(one))
    if hugo_one:
        row("one photo changed", "hugo", median(hugo_one))
    downloads(folder, output)

    # Memory against the number of photos: 1, then 50, of 24 megapixels.
    for photos in (1, 50):
        big = corpus(f"photos-24mp-{photos}", photos, "6000x4000")
        result = median([sitegen_build(big, work / f"cache-{photos}", work / f"out-{photos}", cold=True) for _ in range(runs)])
        row(f"{photos} photos of 24 MP", "sitegen", result)
    shutil.rmtree(work, ignore_errors=True)


main()
