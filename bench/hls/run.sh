#!/usr/bin/env bash
# The HLS demuxers' CPU cost against libavformat's: a 60 s AAC tone in MPEG-TS and in fragmented MP4
# (what ffmpeg's hls muxer writes), demuxed by hls-demux-bench (Wavedial's MPEGTSDemuxer and
# FMP4AudioDemuxer, release build, PASSES times over the file in memory) and by
# `ffmpeg -stream_loop N-1 -i X -c copy -f adts /dev/null` (the file N times in one process, so
# /usr/bin/time's 10 ms resolution and ffmpeg's start-up, measured alone on a 1 s file, drop out).
# Usage: bench/hls/run.sh [PASSES]
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
passes=${1:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for seconds in 1 60; do
  ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=$seconds" -ac 2 \
    -c:a aac -b:a 64k -f mpegts "$work/tone$seconds.ts"
  ffmpeg -hide_banner -loglevel error -nostdin -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=$seconds" -ac 2 \
    -c:a aac -b:a 64k -movflags +frag_keyframe+empty_moov+default_base_moof -frag_duration 1000000 -f mp4 "$work/tone$seconds.mp4"
done
swift build -c release --package-path bench --product hls-demux-bench -q
bin=$(swift build -c release --package-path bench --show-bin-path)
ffmpeg_cpu() {  # median user+system seconds of 5 runs over the file $2 times
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%U %S" ffmpeg -hide_banner -loglevel error -nostdin -stream_loop $(($2 - 1)) -i "$1" -c copy -f adts -y /dev/null \
      2>&1 | tail -1 | awk '{ print $1 + $2 }'
  done | sort -n | sed -n 3p
}
loops=100
for kind in ts fmp4; do
  ext=$([ "$kind" = ts ] && echo ts || echo mp4)
  "$bin/hls-demux-bench" "$work/tone60.$ext" "$kind" "$passes"
  long=$(ffmpeg_cpu "$work/tone60.$ext" $loops)
  short=$(ffmpeg_cpu "$work/tone1.$ext" 1)
  echo "ffmpeg -c copy -f adts, $kind: the 60 s file $loops times $long s CPU, start-up (1 s file once) $short s:" \
    "$(echo "($long - $short) * 1000 / $loops" | bc -l | cut -c1-6) ms CPU a pass"
done
