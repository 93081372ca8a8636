#!/usr/bin/env python3
"""The teachers' blogs of the import tests, on 127.0.0.1: serves this folder with ETag and
Last-Modified (answering 304 to a request that names them), and a few hostile addresses:
/loop redirects to itself, /to-ftp redirects to ftp:, /huge sends 8 MB, /slow waits 30 s.
Each request's path and headers are appended to LOG as a line of JSON.

Usage: server.py LOG   (prints the port, then serves until killed)
"""
import hashlib
import http.server
import json
import pathlib
import sys
import time

FOLDER = pathlib.Path(__file__).resolve().parent
LOG = pathlib.Path(sys.argv[1])
MODIFIED = "Tue, 01 Dec 2026 08:00:00 GMT"


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        with LOG.open("a") as log:
            log.write(json.dumps({"path": self.path, "headers": dict(self.headers)}) + "\n")
        if self.path == "/loop":
            return self.redirect("/loop")
        if self.path == "/to-ftp":
            return self.redirect("ftp://127.0.0.1/feed.xml")
        if self.path == "/moved":
            return self.redirect("/wordpress.xml")
        if self.path == "/huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.end_headers()
            for _ in range(8 * 16):
                self.wfile.write(b"<!-- " + b"x" * 65536 + b" -->")
            return
        if self.path == "/slow":
            time.sleep(30)
        name = self.path.lstrip("/").split("?")[0]
        path = FOLDER / name
        if not name or "/" in name or not path.is_file():
            self.send_response(404)
            self.end_headers()
            return
        body = path.read_bytes()
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag or self.headers.get("If-Modified-Since") == MODIFIED:
            self.send_response(304)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html" if name.endswith(".html") else "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", MODIFIED)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.end_headers()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
