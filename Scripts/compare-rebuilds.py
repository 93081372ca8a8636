#!/usr/bin/env python3
"""Compares two or more sitegen binaries on the rows of `make bench` that a change to the
build path can move: a full build, and rebuilds with nothing changed, after an article's
story is edited, after its title is edited, after a template is edited and (when the
corpus has homework) after an assignment's details are edited.

Usage: compare-rebuilds.py ROUNDS CORPUS SITEGEN [SITEGEN ...]
  CORPUS is a folder made by ../shared/bench/gen_corpus.py (e.g. /tmp/sitegen-bench/site-articles).

Each binary rebuilds its own copy of the corpus, in /dev/shm, built once before the first
round (the theme's article card, and the partial it includes, copied into the site, so
that editing it is a template
edit). Each round runs every binary's rows, in an order that turns by one each round; a
full build goes into a new output and cache folder, removed after it. Prints each
binary's median wall time per row and its median ratio to the first binary's, taken round
by round (compare-binaries.py says why).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TODAY = "2027-06-30T15:00"
ROWS = ["full", "nothing", "story", "title", "template", "assignment"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(sitegen, site, output, cache):
    start = time.perf_counter()
    subprocess.run([sitegen, "build", "--source", site, "--output", output, "--cache-dir", cache, "--today", TODAY, "--quiet"], check=True)
    return time.perf_counter() - start


def prepare(corpus, scratch):
    site = os.path.join(scratch, "site")
    shutil.copytree(corpus, site, symlinks=True)
    theme = os.path.join(site, "Themes", "default")
    os.makedirs(theme, exist_ok=True)
    shutil.copy(os.path.join(ROOT, "Themes", "default", "article.card.mustache"), theme)
    # The partial the card includes, for a binary whose theme has none of that name.
    shutil.copy(os.path.join(ROOT, "Themes", "default", "picture.mustache"), theme)
    # Every file an hour old: stamps too recent to trust are read again by every build.
    past = time.time() - 3600
    for folder, _, files in os.walk(site):
        for name in files + [""]:
            os.utime(os.path.join(folder, name), (past, past))
    articles = sorted(os.path.join(folder, name) for folder, _, files in os.walk(os.path.join(site, "Content", "articles"))
                      for name in files if name.endswith(".md"))
    # The assignment in the middle of the homework folder, as `make bench` edits: a day in
    # the middle of the year.
    assignments = sorted(os.path.relpath(os.path.join(folder, name), site)
                         for folder, _, files in os.walk(os.path.join(site, "Content", "homework")) for name in files if name.endswith(".md"))
    assignment = os.path.join(site, assignments[(len(assignments) + 1) // 2 - 1]) if assignments else None
    return site, articles[0], os.path.join(theme, "article.card.mustache"), assignment


def rows(sitegen, work, round_number):
    site, article, template = work["site"], work["article"], work["template"]
    times = {}
    scratch = tempfile.mkdtemp(prefix="full-", dir=work["scratch"])
    times["full"] = run(sitegen, site, os.path.join(scratch, "out"), os.path.join(scratch, "cache"))
    shutil.rmtree(scratch)
    output, cache = work["output"], work["cache"]
    times["nothing"] = run(sitegen, site, output, cache)
    with open(article, "a", encoding="utf-8") as file:
        file.write(f"\nEdited in round {round_number}.\n")
    times["story"] = run(sitegen, site, output, cache)
    with open(article, encoding="utf-8") as file:
        lines = file.read().split("\n")
    lines = [f'title: "Edited {round_number}"' if line.startswith("title:") else line for line in lines]
    with open(article, "w", encoding="utf-8") as file:
        file.write("\n".join(lines))
    times["title"] = run(sitegen, site, output, cache)
    with open(template, "w", encoding="utf-8") as file:
        file.write(f"{{{{! round {round_number} }}}}" + work["card"])
    times["template"] = run(sitegen, site, output, cache)
    if work["assignment"]:
        with open(work["assignment"], "a", encoding="utf-8") as file:
            file.write(f"\nEdited in round {round_number}.\n")
        times["assignment"] = run(sitegen, site, output, cache)
    return times


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    rounds, corpus, binaries = int(sys.argv[1]), sys.argv[2], [os.path.abspath(b) for b in sys.argv[3:]]
    works = []
    for sitegen in binaries:
        scratch = tempfile.mkdtemp(prefix="compare-", dir="/dev/shm")
        site, article, template, assignment = prepare(corpus, scratch)
        work = {"scratch": scratch, "site": site, "article": article, "template": template, "assignment": assignment,
                "output": os.path.join(scratch, "out"), "cache": os.path.join(scratch, "cache")}
        with open(template, encoding="utf-8") as file:
            work["card"] = file.read()
        run(sitegen, site, work["output"], work["cache"])
        works.append(work)
    times = [{row: [] for row in ROWS} for _ in binaries]
    try:
        for round_number in range(rounds):
            order = list(range(len(binaries)))
            order = order[round_number % len(order):] + order[:round_number % len(order)]
            for place in order:
                for row, seconds in rows(binaries[place], works[place], round_number).items():
                    times[place][row].append(seconds)
    finally:
        for work in works:
            shutil.rmtree(work["scratch"], ignore_errors=True)
    print(f"{rounds} rounds on {corpus}; median wall seconds, and the median ratio to the first binary's")
    rows_run = [row for row in ROWS if times[0][row]]
    print(f"{'binary':<28}" + "".join(f"{row:>18}" for row in rows_run))
    for place, sitegen in enumerate(binaries):
        cells = []
        for row in rows_run:
            median = statistics.median(times[place][row])
            ratio = statistics.median(a / b for a, b in zip(times[place][row], times[0][row]))
            cells.append(f"{median:8.3f} ({ratio:5.3f})")
        print(f"{os.path.basename(os.path.dirname(sitegen)) + '/' + os.path.basename(sitegen):<28}" + "".join(f"{cell:>18}" for cell in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
