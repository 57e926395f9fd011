#!/usr/bin/env bash
# The peer benchmark in one command: every benchmark suite of the project, then one table.
#   * audio (bench/audio/run.sh): wavedial's player against mpg123, mpv and mpd on the same
#     loopback Icecast stream into the same paced ALSA sink; first audio, CPU, RSS, title lag,
#     and recovery after an Icecast restart; then every format of the rig (MP3, AAC, Opus, Vorbis,
#     FLAC, HLS) against mpv and mpd, with an outage on some (formats-summary.py prints those tables);
#   * daemon (bench/daemon/run.sh): start → ready, knob rest → first audio, RSS and CPU while
#     playing, detent → LCD;
#   * catalog (bench/catalog/run.sh): a 50,000-station sync, nearby and search latency.
# Installs what it needs (Debian packages), builds the release the radio ships
# (scripts/build-release), and writes each suite's log and the table under BENCH_DIR.
# Takes about 40 minutes with the defaults; not run in CI.
#   bench/run.sh    Environment: BENCH_DIR (/tmp/wavedial-bench) REPS (3) DURATION (60) STATIONS (50000)
#   A quick look: REPS=1 DURATION=15 OUT_DURATION=30 STATIONS=5000 bench/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PATH="/opt/swift/usr/bin:$PATH"
export BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
export REPS=${REPS:-3} DURATION=${DURATION:-60}
out="$BENCH_DIR/run-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out"
scripts/install-deps build test-audio test-catalog bench/packages.txt
scripts/build-release --product wavediald --product wavedial --product wavedial-player >/dev/null

machine="$(nproc) cores $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r)"
echo "== audio" && RESULTS="$out/audio.jsonl" bench/audio/run.sh all | tee "$out/audio.log"
echo "== daemon" && RESULTS="$out/daemon.jsonl" bench/daemon/run.sh "$REPS" | tee "$out/daemon.log"
echo "== catalog" && bench/catalog/run.sh "${STATIONS:-50000}" | tee "$out/catalog.log"
echo
python3 bench/summary.py --dir "$out" --machine "$machine" --load "$(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/table.md"
