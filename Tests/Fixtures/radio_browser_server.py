#!/usr/bin/env python3
"""A Radio Browser API stand-in on 127.0.0.1 for Wavedial's tests and benchmarks.

Serves /json/stations from a JSON file (real Radio Browser format), honours gzip,
and misbehaves on request: --mode error (HTTP 500), hang (headers, then silence),
malformed (broken JSON), truncated (the body stops half-way), notarray, trickle (the body
a few bytes a second, for ever).
Prints the port it listens on as its first line; logs each request's path and
User-Agent to --log. Python's standard library only.
"""
import argparse
import gzip
import http.server
import json
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stations", required=True, help="JSON file with the station array")
    parser.add_argument("--mode", default="ok", choices=["ok", "error", "hang", "malformed", "truncated", "notarray", "trickle"])
    parser.add_argument("--log", help="append one line per request: path and User-Agent")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()

    with open(args.stations, "rb") as f:
        body = f.read()
    json.loads(body)  # the fixture itself must be valid
    log_lock = threading.Lock()
    gzip_cache = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_GET(self):
            if args.log:
                with log_lock, open(args.log, "a") as f:
                    f.write(f"{self.path}\t{self.headers.get('User-Agent', '')}\t{self.headers.get('Accept-Encoding', '')}\n")
            if self.path.startswith("/json/stats"):
                return self.send_body(json.dumps({"supported_version": 1, "software_version": "wavedial-test",
                                                  "status": "OK", "stations": len(json.loads(body))}).encode(), "application/json")
            if self.path.startswith("/json/url/"):
                return self.send_body(b'{"ok":"true","message":"retrieved station url"}', "application/json")
            if not self.path.startswith("/json/stations"):
                self.send_error(404)
                return
            if args.mode == "error":
                self.send_error(500, "Internal Server Error")
                return
            if args.mode == "hang":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[:10])
                self.wfile.flush()
                time.sleep(3600)
                return
            if args.mode == "trickle":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"[")
                try:
                    while True:
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(0.25)
                except OSError:
                    return
            payload = body
            if args.mode == "malformed":
                payload = body[: len(body) // 2] + b'{"stationuuid": ,,, garbage' + body[len(body) // 2 :]
            elif args.mode == "notarray":
                payload = b'{"error": "not what you expected"}'
            elif args.mode == "truncated":
                payload = body[: len(body) // 2]
            self.send_body(payload, "application/json", truncate=args.mode == "truncated")

        def send_body(self, payload, content_type, truncate=False):
            use_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
            if use_gzip:
                # Compressing a 50,000-station catalog takes Python a second: do it once per payload.
                key = (id(payload), len(payload))
                if key not in gzip_cache:
                    gzip_cache[key] = gzip.compress(payload, 6)
                payload = gzip_cache[key]
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            if use_gzip:
                self.send_header("Content-Encoding", "gzip")
            if truncate:
                # Announce the whole length, send half, and close: a download cut off mid-way.
                self.send_header("Content-Length", str(len(payload) * 2))
            else:
                self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            if truncate:
                self.wfile.flush()
                self.close_connection = True

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
