#!/usr/bin/env bash
# Knob rest → first audio of a warm neighbour (with the sweep, and without: [dial] sweep = false) against
# the same neighbour cold ([dial] warm_neighbours = 0), and CPU/RSS while it plays beside its two warm
# neighbours: the three stations of bench/warm-band.sh, pcmshim's trace of every write, figures by
# warm_figures.py. Each run: 94.1 plays 20 s, 96.1 warm beside it; then the knob turns to 96.1, which plays
# beside 94.1 and 98.1, both warm (turn-to-neighbour.sh).
# Not run in CI. Needs what bench/audio needs. Usage: bench/daemon/warm.sh [REPS]
# (bin: the release binaries, built when unset; RESULTS: a JSON-lines file to append to)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-3}
parent=${BENCH_DIR:-/tmp/wavedial-bench-daemon}
export BENCH_DIR=$parent/warm-rig PORT=${WARM_PORT:-18290}
work="$BENCH_DIR/warm"
rm -rf "$work" && mkdir -p "$work"
# The programme made for bench/daemon/run.sh's rig, when there is one, is not made again.
[ -e "$BENCH_DIR/media" ] || [ ! -d "$parent/media" ] || ln -s "$parent/media" "$BENCH_DIR/media"
export PATH="/opt/swift/usr/bin:$PATH"
bin=${bin:-$("$root/scripts/build-release" --product wavediald --product wavedial)}
. "$root/bench/radio.sh" >/dev/null
. "$root/bench/warm-band.sh"
# The warm neighbour without the sweep: silent while tuned ahead, so the knob rest → its first audio is the
# player's own switch, not the sweep's fade-in.
{ cat "$work/warm.toml"; printf '[dial]\nsweep = false\n'; } >"$work/nosweep.toml"
echo "== warm neighbour against cold: knob rest → first audio, CPU and RSS ($reps runs of 80 s each)"
for mode in warm nosweep off; do
  rm -rf "$BENCH_DIR/runs/daemon-warm-$mode"   # the figures are this run's only
  "$root/bench/audio/measure.py" --name "daemon-warm-$mode" --url "$url" --reps "$reps" --duration 80 \
    --results "${RESULTS:-$work/results.jsonl}" --cmd "$bin/wavediald --headless" \
    --ready "$bin/wavedial status" --trigger "$here/turn-to-neighbour.sh $bin" --settle 1 \
    --env WAVEDIAL_CONFIG="$work/$mode.toml" --env PCMSHIM_TRACE=1 >/dev/null
done
"$here/warm_figures.py" "$BENCH_DIR" 00000000-0000-4000-8000-00000000be02 1000 daemon-warm-warm daemon-warm-nosweep daemon-warm-off
echo "(warm: 94.1 plays 20 s, 96.1 warm beside it; then the knob turns to 96.1, which plays beside 94.1 and"
echo " 98.1, both warm; nosweep: the same with [dial] sweep = false; off: with warm_neighbours = 0)"
