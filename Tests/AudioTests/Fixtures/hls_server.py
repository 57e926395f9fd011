#!/usr/bin/env python3
"""Loopback HTTP server for the HLS tests: serves a folder (ffmpeg's live HLS output, or segments a test
wrote) and misbehaves on request.

Usage: hls_server.py ROOT. Prints "port N" once listening on 127.0.0.1; exits when stdin closes.

  GET /control?fail=RE&truncate=RE&garbage=RE&stall=0|1&synth=N,D,W
      fail: paths matching RE answer 404; truncate: the first request of each matching path gets half
      its body, then the connection closes; garbage: matching paths get a zero and random bytes, as long;
      stall: every .m3u8 is served as it was when the stall began (the playlist stops moving);
      synth: /synth.m3u8 becomes a live playlist over segN.ts for N files, D seconds each, W in the
      window, numbered on from 0 as time passes (segment i is seg{i % N}.ts). Missing keys reset.
  GET /requests: one line per request served so far: "<seconds since start> <path>".
Everything else is a file under ROOT, with byte ranges (Range: bytes=A-B) honoured.
"""
import os
import random
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(sys.argv[1])
START = time.monotonic()
lock = threading.Lock()
state = {"fail": None, "truncate": None, "garbage": None, "stall": False, "synth": None}
frozen = {}
truncated = set()
log = []


def synthesized_playlist():
    count, duration, window, since = state["synth"]
    newest = int((time.monotonic() - since) / duration) + window
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:%d" % max(1, round(duration)),
             "#EXT-X-MEDIA-SEQUENCE:%d" % (newest - window)]
    for index in range(newest - window, newest):
        lines += ["#EXTINF:%.3f," % duration, "seg%d.ts" % (index % count)]
    return ("\n".join(lines) + "\n").encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", content_type="application/octet-stream", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        with lock:
            log.append("%.3f %s" % (time.monotonic() - START, path))
        if path == "/control":
            query = urllib.parse.parse_qs(url.query)
            with lock:
                for key in ("fail", "truncate", "garbage"):
                    state[key] = re.compile(query[key][0]) if key in query else None
                state["stall"] = query.get("stall", ["0"])[0] == "1"
                if not state["stall"]:
                    frozen.clear()
                if "synth" in query:
                    count, duration, window = query["synth"][0].split(",")
                    state["synth"] = (int(count), float(duration), int(window), time.monotonic())
            self.reply(200, b"ok\n", "text/plain")
            return
        if path == "/requests":
            with lock:
                body = ("\n".join(log) + "\n").encode()
            self.reply(200, body, "text/plain")
            return
        with lock:
            fail, cut, garbage = state["fail"], state["truncate"], state["garbage"]
            stall = state["stall"]
        if fail and fail.search(path):
            self.reply(404, b"not found\n", "text/plain")
            return
        if path == "/synth.m3u8" and state["synth"]:
            body = synthesized_playlist()
        else:
            file = os.path.normpath(os.path.join(ROOT, path.lstrip("/")))
            if not file.startswith(ROOT) or not os.path.isfile(file):
                self.reply(404, b"not found\n", "text/plain")
                return
            with open(file, "rb") as handle:
                body = handle.read()
        content_type = "application/vnd.apple.mpegurl" if path.endswith(".m3u8") else "application/octet-stream"
        if path.endswith(".m3u8") and stall:
            with lock:
                body = frozen.setdefault(path, body)
        if garbage and garbage.search(path):
            # Random bytes after a zero, so they never pass for a container's first byte.
            body = b"\0" + bytes(random.getrandbits(8) for _ in range(len(body) - 1))
        if cut and cut.search(path):
            with lock:
                first = path not in truncated
                truncated.add(path)
            if first:
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
        ranged = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if ranged:
            first = int(ranged.group(1))
            last = int(ranged.group(2)) if ranged.group(2) else len(body) - 1
            part = body[first: last + 1]
            self.reply(206, part, content_type, [("Content-Range", "bytes %d-%d/%d" % (first, first + len(part) - 1, len(body)))])
            return
        self.reply(200, body, content_type)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("port %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # the test process holds the other end: gone, so are we
    server.shutdown()


if __name__ == "__main__":
    main()
