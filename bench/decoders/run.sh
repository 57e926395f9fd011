#!/usr/bin/env bash
# Decode CPU (user + sys) of 60 s of Opus at 96 kbit/s and Vorbis at 128 kbit/s (stereo, 48 kHz, pink
# noise under a tone, so the encoders spend their bits): wavedial's decoders (decoder-bench, release
# build) against ffmpeg decoding to null with its own decoders and, for Opus, with libopus. Each is run
# RUNS times (default 5); the median is printed in seconds. Usage: bench/decoders/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
runs=${RUNS:-5}
media=.build-media/bench-decoders
mkdir -p "$media"
source_args=(-f lavfi -i "anoisesrc=color=pink:amplitude=0.25:duration=60:sample_rate=48000:seed=1"
             -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60"
             -filter_complex "[0][1]amix=inputs=2,aformat=channel_layouts=stereo")
[ -f "$media/opus-96k.ogg" ] || ffmpeg -hide_banner -loglevel error -nostdin -y "${source_args[@]}" \
    -c:a libopus -b:a 96k "$media/opus-96k.ogg"
[ -f "$media/vorbis-128k.ogg" ] || ffmpeg -hide_banner -loglevel error -nostdin -y "${source_args[@]}" \
    -c:a libvorbis -b:a 128k "$media/vorbis-128k.ogg"
swift build -c release --product decoder-bench -q
bench=$(swift build -c release --show-bin-path)/decoder-bench

# The median of RUNS runs' user + sys CPU seconds of a command.
cpu() {
    local samples=()
    for _ in $(seq "$runs"); do
        samples+=("$( { TIMEFORMAT='%U %S'; time "$@" > /dev/null 2>&1; } 2>&1 | awk '{ printf "%.3f", $1 + $2 }')")
    done
    printf '%s\n' "${samples[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

printf '| stream (60 s) | wavedial | ffmpeg (own decoder) | ffmpeg (libopus) |\n| --- | --- | --- | --- |\n'
printf '| Opus 96 kbit/s | %s s | %s s | %s s |\n' \
    "$(cpu "$bench" ogg "$media/opus-96k.ogg")" \
    "$(cpu ffmpeg -nostdin -i "$media/opus-96k.ogg" -f null -)" \
    "$(cpu ffmpeg -nostdin -c:a libopus -i "$media/opus-96k.ogg" -f null -)"
printf '| Vorbis 128 kbit/s | %s s | %s s | — |\n' \
    "$(cpu "$bench" ogg "$media/vorbis-128k.ogg")" \
    "$(cpu ffmpeg -nostdin -i "$media/vorbis-128k.ogg" -f null -)"
"$bench" ogg "$media/opus-96k.ogg"
"$bench" ogg "$media/vorbis-128k.ogg"
