#!/usr/bin/env bash
# What FFmpeg's libraries would cost wavedial-player itself: the release player on the audio rig's MP3
# and AAC streams (paced ALSA sink, bench/audio/measure.py), alternately as built and with Debian's
# libavformat and libavcodec loaded at its start (LD_PRELOAD: loaded and relocated as a linked library
# would be, none of their code run, so a floor of what linking them costs). Launch → request sent and
# peak RSS, median [min–max]. Needs what bench/audio needs and libavformat59/libavcodec59.
#   bench/decoder-libraries/player-preload.sh     Environment: REPS (4) DURATION (15) BENCH_DIR PORT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench} PORT=${PORT:-18100} RIG_FORMATS="mp3 aac"
export PATH="/opt/swift/usr/bin:$PATH"
reps=${REPS:-4}
results="$BENCH_DIR/player-preload-$(date +%Y%m%d-%H%M%S).jsonl"
bin=$("$root/scripts/build-release" --product wavedial-player)
ffmpeg_libs=$(for l in libavformat.so.59 libavcodec.so.59; do ldconfig -p | awk -v l="$l" '$1 == l { print $NF; exit }'; done | xargs)
[ -n "$ffmpeg_libs" ] || { echo "libavformat59/libavcodec59 not installed (bench/packages.txt)" >&2; exit 1; }

"$root/bench/audio/rig.sh" start >/dev/null
trap '"$root/bench/audio/rig.sh" stop >/dev/null' EXIT
sleep 6
for rep in $(seq "$reps"); do
  for f in mp3 aac; do
    url=$(FORMAT=$f "$root/bench/audio/rig.sh" url)
    for variant in built ffmpeg; do
      preload=""; [ $variant = ffmpeg ] && preload=" $ffmpeg_libs"
      # measure.py preloads its timing shim; the libraries go after it, in the player's own process
      FORMAT=$f "$root/bench/audio/measure.py" --name "$f-$variant" --url "$url" --reps 1 --duration "${DURATION:-15}" \
        --results "$results" --cmd "sh -c 'LD_PRELOAD=\"\$LD_PRELOAD$preload\" exec $bin/wavedial-player --device bench -- {url}'" >/dev/null
    done
  done
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault(r["name"], []).append(r)
def mm(v, fmt):
    v = [x for x in v if x is not None]
    return f"{fmt.format(statistics.median(v))} [{fmt.format(min(v))}–{fmt.format(max(v))}]" if v else "—"
print("| stream | wavedial-player | launch → request sent (ms) | peak RSS (MiB) | first `snd_pcm_write*` after the launch (s) |")
print("|---|---|---|---|---|")
for f in ("mp3", "aac"):
    for variant, label in (("built", "as built (focused libraries)"), ("ffmpeg", "+ libavformat and libavcodec loaded")):
        rs = rows.get(f"{f}-{variant}", [])
        print(f"| {f.upper()} | {label} | {mm([r.get('connect_s') and r['connect_s'] * 1000 for r in rs], '{:.1f}')} | "
              f"{mm([r['peak_rss_kb'] / 1024 if r.get('peak_rss_kb') else None for r in rs], '{:.1f}')} | "
              f"{mm([r.get('ttfa_alsa_s') for r in rs], '{:.3f}')} |")
print(f"\n{len(rows.get('mp3-built', []))} runs each, alternating; raw results: {sys.argv[1]}")
PY
