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
TONE_RIG=volume PORT=${VOLUME_PORT:-18270} RADIO_STATION="be03 Volume Tone 94.1" RADIO_AUDIO=$'loudness_target = "off"\nmixer = "software"'
. "$root/bench/tone-radio.sh"

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
