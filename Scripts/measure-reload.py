#!/usr/bin/env python3
"""Measures `sitegen serve`: from writing an article to the reload event reaching a page,
over several edits, and the server's memory.

Usage: measure-reload.py SITEGEN SITE_DIR [EDITS]
Prints the median and worst latency in milliseconds and the server's resident memory.
"""
import os
import pathlib
import select
import socket
import statistics
import subprocess
import sys
import time


def main():
    sitegen, site, edits = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 20
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sitegen, "serve", "--source", str(site), "--port", str(port), "--today", "2027-06-30T15:00"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        if not line.startswith("Serving"):
            print(f"serve did not start: {line!r}")
            return 1
        events = socket.create_connection(("127.0.0.1", port))
        events.sendall(b"GET /__sitegen/events HTTP/1.1\r\nHost: x\r\n\r\n")
        events.recv(4096)
        article = sorted((site / "Content" / "articles").rglob("*.md"))[len(list((site / "Content" / "articles").rglob("*.md"))) // 2]
        original = article.read_text()
        latencies = []
        for edit in range(edits):
            time.sleep(0.3)
            start = time.monotonic()
            article.write_text(original + f"\nEdit number {edit}.\n")
            received = b""
            while b"event: reload" not in received:
                ready, _, _ = select.select([events], [], [], 60)
                if not ready:
                    print("no reload event within 60 s")
                    return 1
                received += events.recv(65536)
            latencies.append((time.monotonic() - start) * 1000)
        article.write_text(original)
        rss = int(open(f"/proc/{server.pid}/status").read().split("VmHWM:")[1].split()[0]) // 1024
        print(f"reload after an edit: median {statistics.median(latencies):.0f} ms, worst {max(latencies):.0f} ms "
              f"over {edits} edits; server peak memory {rss} MiB")
        return 0
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
