#!/usr/bin/env python3
"""Measures `sitegen serve`: from saving a file to the event reaching an open page, over
several edits, and the server's memory.

Usage: measure-reload.py SITEGEN SITE_DIR [EDITS] [KIND ...]
KIND is one of
  article            an article's story (the default)
  assignment         an assignment's details
  assignment-error   an assignment with a date that does not exist
  settings-error     site.yaml with a value of the wrong kind
  template-error     a template with a section left open
An edit of an *-error kind is timed to the overlay's event ("failed"), then undone; the
undoing is timed too, to the reload. Prints, for each kind, the median and worst latency in
milliseconds, and the server's peak resident memory. With SITEGEN_TIMINGS set, the server
prints each build's stages.

A template error needs the template in the site: the default theme's article card (and the
partial it includes) is copied into SITE_DIR/Themes/default/ before the server starts when
it is not there, and removed after.
"""
import os
import pathlib
import select
import shutil
import socket
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
KINDS = ["article", "assignment", "assignment-error", "settings-error", "template-error"]


def middle(folder):
    files = sorted(folder.rglob("*.md"))
    return files[len(files) // 2]


class Server:
    def __init__(self, sitegen, site):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen([sitegen, "serve", "--source", str(site), "--port", str(self.port), "--today", "2027-06-30T15:00"],
                                        stdout=subprocess.PIPE, stderr=None if os.environ.get("SITEGEN_TIMINGS") else subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("Serving"):
            raise RuntimeError(f"serve did not start: {line!r}")
        self.events = socket.create_connection(("127.0.0.1", self.port))
        self.events.sendall(b"GET /__sitegen/events HTTP/1.1\r\nHost: x\r\n\r\n")
        self.events.recv(4096)

    def drain(self):
        """Reads what the server sent since the last measurement: a save the watcher saw as
        two changes is two builds, and the second one's event is not the next edit's."""
        while select.select([self.events], [], [], 0.3)[0]:
            if not self.events.recv(65536):
                raise RuntimeError("the server closed the event stream")

    def timed(self, write, event):
        """Milliseconds from calling `write` to `event` reaching the page."""
        self.drain()
        start = time.monotonic()
        write()
        received = b""
        while f"event: {event}".encode() not in received:
            ready, _, _ = select.select([self.events], [], [], 60)
            if not ready:
                raise RuntimeError(f"no {event} event within 60 s")
            received += self.events.recv(65536)
        return (time.monotonic() - start) * 1000

    def peak_memory(self):
        return int(open(f"/proc/{self.process.pid}/status").read().split("VmHWM:")[1].split()[0]) // 1024

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def with_line(text, key, value):
    """`text` with the first line that sets `key` setting it to `value`."""
    lines = text.split("\n")
    place = next(n for n, line in enumerate(lines) if line.startswith(key + ": "))
    lines[place] = f"{key}: {value}"
    return "\n".join(lines)


def edits_of(kind, site, template):
    """The file a kind edits, and the text of its nth edit."""
    if kind == "article":
        path = middle(site / "Content" / "articles")
        return path, lambda original, n: original + f"\nEdit number {n}.\n"
    if kind == "assignment":
        path = middle(site / "Content" / "homework")
        return path, lambda original, n: original + f"\nEdit number {n}.\n"
    if kind == "assignment-error":
        path = middle(site / "Content" / "homework")
        return path, lambda original, n: with_line(original, "due", "2027-02-30")
    if kind == "settings-error":
        path = site / "Content" / "site.yaml"
        return path, lambda original, n: with_line(original, "title", f"[not, a, title, {n}]")
    path = template
    return path, lambda original, n: original + "{{#left-open}}\n"


def main():
    sitegen, site = sys.argv[1], pathlib.Path(sys.argv[2])
    edits = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    kinds = sys.argv[4:] or ["article"]
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        print(f"unknown kind {unknown[0]}: one of {', '.join(KINDS)}")
        return 2
    theme = site / "Themes" / "default"
    # Only what is made here is removed after.
    made = []
    if "template-error" in kinds:
        for folder in [site / "Themes", theme]:
            if not folder.exists():
                folder.mkdir()
                made.append(folder)
        for name in ["article.card.mustache", "picture.mustache"]:
            if not (theme / name).exists():
                shutil.copy(ROOT / "Themes" / "default" / name, theme)
                made.append(theme / name)
    server = Server(sitegen, site)
    try:
        for kind in kinds:
            path, edited = edits_of(kind, site, theme / "article.card.mustache")
            original = path.read_text()
            latencies, fixes = [], []
            try:
                for n in range(edits):
                    failing = kind.endswith("-error")
                    latencies.append(server.timed(lambda: path.write_text(edited(original, n)), "failed" if failing else "reload"))
                    if failing:
                        fixes.append(server.timed(lambda: path.write_text(original), "reload"))
            finally:
                path.write_text(original)
            line = f"{kind}: median {statistics.median(latencies):.0f} ms, worst {max(latencies):.0f} ms over {edits} edits"
            if fixes:
                line += f"; fixed: median {statistics.median(fixes):.0f} ms, worst {max(fixes):.0f} ms"
            print(line, flush=True)
        print(f"server peak memory {server.peak_memory()} MiB")
        return 0
    except RuntimeError as problem:
        print(problem)
        return 1
    finally:
        server.stop()
        for path in reversed(made):
            path.rmdir() if path.is_dir() else path.unlink()


if __name__ == "__main__":
    sys.exit(main())
