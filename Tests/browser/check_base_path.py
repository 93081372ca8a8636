#!/usr/bin/env python3
"""Serves a site built for a base URL with a path (http://127.0.0.1:PORT/food/) under that
path, follows every link and asset from its home page, and checks each one answers and
stays under the path.

Usage: check_base_path.py SITEGEN SITE_DIR
Ends with 'base-path: N passed, N failed'.
"""
import functools
import html.parser
import http.server
import pathlib
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request

PREFIX = "/food/"


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.found.append(value)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    sitegen, site = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as root:
        handler = functools.partial(Quiet, directory=root)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        port = server.server_address[1]
        base = f"http://127.0.0.1:{port}{PREFIX}"
        output = pathlib.Path(root) / PREFIX.strip("/")
        subprocess.run([sitegen, "build", "--no-cache", "--source", site, "--output", str(output), "--base-url", base,
                        "--today", "2026-11-25T15:00", "--quiet"], check=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        passed = failed = 0
        seen, queue = set(), [base]
        while queue:
            url = queue.pop()
            if url in seen:
                continue
            seen.add(url)
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    body = response.read()
                    kind = response.headers.get("Content-Type", "")
            except urllib.error.HTTPError as error:
                failed += 1
                print(f"FAIL {url}: HTTP {error.code}")
                continue
            passed += 1
            if "html" not in kind:
                continue
            parser = Links()
            parser.feed(body.decode("utf-8"))
            for link in parser.found:
                absolute = urllib.parse.urljoin(url, link)
                parts = urllib.parse.urlsplit(absolute)
                if parts.scheme not in ("http", "https") or parts.netloc != f"127.0.0.1:{port}":
                    continue
                if not parts.path.startswith(PREFIX):
                    failed += 1
                    print(f"FAIL {url} links to {link}, outside {PREFIX}")
                    continue
                queue.append(urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, "")))
        server.shutdown()
    print(f"base-path: {passed} passed, {failed} failed")
    return 1 if failed or passed < 10 else 0


if __name__ == "__main__":
    sys.exit(main())
