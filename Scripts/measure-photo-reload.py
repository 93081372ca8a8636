#!/usr/bin/env python3
"""Measures `sitegen serve` with photos: from a phone photo saved over an article's cover
to the reload event reaching an open page (the server makes the photo's sizes first, then
tells the page), over several saves, each a photo the server has not made before.

Usage: measure-photo-reload.py SITEGEN SITE_DIR [SAVES]
SITE_DIR is a site of Scripts/photo-corpus.py (its `sitegen` folder). Prints the median
and worst latency in milliseconds.
"""
import pathlib
import socket
import statistics
import subprocess
import sys
import time


def main():
    sitegen, site, saves = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 5
    photo = site / "Content" / "articles" / "photo-000" / "photo.jpg"
    original = photo.read_bytes()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sitegen, "serve", "--source", str(site), "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    latencies = []
    try:
        line = server.stdout.readline()
        if not line.startswith("Serving"):
            print(f"serve did not start: {line!r}")
            return 1
        events = socket.create_connection(("127.0.0.1", port))
        events.sendall(b"GET /__sitegen/events HTTP/1.1\r\nHost: x\r\n\r\n")
        events.recv(4096)
        for save in range(saves):
            time.sleep(0.5)
            # Another camera name: bytes the server has never made sizes of.
            data = bytearray(original)
            at = data.find(b"Model 1")
            data[at + 6:at + 8] = b"%02d" % (20 + save)
            start = time.monotonic()
            photo.write_bytes(data)
            received = b""
            while b"reload" not in received:
                events.settimeout(60)
                received += events.recv(4096)
            latencies.append((time.monotonic() - start) * 1000)
    finally:
        photo.write_bytes(original)
        server.terminate()
        server.wait()
    print(f"a new cover photo shown {statistics.median(latencies):.0f} ms after it is saved (median of {saves}, worst {max(latencies):.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
