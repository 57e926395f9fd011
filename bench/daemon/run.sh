#!/usr/bin/env bash
# The appliance's own figures, with the real daemon:
#   * daemon start → ready (control socket answers), cold process each time;
#   * knob rest → first audio of the snapped station, and RSS/CPU while playing: wavediald
#     --headless on the loopback Icecast rig of bench/audio, ALSA into its paced sink; the knob
#     is turned by `wavedial sim turn` and t0 is the end of the rest (snap_delay_ms after it);
#   * `wavedial tune` → first audio on the same running radio;
#   * the sweep: the needle reaches a station's frequency → its sound at ALSA, warm and cold (sweep.sh);
#   * a volume change (socket, unmute by the push) → the new level at ALSA (volume.sh);
#   * knob rest → first audio of a warm neighbour against the same neighbour cold ([dial]
#     warm_neighbours = 0), and CPU/RSS while it plays beside its two warm neighbours: three stations
#     on 94.1 (the rig's programme), 96.1 and 98.1 (tones on mounts of the same Icecast), pcmshim's
#     trace of every write, figures by warm_figures.py;
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
# Three stations: the rig's programme on 94.1 and two tones beside it, fed to the rig's Icecast.
echo "== warm neighbour against cold: knob rest → first audio, CPU and RSS ($reps runs of 80 s each)"
feeders=()
warm_catalog=""
trap '"$root/bench/audio/rig.sh" stop >/dev/null; kill $catalog $warm_catalog "${feeders[@]}" 2>/dev/null || true' EXIT
for hz in 1000 700; do
  tone="$BENCH_DIR/media/tone-$hz.mp3"
  [ -s "$tone" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "sine=frequency=$hz:sample_rate=44100:duration=30" \
    -ac 2 -c:a libmp3lame -b:a 128k -write_xing 0 -id3v2_version 0 -f mp3 "$tone"
  ( trap "exit 0" TERM; while :; do ffmpeg -hide_banner -loglevel error -nostdin -re -stream_loop -1 -i "$tone" -c:a copy -f mp3 \
      -content_type audio/mpeg "icecast://source:benchpw@127.0.0.1:$PORT/tone-$hz.mp3" </dev/null || true; sleep 0.2; done ) &
  feeders+=($!)
done
for _ in $(seq 250); do
  status=$(curl -s --max-time 1 "http://127.0.0.1:$PORT/status-json.xsl" || true)
  [[ $status == *tone-1000.mp3* && $status == *tone-700.mp3* ]] && break
  sleep 0.1
done
python3 - "$url" "http://127.0.0.1:$PORT" "$work/warm-stations.json" <<'PY'
import json, sys
url, base, out = sys.argv[1:4]
rows = [("be01", "Bench FM 94.1", url), ("be02", "Tone 96.1", f"{base}/tone-1000.mp3"), ("be03", "Tone 98.1", f"{base}/tone-700.mp3")]
json.dump([{"stationuuid": f"00000000-0000-4000-8000-00000000{tail}", "name": name, "url": u, "url_resolved": u,
            "countrycode": "DE", "country": "Germany", "codec": "MP3", "bitrate": 128, "hls": 0, "lastcheckok": 1,
            "geo_lat": 52.52, "geo_long": 13.40} for tail, name, u in rows], open(out, "w"))
PY
python3 "$root/Tests/Fixtures/radio_browser_server.py" --stations "$work/warm-stations.json" >"$work/warm-port" &
warm_catalog=$!
for _ in $(seq 50); do [ -s "$work/warm-port" ] && break; sleep 0.1; done
for mode in warm off; do
  sed -e "s|$work/wavedial.sqlite|$work/$mode.sqlite|" -e "s|$work/control.sock|$work/$mode.sock|" \
      -e "s|^servers = .*|servers = [\"http://127.0.0.1:$(head -1 "$work/warm-port")\"]|" "$work/config.toml" >"$work/$mode.toml"
  [ $mode = off ] && printf '[dial]\nwarm_neighbours = 0\n' >>"$work/$mode.toml"
  WAVEDIAL_CONFIG="$work/$mode.toml" "$bin/wavedial" sync >/dev/null
  rm -rf "$BENCH_DIR/runs/daemon-warm-$mode"   # the figures are this run's only
  "$root/bench/audio/measure.py" --name "daemon-warm-$mode" --url "$url" --reps "$reps" --duration 80 \
    --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" \
    --ready "$bin/wavedial status" --trigger "$here/turn-to-neighbour.sh $bin" --settle 1 \
    --env WAVEDIAL_CONFIG="$work/$mode.toml" --env PCMSHIM_TRACE=1 >/dev/null
done
"$here/warm_figures.py" "$BENCH_DIR" 00000000-0000-4000-8000-00000000be02 1000 daemon-warm-warm daemon-warm-off
echo "(warm: 94.1 plays 20 s, 96.1 warm beside it; then the knob turns to 96.1, which plays beside 94.1 and"
echo " 98.1, both warm; off: the same with warm_neighbours = 0)"

echo "== detent → LCD"
"$(cd "$root/bench" && swift build -c release --show-bin-path)/knob-bench" 300
echo "== machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
