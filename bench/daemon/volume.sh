#!/usr/bin/env bash
# Hearing a volume change: the request → the first snd_pcm_writei at the new level, with wavediald
# --headless into the paced sink of bench/audio (software mixer, loudness_target off so the level is exact).
# The station sends a 440 Hz tone from a rig of its own ($BENCH_DIR/volume-rig). "At the new level" is the
# first write after t0 whose peak reaches 0.8 of the level the station plays at afterwards (pcmshim's
# peaks, measure.py --loud 0.8); before t0 it played at a quarter of that or not at all:
#   * control socket: `wavedial volume 100` after `volume 50` (−12 dB → 0 dB): the CLI's start and the
#     socket's round trip are inside the figure;
#   * push (unmute): `wavedial sim press push` on a muted radio: the knob's switch as the controller
#     gets it from the input thread (a volume knob's detent takes the same path, RadioIntent.changeVolume).
# What the listener hears comes one device buffer later ([audio] alsa_buffer_ms, 200 by default).
# The detent → LCD bar figure is knob-bench's (bench/daemon/run.sh).
# Not run in CI. Needs what bench/audio needs. Usage: bench/daemon/volume.sh [REPS]
# (bin: the release binaries, built when unset; RESULTS: a JSON-lines file to append to)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-5}
export PATH="/opt/swift/usr/bin:$PATH"
bin=${bin:-$("$root/scripts/build-release" --product wavediald --product wavedial)}
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench-daemon}
work="$BENCH_DIR/volume"
export BENCH_DIR="$BENCH_DIR/volume-rig" PORT=${VOLUME_PORT:-18270} SRC="$BENCH_DIR/volume-rig/tone.mp3" RIG_FORMATS=mp3 FORMAT=mp3
rm -rf "$work" && mkdir -p "$work" "$BENCH_DIR"
[ -e "$BENCH_DIR/media" ] || [ ! -d "$(dirname "$BENCH_DIR")/media" ] || ln -s "$(dirname "$BENCH_DIR")/media" "$BENCH_DIR/media"
[ -s "$SRC" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=60" \
  -ac 2 -c:a libmp3lame -b:a 128k -fflags +bitexact -flags:a +bitexact -write_xing 0 -id3v2_version 0 -f mp3 "$SRC"
"$root/bench/audio/rig.sh" start >/dev/null
trap '"$root/bench/audio/rig.sh" stop >/dev/null; kill $catalog 2>/dev/null || true' EXIT
url=$("$root/bench/audio/rig.sh" url)

python3 - "$url" "$work/stations.json" <<'PY'
import json, sys
url, out = sys.argv[1], sys.argv[2]
json.dump([{"stationuuid": "00000000-0000-4000-8000-00000000be03", "name": "Volume Tone 94.1", "url": url,
            "url_resolved": url, "countrycode": "DE", "country": "Germany", "codec": "MP3", "bitrate": 128,
            "hls": 0, "lastcheckok": 1, "geo_lat": 52.52, "geo_long": 13.40}], open(out, "w"))
PY
python3 "$root/Tests/Fixtures/radio_browser_server.py" --stations "$work/stations.json" >"$work/port" &
catalog=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
cat >"$work/config.toml" <<TOML
[location]
latitude = 52.52
longitude = 13.405
country = "DE"
[catalog]
database = "$work/wavedial.sqlite"
servers = ["http://127.0.0.1:$(head -1 "$work/port")"]
[audio]
device = "default"
allowed_addresses = ["127.0.0.0/8"]
loudness_target = "off"
mixer = "software"
[daemon]
resume_on_start = false
[control]
socket = "$work/control.sock"
TOML
export WAVEDIAL_CONFIG="$work/config.toml"
"$bin/wavedial" sync >/dev/null

echo "== volume 50 → 100 through the control socket → the new level at ALSA ($reps runs)"
"$root/bench/audio/measure.py" --name daemon-volume-socket --url "$url" --reps "$reps" --duration 3 --loud 0.8 \
  --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" --ready "$bin/wavedial status" \
  --before "sh -c '$bin/wavedial tune 94.1 >/dev/null && sleep 2 && $bin/wavedial volume 50 >/dev/null'" \
  --settle 1 --jitter 0.3 --trigger "$bin/wavedial volume 100" --env WAVEDIAL_CONFIG="$work/config.toml"
echo "== push on a muted radio (unmute) → its sound at ALSA ($reps runs)"
"$root/bench/audio/measure.py" --name daemon-volume-unmute --url "$url" --reps "$reps" --duration 3 --loud 0.8 \
  --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" --ready "$bin/wavedial status" \
  --before "sh -c '$bin/wavedial tune 94.1 >/dev/null && sleep 2 && $bin/wavedial volume 100 >/dev/null && $bin/wavedial mute >/dev/null'" \
  --settle 1 --jitter 0.3 --trigger "$bin/wavedial sim press push" --env WAVEDIAL_CONFIG="$work/config.toml"
