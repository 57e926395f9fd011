#!/usr/bin/env python3
"""A loopback ICY station for the CLI tests: serves an MP3 in a loop (paced at 128 kbit/s after a
64 KB burst) with the station name and title given as hex bytes, so that they can hold anything a
station may send (escape sequences included). Logs each request's User-Agent to a file; prints its
port; exits when its stdin closes.

Usage: icy_station_server.py MP3 NAME_HEX TITLE_HEX LOG
"""
import os
import socket
import socketserver
import sys
import threading
import time

MP3 = open(sys.argv[1], "rb").read()
NAME = bytes.fromhex(sys.argv[2])
TITLE = bytes.fromhex(sys.argv[3])
LOG = sys.argv[4]
METAINT = 8000
BYTES_PER_SECOND = 16000


def metadata_block(text: bytes) -> bytes:
    padded = text + b"\x00" * (-len(text) % 16)
    return bytes([len(padded) // 16]) + padded


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.settimeout(30)
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            request += chunk
        agent = b""
        for line in request.split(b"\r\n")[1:]:
            if line.lower().startswith(b"user-agent:"):
                agent = line.split(b":", 1)[1].strip()
        with open(LOG, "ab") as log:
            log.write(agent + b"\n")
        icy = b"icy-metadata: 1" in request.lower()
        head = [b"HTTP/1.0 200 OK", b"Content-Type: audio/mpeg", b"icy-name: " + NAME]
        if icy:
            head.append(b"icy-metaint: %d" % METAINT)
        try:
            self.request.sendall(b"\r\n".join(head) + b"\r\n\r\n")
            self.stream(icy)
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            pass

    def stream(self, icy):
        started = time.monotonic()
        sent = 0
        position = 0
        since_meta = 0
        while True:
            chunk = MP3[position:position + 1000]
            position = (position + 1000) % len(MP3)
            out = b""
            while chunk:
                if not icy:
                    out += chunk
                    break
                take = min(len(chunk), METAINT - since_meta)
                out += chunk[:take]
                chunk = chunk[take:]
                since_meta += take
                if since_meta == METAINT:
                    since_meta = 0
                    out += metadata_block(b"StreamTitle='" + TITLE + b"';")
            self.request.sendall(out)
            sent += len(out)
            if sent > 65536:
                delay = started + (sent - 65536) / BYTES_PER_SECOND - time.monotonic()
                if delay > 0:
                    time.sleep(delay)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
