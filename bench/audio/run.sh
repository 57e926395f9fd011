#!/usr/bin/env bash
# Audio benchmark: wavedial's player against mpg123, mpv and mpd on the same Icecast stream,
# into the same paced alsa-lib sink (a software DAC that consumes in real time), plus an Icecast
# restart (outage) for each. Prints Markdown tables; figures go to docs/BENCHMARKS.md.
# "formats": every format of the rig (rig.sh: MP3, AAC, Opus, Vorbis, FLAC on Icecast, HLS from its
# own HTTP server) played by `wavedial play-url`, `wavedial-player`, mpv and mpd, and a server
# outage on the formats of OUTAGE_FORMATS (formats-summary.py prints the tables).
# Not run in CI (minutes long). Needs scripts/packages/build.txt, test-audio.txt and
# bench/packages.txt (bench/run.sh installs them); a peer that is not installed is left out.
#
#   bench/audio/run.sh [play|outage|formats|all]          (default all)
# Environment: BENCH_DIR (/tmp/wavedial-bench) PORT (18100) REPS (3) DURATION (60)
#   OUT_AT (15) OUT_DOWN (5) OUT_DURATION (45) SHORT_DOWN (2: an outage inside the burst lead)
#   FORMATS ("mp3 aac opus vorbis flac hls") OUTAGE_FORMATS ("aac opus hls"; empty: no outage runs)
#   PLAYERS ("wavedial wavedial-player mpv mpd": the players of "formats", e.g. "wavedial mpd" for a long
#   CPU window against the best peer)
#   RESULTS (a JSON-lines file the measurements are appended to; default: a new one in BENCH_DIR)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
export PORT=${PORT:-18100}
REPS=${REPS:-3}; DURATION=${DURATION:-60}
OUT_AT=${OUT_AT:-15}; OUT_DOWN=${OUT_DOWN:-5}; OUT_DURATION=${OUT_DURATION:-45}; SHORT_DOWN=${SHORT_DOWN:-2}
what=${1:-all}
FORMATS=${FORMATS:-mp3 aac opus vorbis flac hls}; OUTAGE_FORMATS=${OUTAGE_FORMATS-aac opus hls}
PLAYERS=${PLAYERS:-wavedial wavedial-player mpv mpd}
plays() { [[ " $PLAYERS " == *" $1 "* ]]; }
export RIG_FORMATS=mp3
[[ $what == formats || $what == all ]] && RIG_FORMATS=$(echo mp3 $FORMATS $OUTAGE_FORMATS | tr ' ' '\n' | awk '!seen[$0]++' | xargs)
RES=${RESULTS:-"$BENCH_DIR/results-$(date +%Y%m%d-%H%M%S).jsonl"}

export PATH="/opt/swift/usr/bin:$PATH"
bin="$("$root/scripts/build-release" --product wavedial --product wavedial-player)"

"$here/rig.sh" start >/dev/null
sleep "${WARMUP:-8}"   # let icecast queue a full burst, as for a listener of a running station
trap '"$here/rig.sh" stop >/dev/null' EXIT
url=$("$here/rig.sh" url)
M() { "$here/measure.py" --url "$url" --reps "$REPS" --results "$RES" "$@"; }

# The rig serves from loopback, which a typed URL may not reach unless the configuration allows it.
mkdir -p "$BENCH_DIR"
config="$BENCH_DIR/wavedial-loopback.toml"
printf '[audio]\nallowed_addresses = ["127.0.0.0/8"]\n' > "$config"
WD="$bin/wavedial play-url --config $config --device bench {url}"
# What play-url becomes, started directly: the difference is the CLI's own start.
WD_PLAYER="$bin/wavedial-player --device bench --allowed-addresses 127.0.0.0/8 -- {url}"
MPG123='mpg123 -o alsa -a bench {url}'
MPV='mpv --no-config --quiet --no-video --ao=alsa --audio-device=alsa/bench {url}'
# mpv's own reconnect, off by default: libavformat's reconnect options.
MPV_RECONNECT='mpv --no-config --quiet --no-video --ao=alsa --audio-device=alsa/bench --stream-lavf-o=reconnect=1,reconnect_at_eof=1,reconnect_streamed=1,reconnect_on_network_error=1,reconnect_delay_max=4 {url}'
# HLS: libavformat reopens a segment at its end with reconnect_at_eof (every segment ends), and loads
# none; the network-error reconnect alone brings it back after an outage of the origin.
MPV_HLS_RECONNECT='mpv --no-config --quiet --no-video --ao=alsa --audio-device=alsa/bench --stream-lavf-o=reconnect=1,reconnect_on_network_error=1,reconnect_delay_max=4 {url}'
# mpd is a server: t0 is the client's play request; titles come from its idle events.
MPD=(--cmd '{here}/players/mpd.sh daemon' --ready '{here}/players/mpd.sh ready'
     --trigger '{here}/players/mpd.sh play {url}' --watch '{here}/players/mpd.sh watch')
have() { command -v "$1" >/dev/null || { echo "($1 is not installed: left out)" >&2; return 1; }; }

if [[ $what == play || $what == all ]]; then
  M --name wavedial --duration "$DURATION" --cmd "$WD"
  M --name wavedial-player --duration "$DURATION" --cmd "$WD_PLAYER"
  M --name mpg123 --duration "$DURATION" --cmd "$MPG123"
  if have mpv; then M --name mpv --duration "$DURATION" --cmd "$MPV"; fi
  if have mpd && have mpc; then M --name mpd --duration "$DURATION" "${MPD[@]}"; fi
fi
if [[ $what == outage || $what == all ]]; then
  # None of the peers reconnects by default (shared/reference/audio-bench/FIGURES.md), so each
  # gets the best reconnect it can be given: mpg123 a restart loop, mpv libavformat's reconnect,
  # mpd a client that sends "play" whenever it has stopped.
  O=(--duration "$OUT_DURATION" --outage "$OUT_AT:$OUT_DOWN")
  M --name outage-wavedial "${O[@]}" --cmd "$WD"
  M --name outage-mpg123-retryloop "${O[@]}" --cmd '{here}/players/mpg123-retry.sh {url}'
  if have mpv; then M --name outage-mpv-lavf-reconnect "${O[@]}" --cmd "$MPV_RECONNECT"; fi
  if have mpd && have mpc; then M --name outage-mpd-watchdog "${O[@]}" --env MPD_WATCHDOG=1 "${MPD[@]}"; fi
  S=(--duration "$OUT_DURATION" --outage "$OUT_AT:$SHORT_DOWN")
  M --name short-outage-wavedial "${S[@]}" --cmd "$WD"
  M --name short-outage-mpg123-retryloop "${S[@]}" --cmd '{here}/players/mpg123-retry.sh {url}'
fi

if [[ $what == formats || $what == all ]]; then
  for f in $FORMATS; do
    export FORMAT=$f
    furl=$("$here/rig.sh" url)
    MF() { "$here/measure.py" --url "$furl" --reps "$REPS" --results "$RES" "$@"; }
    # the server's own floor for this stream, kept with the results for formats-summary.py
    "$here/rig.sh" ttfb 5 | tee -a /dev/stderr | python3 -c '
import json, re, sys
m = re.search(r"first audio byte\s*: median ([0-9.]+) s \[([0-9.]+)-([0-9.]+)\]", sys.stdin.read())
print(json.dumps({"name": "floor-" + sys.argv[1], "floor_s": float(m.group(1)), "floor_min_s": float(m.group(2)), "floor_max_s": float(m.group(3))}))
' "$f" >>"$RES"
    if plays wavedial; then MF --name "$f-wavedial" --duration "$DURATION" --cmd "$WD"; fi
    if plays wavedial-player; then MF --name "$f-wavedial-player" --duration "$DURATION" --cmd "$WD_PLAYER"; fi
    if plays mpv && have mpv; then MF --name "$f-mpv" --duration "$DURATION" --cmd "$MPV"; fi
    if plays mpd && have mpd && have mpc; then MF --name "$f-mpd" --duration "$DURATION" "${MPD[@]}"; fi
  done
  for f in $OUTAGE_FORMATS; do
    export FORMAT=$f
    furl=$("$here/rig.sh" url)
    O=(--duration "$OUT_DURATION" --outage "$OUT_AT:$OUT_DOWN")
    MF --name "$f-outage-wavedial" "${O[@]}" --cmd "$WD"
    mpv_reconnect=$MPV_RECONNECT; [[ $f == hls ]] && mpv_reconnect=$MPV_HLS_RECONNECT
    if have mpv; then MF --name "$f-outage-mpv-lavf-reconnect" "${O[@]}" --cmd "$mpv_reconnect"; fi
    if have mpd && have mpc; then MF --name "$f-outage-mpd-watchdog" "${O[@]}" --env MPD_WATCHDOG=1 "${MPD[@]}"; fi
  done
  unset FORMAT
fi

echo
echo "## icecast's own floor (request → first audio byte)"
"$here/rig.sh" ttfb 5
echo
"$here/summarize.py" "$RES"
if [[ $what == formats || $what == all ]]; then
  echo
  "$here/formats-summary.py" "$RES"
fi
echo
echo "raw results: $RES"
