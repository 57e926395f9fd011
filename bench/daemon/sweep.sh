#!/usr/bin/env bash
# Hearing the sweep: the needle reaches a station's frequency → that station's sound at ALSA, with
# wavediald --headless into the paced sink of bench/audio and the knob turned by `wavedial sim turn`.
# t0 is the start of the `sim turn` that puts the needle on the station's frequency (the CLI's start
# and the control socket's round trip are inside the figure); "its sound" is the first
# snd_pcm_writei as loud as the station plays at full level (pcmshim's peaks, measure.py --loud 0.8),
# not the hiss or the quarter level it had one channel away. The station sends a 440 Hz tone from a
# rig of its own ($BENCH_DIR/sweep-rig), so its level is exact. A random 0–0.3 s before each trigger keeps it
# from landing at the same point of the stream's chunks every run. The knob never rests in the window
# (snap_delay_ms = 5000): this is the sweep, not the snap.
#   * warm: the needle came up to 94.0, one channel below: the station was tuned ahead and has been
#     playing at a quarter of its level for 2 s when the detent onto 94.1 lands;
#   * cold: one jump from the band's start onto 94.1: the knob must first slow down (KnobPace: no
#     detent for 150 ms) before the station is tuned, then the server answers (its floor: ttfb below).
# Not run in CI. Needs what bench/audio needs. Usage: bench/daemon/sweep.sh [REPS]
# (bin: the release binaries, built when unset; RESULTS: a JSON-lines file to append to)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-5}
export PATH="/opt/swift/usr/bin:$PATH"
bin=${bin:-$("$root/scripts/build-release" --product wavediald --product wavedial)}
TONE_RIG=sweep PORT=${SWEEP_PORT:-18260} RADIO_STATION="be02 Sweep Tone 94.1" RADIO_CONFIG=$'[dial]\nsnap_delay_ms = 5000'
. "$root/bench/tone-radio.sh"

echo "== sweep, warm: the detent onto a station tuned ahead → its sound at ALSA ($reps runs)"
"$root/bench/audio/measure.py" --name daemon-sweep-warm --url "$url" --reps "$reps" --duration 3 --loud 0.8 \
  --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" --ready "$bin/wavedial status" \
  --before "$bin/wavedial sim turn 65" --settle 2 --jitter 0.3 --trigger "$bin/wavedial sim turn 1" --env WAVEDIAL_CONFIG="$work/config.toml"
echo "== sweep, cold: one jump onto the station → its sound at ALSA ($reps runs)"
"$root/bench/audio/measure.py" --name daemon-sweep-cold --url "$url" --reps "$reps" --duration 3 --loud 0.8 \
  --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" --ready "$bin/wavedial status" \
  --settle 1 --jitter 0.3 --trigger "$bin/wavedial sim turn 66" --env WAVEDIAL_CONFIG="$work/config.toml"
echo "== the server's floor (request → first audio byte)"
"$root/bench/audio/rig.sh" ttfb 10
