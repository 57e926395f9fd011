#!/usr/bin/env bash
# Audio benchmark: wavedial's player against mpg123 (and mpv when installed) on the same Icecast
# stream, into the same paced alsa-lib sink (a software DAC that consumes in real time), plus an
# Icecast restart (outage) for each. Prints Markdown tables; figures go to docs/BENCHMARKS.md.
# Not run in CI (minutes long; needs: icecast2 ffmpeg lame sox libsox-fmt-mp3 mpg123 gcc libasound2-dev
# python3 curl, and optionally mpv).
#
#   bench/audio/run.sh [play|outage|all]          (default all)
# Environment: BENCH_DIR (/tmp/wavedial-bench) PORT (18100) REPS (3) DURATION (60)
#   OUT_AT (15) OUT_DOWN (5) OUT_DURATION (45) SHORT_DOWN (2: an outage inside the burst lead)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
export PORT=${PORT:-18100}
REPS=${REPS:-3}; DURATION=${DURATION:-60}
OUT_AT=${OUT_AT:-15}; OUT_DOWN=${OUT_DOWN:-5}; OUT_DURATION=${OUT_DURATION:-45}; SHORT_DOWN=${SHORT_DOWN:-2}
what=${1:-all}
RES="$BENCH_DIR/results-$(date +%Y%m%d-%H%M%S).jsonl"

export PATH="/opt/swift/usr/bin:$PATH"
(cd "$root" && swift build -c release --product wavedial >/dev/null)
WAVEDIAL="$root/.build/release/wavedial"

"$here/rig.sh" start
sleep "${WARMUP:-8}"   # let icecast queue a full burst, as for a listener of a running station
trap '"$here/rig.sh" stop >/dev/null' EXIT
url=$("$here/rig.sh" url)
M() { "$here/measure.py" --url "$url" --reps "$REPS" --results "$RES" "$@"; }

WD="$WAVEDIAL play-url --device bench {url}"
MPG123='mpg123 -o alsa -a bench {url}'
MPV='mpv --no-config --quiet --no-video --ao=alsa --audio-device=alsa/bench {url}'
have_mpv=false; command -v mpv >/dev/null && have_mpv=true

if [[ $what == play || $what == all ]]; then
  M --name wavedial --duration "$DURATION" --cmd "$WD"
  M --name mpg123 --duration "$DURATION" --cmd "$MPG123"
  $have_mpv && M --name mpv --duration "$DURATION" --cmd "$MPV"
fi
if [[ $what == outage || $what == all ]]; then
  O=(--duration "$OUT_DURATION" --outage "$OUT_AT:$OUT_DOWN")
  M --name outage-wavedial "${O[@]}" --cmd "$WD"
  M --name outage-mpg123-retryloop "${O[@]}" --cmd '{here}/players/mpg123-retry.sh {url}'
  S=(--duration "$OUT_DURATION" --outage "$OUT_AT:$SHORT_DOWN")
  M --name short-outage-wavedial "${S[@]}" --cmd "$WD"
  M --name short-outage-mpg123-retryloop "${S[@]}" --cmd '{here}/players/mpg123-retry.sh {url}'
fi

echo
echo "## icecast's own floor (request → first audio byte)"
"$here/rig.sh" ttfb 5
echo
"$here/summarize.py" "$RES"
echo
echo "raw results: $RES"
