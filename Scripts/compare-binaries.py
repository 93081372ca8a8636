#!/usr/bin/env python3
"""Compares the full builds of two or more sitegen binaries on one generated corpus.

Usage: compare-binaries.py ROUNDS CORPUS SITEGEN [SITEGEN ...]
  CORPUS is a folder made by ../shared/bench/gen_corpus.py (e.g. /tmp/sitegen-bench/site-articles).

Each round builds the corpus once with every binary, into a new folder of /dev/shm with a
new cache folder, in an order that turns by one each round; each build's folders are
removed before the next. Prints each binary's median wall and CPU time, and its median
ratio to the first binary's taken round by round: this machine's speed drifts by a fifth
within minutes, and a single pair of builds differs by 5 % either way, so a change of a
few percent shows only in the paired ratios of a dozen rounds or more. tmpfs, not the
disk, so that no build pays for the write-back or the freed inodes of the ones before.
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def build(sitegen, corpus, scratch):
    output = tempfile.mkdtemp(prefix="out-", dir=scratch)
    cache = tempfile.mkdtemp(prefix="cache-", dir=scratch)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sitegen, "build", "--source", corpus, "--output", output + "/site", "--cache-dir", cache,
                    "--today", "2027-06-30T15:00", "--quiet"], check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(output)
    shutil.rmtree(cache)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[2])
        return 2
    rounds, corpus, binaries = int(sys.argv[1]), sys.argv[2], [os.path.abspath(b) for b in sys.argv[3:]]
    scratch = tempfile.mkdtemp(prefix="sitegen-compare-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        times = {binary: [] for binary in binaries}
        for round in range(rounds):
            turn = round % len(binaries)
            for binary in binaries[turn:] + binaries[:turn]:
                times[binary].append(build(binary, corpus, scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    first = times[binaries[0]]
    for binary in binaries:
        own = times[binary]
        wall = statistics.median(t[0] for t in own)
        cpu = statistics.median(t[1] for t in own)
        wall_ratio = statistics.median(a[0] / b[0] for a, b in zip(own, first))
        cpu_ratio = statistics.median(a[1] / b[1] for a, b in zip(own, first))
        print(f"{binary}: wall {wall:.3f} s, cpu {cpu:.3f} s; against the first, round by round: wall {wall_ratio:.3f}, cpu {cpu_ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
