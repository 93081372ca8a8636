#!/usr/bin/env python3
"""Times a reader of `sitegen serve` while a crowd holds connections, on 127.0.0.1 only.

    Scripts/serve-crowd.py SITEGEN [--slow N] [--listeners N] [--requests N] [--limit-ms MS]

Builds the starter site, starts `sitegen serve` on it, and opens the crowd: --slow clients
that send a request head a header at a time and never finish it (slowloris), and
--listeners pages listening for live reloads that read nothing. Then it times --requests
ordinary GETs of the home page, one after the other, each on a new connection, and prints
their median and slowest time and the server's memory before and with the crowd. With
--limit-ms it fails when a request failed or took longer. Bounded: at most 2,000 of each
kind of connection, and 60 seconds in all.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

DEADLINE = time.monotonic() + 60


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_megabytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def connect(port, text):
    """A crowd connection, or None when the server did not take it within a second."""
    try:
        client = socket.create_connection(("127.0.0.1", port), timeout=1)
        client.sendall(text.encode())
        return client
    except OSError:
        return None


def get(port):
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = client.recv(65536)
            if not chunk:
                break
            data += chunk
    elapsed = (time.monotonic() - started) * 1000
    return elapsed, data.startswith(b"HTTP/1.1 200 ") and data.rstrip().endswith(b"</html>")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sitegen")
    parser.add_argument("--slow", type=int, default=1000)
    parser.add_argument("--listeners", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--limit-ms", type=float)
    arguments = parser.parse_args()
    slow_count = min(arguments.slow, 2000)
    listener_count = min(arguments.listeners, 2000)

    with tempfile.TemporaryDirectory() as folder:
        site = os.path.join(folder, "site")
        subprocess.run([arguments.sitegen, "init", site], check=True, stdout=subprocess.DEVNULL)
        port = free_port()
        server = subprocess.Popen([arguments.sitegen, "serve", "--source", site, "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        crowd = []
        try:
            while time.monotonic() < DEADLINE:
                if server.poll() is not None:
                    raise SystemExit(f"serve-crowd.py: sitegen serve ended with status {server.returncode}")
                try:
                    if get(port)[1]:
                        break
                except OSError:
                    pass
                time.sleep(0.1)
            alone = [get(port)[0] for _ in range(10)]
            before = rss_megabytes(server.pid)
            # At most 20 seconds to open the crowd: what is not open by then counts as not taken.
            opening = time.monotonic() + 20
            for _ in range(listener_count):
                crowd.append(connect(port, "GET /__sitegen/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") if time.monotonic() < opening else None)
            slow = [connect(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") if time.monotonic() < opening else None for _ in range(slow_count)]
            refused = sum(1 for client in crowd + slow if client is None)
            slow = [client for client in slow if client is not None]
            crowd = [client for client in crowd if client is not None] + slow
            times, failures = [], 0
            for number in range(arguments.requests):
                if number > 0 and time.monotonic() > DEADLINE:
                    break
                # The slow clients go on sending, a header each now and then.
                if number % 10 == 0:
                    for client in slow:
                        try:
                            client.send(b"X-Still: here\r\n")
                        except OSError:
                            pass
                started = time.monotonic()
                try:
                    elapsed, good = get(port)
                except OSError:
                    elapsed, good = (time.monotonic() - started) * 1000, False
                times.append(elapsed)
                failures += 0 if good else 1
            during = rss_megabytes(server.pid)
        finally:
            for client in crowd:
                client.close()
            server.terminate()
            server.wait(timeout=10)

    print(f"alone: median {statistics.median(alone):.1f} ms; with {slow_count} slow clients and {listener_count} listening pages: "
          f"{len(times)} requests, median {statistics.median(times):.1f} ms, slowest {max(times):.1f} ms, {failures} failed; "
          f"memory {before:.0f} MB, then {during:.0f} MB; {refused} of the crowd not taken within a second")
    if arguments.limit_ms is not None and (failures or max(times) > arguments.limit_ms):
        print(f"serve-crowd.py: a request failed or took more than {arguments.limit_ms:.0f} ms", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
