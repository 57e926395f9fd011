#!/usr/bin/env bash
# Decoding CPU (user + system) of 60 s of Ogg Opus at 96 kbit/s and Ogg Vorbis at 128 kbit/s (both held
# at that rate: VBR would spend less on this signal), stereo 48 kHz, pink noise under a tone: Wavedial's
# OggDecoder (libopus, libvorbis; fed as the audio thread feeds it: decoder-bench, which times the
# decoding alone) against ffmpeg decoding to null with its own decoders and, for Opus, with libopus (the
# whole process, one thread, and its start-up alone). Each is run RUNS times (default 5) and the median
# printed, as a Markdown table for docs/BENCHMARKS.md.
# Usage: bench/decoders/ogg.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
runs=${RUNS:-5}
mkdir -p .build-media
swift build -c release --package-path bench --product decoder-bench -q
bin=$(swift build -c release --package-path bench --show-bin-path)/decoder-bench

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ffmpeg_cpu() {
  for _ in $(seq "$runs"); do
    TIMEFORMAT='%U %S'
    { time ffmpeg -hide_banner -loglevel error -nostdin -threads 1 "$@" -f null - ; } 2>&1 | awk '{ print $1 + $2 }'
  done | median
}
printf '| stream | decoder | CPU for 60 s (median of %s) | %% of one core |\n|---|---|---|---|\n' "$runs"
for codec in opus vorbis; do
  case $codec in
    opus) encoder=(-c:a libopus -b:a 96k -vbr off); label="Opus 96k"; ffmpegs=("opus" "libopus") ;;
    vorbis) encoder=(-c:a libvorbis -b:a 128k -minrate 128k -maxrate 128k); label="Vorbis 128k"; ffmpegs=("vorbis") ;;
  esac
  file=.build-media/bench-noise-48000-2ch-60s-$codec-cbr.ogg
  [ -f "$file" ] || ffmpeg -hide_banner -loglevel error -nostdin -y \
    -f lavfi -i "anoisesrc=color=pink:sample_rate=48000:amplitude=0.25:seed=1:duration=60" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" \
    -filter_complex "[0][1]amix=inputs=2,aformat=channel_layouts=stereo" "${encoder[@]}" \
    -fflags +bitexact -flags:a +bitexact -f ogg "$file"
  echo "$codec: $("$bin" ogg "$file")" >&2
  ours=$(for _ in $(seq "$runs"); do "$bin" ogg "$file" | sed -E 's/.* in ([0-9.]+) s CPU.*/\1/'; done | median)
  awk -v s="$label" -v a="$ours" 'BEGIN { printf "| %s | OggDecoder | %.3f s | %.2f %% |\n", s, a, a / 60 * 100 }'
  for decoder in "${ffmpegs[@]}"; do
    theirs=$(ffmpeg_cpu -c:a "$decoder" -i "$file")
    awk -v s="$label" -v d="$decoder" -v b="$theirs" \
      'BEGIN { printf "| %s | ffmpeg -c:a %s (whole process) | %.3f s | %.2f %% |\n", s, d, b, b / 60 * 100 }'
  done
done
startup=$(ffmpeg_cpu -t 0.05 -i .build-media/bench-noise-48000-2ch-60s-opus-cbr.ogg)
echo "| | ffmpeg, start-up alone (-t 0.05) | $startup s | |"
