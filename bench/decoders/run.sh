#!/usr/bin/env bash
# Decoding CPU (user + system) of 60 s AAC-LC 128 kbit/s stereo ADTS files: Wavedial's AACDecoder
# (libfaad2, fed as the audio thread feeds it: decoder-bench) against ffmpeg's own AAC decoder
# (`ffmpeg -c:a aac -i x.aac -f null -`, the whole process, and its start-up alone: the same with -t 0.05,
# three frames). Two signals: a sine tone (sparse spectra,
# the cheap case) and pink noise (every band busy, the dear one). Each is run RUNS times (default 5) and
# the median printed, as a Markdown table for docs/BENCHMARKS.md. Usage: bench/decoders/run.sh
# `bench/decoders/run.sh load` instead: what loading each decoder-library option costs a process (the
# focused libraries against FFmpeg's; bench/decoder-libraries, C built with gcc: SwiftPM builds this folder).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "${1:-}" = load ] && exec bench/decoder-libraries/run.sh
export PATH="/opt/swift/usr/bin:$PATH"
runs=${RUNS:-5}
mkdir -p .build-media
swift build -c release --package-path bench --product decoder-bench -q
bin=$(swift build -c release --package-path bench --show-bin-path)/decoder-bench

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '| signal | decoder | CPU for 60 s (median of %s) | %% of one core |\n|---|---|---|---|\n' "$runs"
for signal in tone noise; do
  case $signal in
    tone) source="sine=frequency=440:sample_rate=44100:duration=60" ;;
    noise) source="anoisesrc=color=pink:sample_rate=44100:amplitude=0.5:seed=1:duration=60" ;;
  esac
  file=.build-media/bench-$signal-44100-2ch-60s-128k.aac
  [ -f "$file" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "$source" \
    -ac 2 -c:a aac -b:a 128k -fflags +bitexact -flags:a +bitexact -f adts "$file"
  echo "$signal: $("$bin" adts "$file")" >&2
  ours=$(for _ in $(seq "$runs"); do "$bin" adts "$file" | sed -E 's/.* in ([0-9.]+) s CPU.*/\1/'; done | median)
  theirs=$(for _ in $(seq "$runs"); do
    TIMEFORMAT='%U %S'
    { time ffmpeg -hide_banner -loglevel error -nostdin -threads 1 -c:a aac -i "$file" -f null - ; } 2>&1 | awk '{ print $1 + $2 }'
  done | median)
  startup=$(for _ in $(seq "$runs"); do
    TIMEFORMAT='%U %S'
    { time ffmpeg -hide_banner -loglevel error -nostdin -threads 1 -t 0.05 -c:a aac -i "$file" -f null - ; } 2>&1 | awk '{ print $1 + $2 }'
  done | median)
  awk -v s="$signal" -v a="$ours" -v b="$theirs" -v c="$startup" 'BEGIN {
    printf "| %s | AACDecoder (libfaad2) | %.3f s | %.2f %% |\n", s, a, a / 60 * 100
    printf "| %s | ffmpeg -c:a aac (whole process) | %.3f s | %.2f %% |\n", s, b, b / 60 * 100
    printf "| %s | ffmpeg, start-up alone (-t 0.05) | %.3f s | |\n", s, c }'
done
