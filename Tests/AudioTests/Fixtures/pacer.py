#!/usr/bin/env python3
"""Takes raw S16_LE frames from standard input at real time, as a sound card would, and writes them to a file.

ALSA's file plugin pipes a capture to it (`AlsaCapture.pacedDevice`), so the player's writes block as on a
device and its ring keeps its lead. After a pause (nothing to take) it starts its clock again rather than
taking the next writes at once. Usage: pacer.py RATE CHANNELS FILE
"""
import sys
import time

rate, channels, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
bytes_per_second = rate * channels * 2
block = max(bytes_per_second // 100, channels * 2)
started = time.monotonic()
taken = 0
with open(path, "wb", buffering=0) as out:
    while True:
        data = sys.stdin.buffer.read1(block)
        if not data:
            break
        out.write(data)
        taken += len(data)
        delay = started + taken / bytes_per_second - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        elif delay < -0.05:
            started = time.monotonic() - taken / bytes_per_second
