#!/usr/bin/env python3
"""A stream server that misbehaves on purpose, for the audio tests (Python standard library only).

Usage: misbehaving_server.py MP3_FILE DEAD_PORT   -> prints "PORT <n>" once listening on 127.0.0.1.

Paths (query ?speed=N paces the audio at N x real time after a 64 KB burst; default 1):
  /ok.mp3        HTTP 200, audio/mpeg, icy-metaint 8000, titles "Fixture - Song N" (N grows every 2 blocks)
  /live.mp3      like icecast: one live position for all listeners (by the clock), each connection starts
                 with a 64 KB burst before it; ?drop=N closes the connection after N bytes; obeys /control
  /stats         JSON: {"live_connections": how many /live.mp3 connections were opened (for soak runs),
                 "requests": {path: how many requests it had}} (how often a station was asked)
  /icy.mp3       the same with SHOUTcast v1's "ICY 200 OK" status line
  /plain.mp3     audio/mpeg without ICY metadata
  /stall.mp3     a live 64 KB burst (see /live.mp3), then nothing (connection held open)
  /trickle.mp3   20 bytes every 0.1 s
  /garbage.mp3   MPEG audio with runs of junk bytes between frames
  /short.mp3     3 s of audio, then a clean close
  /reset.mp3     a live 64 KB burst, then a TCP reset
  /hugemeta.mp3  maximal (4080-byte) metadata blocks, some malformed
  /flood.mp3?metaint=N   icy-metaint N (default 16) and a new title "Flood K" in every block (K: the block);
                 the audio bytes alone are paced (so at speed 1, 1000 blocks a second for N = 16)
  /hostile-headers.mp3   plain audio/mpeg under hostile headers: icy-br 2^63-1, an icy-metaint past any integer,
                 2,000 junk fields, a 60 KB icy-name
  /file?path=P&type=T[&bps=N][&junk=1]   the test's own media file P as content type T, paced at N bytes
                 a second after a 64 KB burst (unpaced without bps); junk=1 puts runs of junk bytes between
                 every few KB (for each format's resync); the connection closes at the file's end
  /wma           video/x-ms-asf: an ASF header (WMA)
  /page.html     an HTML page
  /video.m3u8    an HLS master playlist with video variants only
  /notfound      404            /error   500        /gone   410
  /status/N      HTTP status N (e.g. /status/503, /status/451), a text body
  /loop          302 to itself   /redirect  302 to /ok.mp3
  /hops/N        302 to /hops/N+1 for ever: too many redirects, never the same URL
  /nowhere       302 to http://wavedial-nowhere.invalid/stream (a name that never exists, RFC 6761)
  /silent.mp3    audio/mpeg headers, then nothing (connection held open)
  /list.pls      a dead entry, a 404 entry, then /ok.mp3
  /list.m3u      the same as M3U;  /dead.m3u  only dead entries
  /gone.m3u      only entries that answer 404 and 410;  /empty.m3u  a playlist with no entries
  /control?stall=0|1&rate=N&status=S   from now on every /live.mp3 stream sends nothing (stall=1), or at
                 most N bytes a second (a trickle, rate>0); with status other than 200, open /live.mp3 streams
                 end and new requests get that HTTP status; stall=0&rate=0&status=200 is normal service
"""
import json
import socket
import socketserver
import sys
import threading
import time
import urllib.parse

MP3 = open(sys.argv[1], "rb").read()
DEAD_PORT = int(sys.argv[2])
BYTES_PER_SECOND = 16000  # 128 kbit/s
STARTED = time.monotonic()
LIVE_CONNECTIONS = 0
REQUESTS = {}
REQUESTS_LOCK = threading.Lock()
METAINT = 8000
# Set by /control for all /live.mp3 streams: a frozen upstream, a trickle of `rate` bytes a second, an HTTP error.
CONTROL = {"stalled": False, "rate": 0, "status": 200}


def metadata_block(text: bytes) -> bytes:
    if not text:
        return b"\x00"
    padded = text + b"\x00" * (-len(text) % 16)
    return bytes([len(padded) // 16]) + padded


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.settimeout(30)

    def send(self, data: bytes):
        self.request.sendall(data)

    def head(self, status="HTTP/1.0 200 OK", headers=()):
        lines = [status] + [f"{k}: {v}" for k, v in headers]
        self.send(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    def handle(self):
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            request += chunk
        line = request.split(b"\r\n", 1)[0].decode("latin-1")
        target = line.split(" ")[1]
        parsed = urllib.parse.urlparse(target)
        query = urllib.parse.parse_qs(parsed.query)
        speed = float(query.get("speed", ["1"])[0])
        path = parsed.path
        if path != "/stats":
            with REQUESTS_LOCK:
                REQUESTS[path] = REQUESTS.get(path, 0) + 1
        port = self.server.server_address[1]
        base = f"http://127.0.0.1:{port}"
        wants_icy = b"icy-metadata: 1" in request.lower()
        try:
            self.route(path, speed, base, wants_icy, query)
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            pass

    def stream(self, speed, metaint=None, titles=True, limit=None, junk=False, huge=False, live=False, flood=False):
        """Audio paced at speed x real time after a 64 KB burst, with ICY metadata when metaint is set.
        live: the burst ends at the shared live position instead of starting at the file's beginning.
        flood: a new title in every block, and only the audio bytes count for the pacing."""
        sent = 0
        audio_sent = 0
        since_meta = 0
        blocks = 0
        position = 0
        if live:
            # The live edge starts 64 KB into the file, so the first bursts do not wrap into the file's
            # leading encoder delay (a real, if short, silence).
            position = int((time.monotonic() - STARTED) * BYTES_PER_SECOND * speed) % len(MP3)
        started = time.monotonic()
        while limit is None or sent < limit:
            if live and CONTROL["status"] != 200:
                return
            chunk = MP3[position:position + 1000]
            if len(chunk) < 1000:
                chunk += MP3[:1000 - len(chunk)]
            position = (position + 1000) % len(MP3)
            if junk and (sent // 1000) % 7 == 3:
                chunk = bytes((i * 37 + 11) & 0xFF for i in range(300)) + chunk
            audio_sent += len(chunk)
            out = b""
            while chunk:
                if metaint is None:
                    out += chunk
                    break
                take = min(len(chunk), metaint - since_meta)
                out += chunk[:take]
                chunk = chunk[take:]
                since_meta += take
                if since_meta == metaint:
                    since_meta = 0
                    blocks += 1
                    if flood:
                        out += metadata_block(f"StreamTitle='Flood {blocks}';".encode())
                    elif huge:
                        body = (b"StreamTitle='Huge " + b"x" * 4000 + b"';") if blocks % 2 else b"StreamTitle=\x01\x02garbage" + b"\xff" * 4000
                        out += metadata_block(body[:4080])
                    elif titles:
                        out += metadata_block(f"StreamTitle='Fixture - Song {blocks // 2 + 1}';".encode())
                    else:
                        out += b"\x00"
            if live and (CONTROL["stalled"] or CONTROL["rate"]):
                self.send_controlled(out)
                sent += len(out)
                # Normal pacing resumes from here, without a burst to catch up.
                started = time.monotonic() - max(0, sent - 65536) / (BYTES_PER_SECOND * speed)
                continue
            self.send(out)
            sent += len(out)
            paced = audio_sent if flood else sent
            if paced > 65536:
                due = started + (paced - 65536) / (BYTES_PER_SECOND * speed)
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)

    def serve_file(self, query):
        data = open(query["path"][0], "rb").read()
        rate = int(query.get("bps", ["0"])[0])
        junk = query.get("junk", ["0"])[0] == "1"
        self.head(headers=[("Content-Type", query.get("type", ["application/octet-stream"])[0])])
        started = time.monotonic()
        sent = 0
        for offset in range(0, len(data), 1000):
            chunk = data[offset:offset + 1000]
            if junk and (offset // 1000) % 7 == 3:
                chunk = bytes((i * 37 + 11) & 0xFF for i in range(300)) + chunk
            self.send(chunk)
            sent += len(chunk)
            if rate and sent > 65536:
                delay = started + (sent - 65536) / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)

    def send_controlled(self, data: bytes):
        """Holds `data` while stalled, trickles it at the set rate, both as /control says at each step."""
        while data:
            if CONTROL["stalled"]:
                time.sleep(0.05)
                continue
            rate = CONTROL["rate"]
            if not rate:
                self.send(data)
                return
            piece = max(1, rate // 10)
            self.send(data[:piece])
            data = data[piece:]
            time.sleep(piece / rate)

    def live_burst(self, speed):
        """The 64 KB before the live position, as icecast sends on connect."""
        end = int((time.monotonic() - STARTED) * BYTES_PER_SECOND * speed) % len(MP3)
        return (MP3 + MP3)[end + len(MP3) - 65536:end + len(MP3)]

    def route(self, path, speed, base, wants_icy, query):
        icy = [("Content-Type", "audio/mpeg"), ("icy-name", "Fixture FM"), ("icy-br", "128")]
        if path == "/control":
            CONTROL["stalled"] = query.get("stall", ["0"])[0] == "1"
            CONTROL["rate"] = int(query.get("rate", ["0"])[0])
            CONTROL["status"] = int(query.get("status", ["200"])[0])
            self.head(headers=[("Content-Type", "text/plain"), ("Content-Length", "3")])
            self.send(b"ok\n")
        elif path in ("/ok.mp3", "/icy.mp3"):
            status = "ICY 200 OK" if path == "/icy.mp3" else "HTTP/1.0 200 OK"
            meta = [("icy-metaint", str(METAINT))] if wants_icy else []
            self.head(status, icy + meta)
            self.stream(speed, METAINT if wants_icy else None)
        elif path == "/live.mp3" and CONTROL["status"] != 200:
            self.head(f"HTTP/1.0 {CONTROL['status']} Unavailable", [("Content-Type", "text/plain")])
        elif path == "/live.mp3":
            global LIVE_CONNECTIONS
            LIVE_CONNECTIONS += 1
            drop = int(float(query.get("drop", ["0"])[0])) or None
            meta = [("icy-metaint", str(METAINT))] if wants_icy else []
            self.head(headers=icy + meta)
            self.stream(speed, METAINT if wants_icy else None, limit=drop, live=True)
        elif path == "/stats":
            self.head(headers=[("Content-Type", "application/json")])
            with REQUESTS_LOCK:
                stats = {"live_connections": LIVE_CONNECTIONS, "requests": dict(REQUESTS)}
            self.send(json.dumps(stats).encode())
        elif path == "/plain.mp3":
            self.head(headers=[("Content-Type", "audio/mpeg")])
            self.stream(speed)
        elif path == "/stall.mp3":
            self.head(headers=icy)
            self.send(self.live_burst(speed))
            time.sleep(60)
        elif path == "/trickle.mp3":
            self.head(headers=icy)
            for offset in range(0, 100000, 20):
                self.send(MP3[offset:offset + 20])
                time.sleep(0.1)
        elif path == "/garbage.mp3":
            self.head(headers=[("Content-Type", "audio/mpeg")])
            self.stream(speed, junk=True)
        elif path == "/short.mp3":
            self.head(headers=[("Content-Type", "audio/mpeg")])
            self.stream(speed, limit=3 * BYTES_PER_SECOND)
        elif path == "/reset.mp3":
            self.head(headers=[("Content-Type", "audio/mpeg")])
            self.send(self.live_burst(speed))
            self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            self.request.close()
        elif path == "/hugemeta.mp3":
            self.head(headers=icy + [("icy-metaint", str(METAINT))])
            self.stream(speed, METAINT, huge=True)
        elif path == "/flood.mp3":
            metaint = int(query.get("metaint", ["16"])[0])
            self.head(headers=icy + [("icy-metaint", str(metaint))])
            self.stream(speed, metaint, flood=True)
        elif path == "/hostile-headers.mp3":
            junk = [(f"x-junk-{i}", "j" * 20) for i in range(2000)]
            self.head(headers=[("Content-Type", "audio/mpeg"), ("icy-br", "9223372036854775807"),
                               ("icy-metaint", "99999999999999999999"), ("icy-name", "N" * 60000)] + junk)
            self.stream(speed)
        elif path == "/file":
            self.serve_file(query)
        elif path == "/wma":
            self.head(headers=[("Content-Type", "video/x-ms-asf")])
            # An ASF header object (WMA's container), then nothing a radio plays.
            self.send(bytes.fromhex("3026B2758E66CF11A6D900AA0062CE6C") + bytes(4000))
        elif path == "/page.html":
            self.head(headers=[("Content-Type", "text/html")])
            self.send(b"<!DOCTYPE html><html><body>" + b"Not a stream. " * 100 + b"</body></html>")
        elif path == "/video.m3u8":
            self.head(headers=[("Content-Type", "application/vnd.apple.mpegurl")])
            self.send(b"#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.64001f\",RESOLUTION=1280x720\n"
                      b"video/720p.m3u8\n")
        elif path == "/notfound":
            self.head("HTTP/1.0 404 Not Found", [("Content-Type", "text/plain")])
            self.send(b"no such mount")
        elif path == "/error":
            self.head("HTTP/1.0 500 Internal Server Error", [("Content-Type", "text/plain")])
        elif path == "/gone":
            self.head("HTTP/1.0 410 Gone", [("Content-Type", "text/plain")])
            self.send(b"this station closed")
        elif path.startswith("/status/") and path[len("/status/"):].isdigit():
            self.head(f"HTTP/1.0 {int(path[len('/status/'):])} Status", [("Content-Type", "text/plain")])
            self.send(b"status\n")
        elif path.startswith("/hops/") and path[len("/hops/"):].isdigit():
            self.head("HTTP/1.0 302 Found", [("Location", f"/hops/{int(path[len('/hops/'):]) + 1}")])
        elif path == "/nowhere":
            self.head("HTTP/1.0 302 Found", [("Location", "http://wavedial-nowhere.invalid/stream")])
        elif path == "/silent.mp3":
            self.head(headers=icy)
            time.sleep(60)
        elif path == "/loop":
            self.head("HTTP/1.0 302 Found", [("Location", "/loop")])
        elif path == "/redirect":
            self.head("HTTP/1.0 302 Found", [("Location", "/ok.mp3")])
        elif path == "/list.pls":
            self.head(headers=[("Content-Type", "audio/x-scpls")])
            dead = f"http://127.0.0.1:{DEAD_PORT}/live"
            self.send(f"[playlist]\nNumberOfEntries=3\nFile1={dead}\nFile2={base}/notfound\nFile3={base}/ok.mp3\n".encode())
        elif path == "/list.m3u":
            self.head(headers=[("Content-Type", "audio/x-mpegurl")])
            self.send(f"#EXTM3U\nhttp://127.0.0.1:{DEAD_PORT}/live\n{base}/notfound\n{base}/ok.mp3\n".encode())
        elif path == "/gone.m3u":
            self.head(headers=[("Content-Type", "audio/x-mpegurl")])
            self.send(f"#EXTM3U\n{base}/notfound\n{base}/gone\n".encode())
        elif path == "/empty.m3u":
            self.head(headers=[("Content-Type", "audio/x-mpegurl")])
            self.send(b"#EXTM3U\n# nothing on air\n")
        elif path == "/dead.m3u":
            self.head(headers=[("Content-Type", "audio/x-mpegurl")])
            self.send(f"http://127.0.0.1:{DEAD_PORT}/live\n{base}/notfound\n".encode())
        else:
            self.head("HTTP/1.0 404 Not Found")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    server = Server(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    server.serve_forever()
