#!/usr/bin/env python3
"""Runs `wavedial play-url` against the fixture server's /live.mp3 with periodic drops, samples its
RSS from /proc and timestamps every state it prints; prints a summary and exits 1 when RSS grew by
1 MiB or more, when a drop was not followed by playing again, or when the drops did not happen."""
import argparse
import json
import os
import subprocess
import tempfile
import sys
import threading
import time
import urllib.request

BYTES_PER_SECOND = 16000  # the fixture's 128 kbit/s
GROWTH_LIMIT_MIB = 1.0
STUCK_SECONDS = 5.0  # wall time away from "playing" that counts as stuck (minutes of audio at 60x)

parser = argparse.ArgumentParser()
for name in ("wavedial", "media", "server"):
    parser.add_argument(f"--{name}", required=True)
parser.add_argument("--hours", type=float, required=True)
parser.add_argument("--speed", type=float, required=True)
parser.add_argument("--drop-minutes", type=float, required=True)
args = parser.parse_args()

server = subprocess.Popen([sys.executable, args.server, args.media, "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
port = int(server.stdout.readline().split()[1])
drop_bytes = int(args.drop_minutes * 60 * BYTES_PER_SECOND)
wall = args.hours * 3600 / args.speed
url = f"http://127.0.0.1:{port}/live.mp3?speed={args.speed:g}&drop={drop_bytes}"
started = time.monotonic()
# The fixture serves from loopback, which a typed URL may not reach unless the configuration allows it.
config = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
config.write('[audio]\nallowed_addresses = ["127.0.0.1"]\n')
config.close()
player = subprocess.Popen([args.wavedial, "play-url", "--config", config.name, "--device", "null", "--seconds", f"{wall:.0f}", url],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

states = []  # (seconds since start, state)
def read_states():
    for line in player.stdout:
        if line.startswith("state: "):
            states.append((time.monotonic() - started, line[7:].strip()))
reader = threading.Thread(target=read_states, daemon=True)
reader.start()

samples = []  # (seconds, RSS KiB)
while player.poll() is None:
    try:
        with open(f"/proc/{player.pid}/status") as status:
            rss = next(int(l.split()[1]) for l in status if l.startswith("VmRSS:"))
        samples.append((time.monotonic() - started, rss))
    except (FileNotFoundError, StopIteration, ProcessLookupError):
        pass
    time.sleep(5)
reader.join(timeout=5)
with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats") as response:
    connections = json.load(response)["live_connections"]
server.stdin.close()
server.wait(timeout=10)

# Warm-up: the first minute of wall time fills the ring and the allocator's pools.
steady = [(t, kib) for t, kib in samples if t >= 60] or samples
half = len(steady) // 2
growth = (max(k for _, k in steady[half:]) - max(k for _, k in steady[:half])) / 1024 if half else 0.0
# Every stretch away from "playing" (a drop's reconnect, an underrun at this speed) must end in "playing".
longest_gap, gap_start, recoveries = 0.0, None, 0
for index, (t, state) in enumerate(states):
    if state == "playing":
        if gap_start is not None:
            longest_gap = max(longest_gap, t - gap_start)
            recoveries += 1
        gap_start = None
    elif gap_start is None and index > 0:
        gap_start = t
# The run ends with the player stopped, whatever it was doing: only a long last stretch is stuck.
last_playing = max((t for t, state in states if state == "playing"), default=0.0)
tail = max(0.0, wall - last_playing) if gap_start is not None else 0.0
failed = [state for _, state in states if state.startswith("failed") and "willRetry: false" in state]
# Each connection lasts drop_bytes at the paced rate plus the reconnect, so a few fewer than hours/interval.
expected_drops = int(wall / (drop_bytes / (BYTES_PER_SECOND * args.speed) + 0.25))
drops = connections - 1
audio_hours = wall * args.speed / 3600

print(f"## Soak: {audio_hours:.2f} h of audio in {wall:.0f} s at {args.speed:g}x through the null PCM, "
      f"a drop every {args.drop_minutes:g} min of audio")
print("| t (s) | RSS (MiB) |\n| --- | --- |")
for t, kib in samples[::max(1, len(samples) // 12)] + samples[-1:]:
    print(f"| {t:.0f} | {kib / 1024:.1f} |")
print(f"\nRSS after warm-up: max first half {max(k for _, k in steady[:half]) / 1024 if half else 0:.2f} MiB, "
      f"second half {max(k for _, k in steady[half:]) / 1024 if half else 0:.2f} MiB: growth {growth:+.2f} MiB (limit {GROWTH_LIMIT_MIB:g})")
print(f"drops: {drops} (expected about {expected_drops}); back to playing {recoveries} times; "
      f"longest time away from playing {longest_gap:.2f} s wall ({longest_gap * args.speed:.0f} s of audio); "
      f"last state: {states[-1][1] if states else 'none'}, last playing {tail:.2f} s before the end")
failures = []
if growth >= GROWTH_LIMIT_MIB:
    failures.append(f"RSS grew {growth:.2f} MiB")
if drops < expected_drops * 0.8:
    failures.append(f"only {drops} drops")
if recoveries < drops:
    failures.append(f"{drops} drops but only {recoveries} returns to playing")
if longest_gap > STUCK_SECONDS or tail > STUCK_SECONDS or not states:
    failures.append(f"away from playing for {max(longest_gap, tail):.1f} s")
if failed:
    failures.append(f"failed for good: {failed[0]}")
print("RESULT: " + ("PASS" if not failures else "FAIL: " + "; ".join(failures)))
sys.exit(1 if failures else 0)
