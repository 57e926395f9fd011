#!/usr/bin/env bash
# What each decoder-library option costs a process that loads it (docs/BENCHMARKS.md, "Decoder
# libraries"): loadcost.c built with gcc once per option, each build run RUNS times (default 11,
# interleaved) on 10 s of the audio bench's programme as AAC-LC (ADTS, 128 kbit/s) and Opus (Ogg,
# 96 kbit/s), launched by a Python harness that times from just before the spawn. Prints a Markdown
# table: median [min–max] of peak RSS (VmHWM), launch → main (the loader), launch → first PCM, and CPU
# (user + system, the loading included). Needs gcc, pkg-config, the -dev packages of
# scripts/packages/build.txt and libavcodec-dev, libavformat-dev (bench/packages.txt).
#   bench/decoder-libraries/run.sh (or bench/decoders/run.sh load)   Environment: BENCH_DIR (/tmp/wavedial-bench) RUNS (11)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
out="$BENCH_DIR/loadcost"
mkdir -p "$out"

build() {   # NAME FLAGS... -- LIBRARIES...
  local name=$1; shift
  local flags=() libs=()
  while [ "$1" != -- ]; do flags+=("$1"); shift; done; shift
  libs=("$@")
  # --no-as-needed: every library named is loaded, used or not (as a Package.swift link would)
  gcc -O2 -Wall -o "$out/$name" "${flags[@]}" "$here/loadcost.c" \
    -Wl,--no-as-needed ${libs[@]+$(pkg-config --libs "${libs[@]}")} -lm
}
build c-only -DWITH_NONE --
build faad -DWITH_FAAD -- faad2
build ogg-opus -DWITH_OPUS -- ogg opus
build focused-all -DWITH_FAAD -DWITH_OPUS -- faad2 ogg opus vorbis flac
build avcodec -DWITH_AVCODEC -- libavcodec libavutil ogg
build avformat -DWITH_AVFORMAT -- libavformat libavcodec libavutil

"$here/../audio/make-media.sh" >/dev/null
music="$BENCH_DIR/media/music.wav"
aac="$out/music-10s-128k.aac" opus="$out/music-10s-96k.opus"
[ -s "$aac" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -t 10 -i "$music" -c:a aac -b:a 128k -f adts "$aac"
[ -s "$opus" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -t 10 -i "$music" -c:a libopus -b:a 96k -f ogg "$opus"

python3 - "$out" "$aac" "$opus" "${RUNS:-11}" <<'PY'
import os, statistics, subprocess, sys, time
out, aac, opus, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
libs = lambda b: sum(1 for l in subprocess.run(["ldd", os.path.join(out, b)], capture_output=True, text=True).stdout.splitlines() if "=>" in l)
cases = [  # (label, binary, format)
    ("C program, no decoder (the floor)", "c-only", "aac"),
    ("libfaad2 alone", "faad", "aac"),
    ("focused: libfaad2 + libogg + libopus + libvorbis + libFLAC", "focused-all", "aac"),
    ("libavcodec (+ its ADTS parser)", "avcodec", "aac"),
    ("libavformat + libavcodec", "avformat", "aac"),
    ("C program, no decoder (the floor)", "c-only", "opus"),
    ("libogg + libopus alone", "ogg-opus", "opus"),
    ("focused: libfaad2 + libogg + libopus + libvorbis + libFLAC", "focused-all", "opus"),
    ("libavcodec + libogg", "avcodec", "opus"),
    ("libavformat + libavcodec", "avformat", "opus"),
]
results = {i: [] for i in range(len(cases))}
for r in range(runs + 1):          # the first round warms the page cache and is not counted
    for i, (_, binary, fmt) in enumerate(cases):
        env = dict(os.environ)
        t0 = time.monotonic_ns()
        env["LOADCOST_T0_NS"] = str(t0)
        p = subprocess.run([os.path.join(out, binary), fmt, aac if fmt == "aac" else opus], env=env,
                           capture_output=True, text=True, check=True)
        kv = dict(x.split("=") for x in p.stdout.split())
        if r:
            results[i].append({k: float(v) for k, v in kv.items()})
def cell(rows, key, scale=1.0, digits=1):
    v = [x[key] * scale for x in rows]
    return f"{statistics.median(v):.{digits}f} [{min(v):.{digits}f}–{max(v):.{digits}f}]"
print(f"| format | libraries loaded (shared objects) | peak RSS (MiB) | launch → main (ms) | launch → first PCM (ms) | CPU: loading, whole run with 10 s decoded (ms) | audio decoded (s), RMS |")
print("|---|---|---|---|---|---|---|")
for i, (label, binary, fmt) in enumerate(cases):
    rows = results[i]
    audio = f"{rows[0]['audio_s']:.2f}, {rows[0]['rms']:.3f}" if rows[0]["audio_s"] else "—"
    first = cell(rows, "first_pcm_ms") if rows[0]["first_pcm_ms"] >= 0 else "—"
    print(f"| {'AAC' if fmt == 'aac' else 'Opus'} | {label} ({libs(binary)}) | {cell(rows, 'hwm_kb', 1/1024)} | "
          f"{cell(rows, 'main_ms')} | {first} | {cell(rows, 'cpu_load_s', 1000, 0)}, {cell(rows, 'cpu_s', 1000, 0)} | {audio} |")
print(f"\nmedian [min–max] of {runs} runs each, interleaved; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
      f"load average {open('/proc/loadavg').read().split()[0]}")
PY
