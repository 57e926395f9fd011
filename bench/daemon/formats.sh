#!/usr/bin/env bash
# The daemon's memory and CPU while it plays each format of the audio rig (target: ≤ 30 MB, 28.6 MiB,
# while playing any format): wavediald --headless with a one-station catalog (bench/radio.sh) whose
# stream is the rig's FORMAT stream, tuned by `wavedial tune 94.1`, into the paced ALSA sink of
# bench/audio; peak RSS (VmHWM) and RSS at the end of the window, CPU. Prints a Markdown table.
# Not run in CI. Needs what bench/audio needs.
#   bench/daemon/formats.sh [REPS]     Environment: FORMATS ("mp3 aac opus vorbis flac hls") DURATION (30)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-2}
export BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench-daemon}
export PORT=${PORT:-18200}
export PATH="/opt/swift/usr/bin:$PATH"
FORMATS=${FORMATS:-mp3 aac opus vorbis flac hls}

results=${RESULTS:-$BENCH_DIR/formats-$(date +%Y%m%d-%H%M%S).jsonl}
bin=$("$root/scripts/build-release" --product wavediald --product wavedial)

for f in $FORMATS; do
  # one radio a format: bench/radio.sh catalogs the rig's stream of FORMAT on 94.1 (and stops it on exit)
  ( export FORMAT=$f RIG_FORMATS=$f
    work="$BENCH_DIR/daemon-$f"; rm -rf "$work" && mkdir -p "$work"
    . "$root/bench/radio.sh" >/dev/null
    sleep "${WARMUP:-6}"
    "$root/bench/audio/measure.py" --name "daemon-$f" --url "$url" --reps "$reps" --duration "${DURATION:-30}" \
      --results "$results" --cmd "$bin/wavediald --headless" --ready "$bin/wavedial status" \
      --trigger "$bin/wavedial tune 94.1" --settle 1 --env WAVEDIAL_CONFIG="$work/config.toml" >&2 )
done

python3 - "$results" $FORMATS <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault(r["name"], []).append(r)
def mm(v, fmt="{:.1f}"):
    v = [x for x in v if x is not None]
    if not v:
        return "—"
    return f"{fmt.format(statistics.median(v))} [{fmt.format(min(v))}–{fmt.format(max(v))}]"
print("| format | first audio after `wavedial tune` (s) | peak RSS, VmHWM (MiB) | RSS at the end (MiB) | CPU s per hour | target ≤ 28.6 MiB |")
print("|---|---|---|---|---|---|")
for f in sys.argv[2:]:
    rs = rows.get(f"daemon-{f}", [])
    hwm = [r["peak_rss_kb"] / 1024 for r in rs if r.get("peak_rss_kb")]
    cpu = [r["cpu_s_steady"] / (r["duration_s"] - r["ttfa_file_s"]) * 3600 + r["cpu_s"] - r["cpu_s_steady"]
           for r in rs if r.get("cpu_s_steady") is not None and r.get("ttfa_file_s") is not None]
    verdict = "—" if not hwm else ("met" if max(hwm) <= 28.6 else "**not met**") + f" (max {max(hwm):.1f})"
    print(f"| {f} | {mm([r.get('ttfa_alsa_s') for r in rs], '{:.3f}')} | {mm(hwm)} | "
          f"{mm([r['rss_end_kb'] / 1024 if r.get('rss_end_kb') else None for r in rs])} | {mm(cpu)} | {verdict} |")
PY
echo "raw results: $results"
