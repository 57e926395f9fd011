#!/usr/bin/env bash
# The appliance's own figures, with the real daemon:
#   * daemon start → ready (control socket answers), cold process each time;
#   * knob rest → first audio of the snapped station, and RSS/CPU while playing: wavediald
#     --headless on the loopback Icecast rig of bench/audio, ALSA into its paced sink; the knob
#     is turned by `wavedial sim turn` and t0 is the end of the rest (snap_delay_ms after it);
#   * `wavedial tune` → first audio on the same running radio;
#   * the sweep: the needle reaches a station's frequency → its sound at ALSA, warm and cold (sweep.sh);
#   * a volume change (socket, unmute by the push) → the new level at ALSA (volume.sh);
#   * knob rest → first audio of a warm neighbour against the same neighbour cold, and CPU/RSS while it
#     plays beside its two warm neighbours (warm.sh);
#   * detent → LCD and volume detent → LCD bar (knob-bench: controller, display loop and HD44780 driver on a
#     100 kHz bus).
# Not run in CI. Needs what bench/audio needs. Usage: bench/daemon/run.sh [REPS]
# (RESULTS: a JSON-lines file the playing measurements are appended to)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-3}
export BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench-daemon}
export PORT=${PORT:-18200}
work="$BENCH_DIR/daemon"
rm -rf "$work" && mkdir -p "$work"
export PATH="/opt/swift/usr/bin:$PATH"
bin=$("$root/scripts/build-release" --product wavediald --product wavedial)
(cd "$root/bench" && swift build -c release --product knob-bench >/dev/null)

. "$root/bench/radio.sh"

echo "== daemon start → ready (control socket answers), $reps cold starts"
python3 - "$bin/wavediald" "$work" "$reps" <<'PY'
import os, socket, statistics, subprocess, sys, time
daemon, work, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = []
for _ in range(reps):
    t0 = time.monotonic()
    p = subprocess.Popen([daemon, "--headless"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            s = socket.socket(socket.AF_UNIX); s.connect(f"{work}/control.sock"); s.close(); break
        except OSError:
            time.sleep(0.001)
    times.append((time.monotonic() - t0) * 1000)
    p.terminate(); p.wait()
print(f"start → ready: median {statistics.median(times):.0f} ms, max {max(times):.0f} ms")
PY

echo "== knob rest → first audio, CPU and RSS while playing (paced sink, $reps runs of 60 s)"
"$root/bench/audio/measure.py" --name daemon-knob --url "$url" --reps "$reps" --duration 60 \
  --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" \
  --ready "$bin/wavedial status" --trigger "$bin/wavedial sim turn 66" --settle 1 --loud 0.3 \
  --env WAVEDIAL_CONFIG="$work/config.toml"
echo "(ttfa_loud_s: the station's sound, not the sweep's hiss that comes first; it includes the 400 ms the knob"
echo " must rest before the needle snaps, and the station is tuned ahead from 150 ms after the detent)"

# A running radio asked for a station, as mpd is in bench/audio: t0 is the launch of `wavedial tune`,
# so the CLI's start and the control socket's round trip are inside the figure.
echo "== tune → first audio (paced sink, $reps runs of 10 s)"
"$root/bench/audio/measure.py" --name daemon-tune --url "$url" --reps "$reps" --duration 10 \
  --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" \
  --ready "$bin/wavedial status" --trigger "$bin/wavedial tune 94.1" --settle 1 \
  --env WAVEDIAL_CONFIG="$work/config.toml"

echo "== sweep: the needle reaches a station's frequency → its sound at ALSA"
bin="$bin" SWEEP_PORT=$((PORT + 60)) "$here/sweep.sh" "$reps"
bin="$bin" VOLUME_PORT=$((PORT + 70)) "$here/volume.sh" "$reps"
bin="$bin" WARM_PORT=$((PORT + 90)) "$here/warm.sh" "$reps"

echo "== detent → LCD"
"$(cd "$root/bench" && swift build -c release --show-bin-path)/knob-bench" 300
echo "== machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
