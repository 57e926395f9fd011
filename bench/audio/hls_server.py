#!/usr/bin/env python3
"""The audio rig's HLS origin: Python's threading HTTP server over the folder ffmpeg's hls muxer writes
(rig.sh), on 127.0.0.1 only. HTTP/1.1 with keep-alive, as a CDN edge answers; the playlist is never
cached (it changes every segment), segments are. Logs one line a request with CLOCK_MONOTONIC.
usage: hls_server.py --port PORT --directory DIR"""
import argparse, functools, http.server, sys, time


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    extensions_map = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".aac": "audio/aac",
                      "": "application/octet-stream"}

    def end_headers(self):
        live = self.path.split("?")[0].endswith(".m3u8")
        self.send_header("Cache-Control", "no-cache" if live else "max-age=60")
        super().end_headers()

    def log_message(self, format, *args):
        sys.stdout.write(f"{time.monotonic():.6f} {self.address_string()} {format % args}\n")
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--directory", required=True)
    a = ap.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), functools.partial(Handler, directory=a.directory))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
