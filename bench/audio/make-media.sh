#!/usr/bin/env bash
# Generate the deterministic test programme used by the rig:
#   $BENCH_DIR/media/music.wav   10 min, 44.1 kHz stereo s16 (music-like: plucked
#                                chord sequence + tremolo + pink-noise bed)
#   $BENCH_DIR/media/music.mp3   same, MP3 CBR 128 kbps (lame), no ID3/Xing frame
#   $BENCH_DIR/media/music.aac   same, AAC-LC 128 kbit/s ADTS (ffmpeg's encoder; the AAC and HLS streams)
#   $BENCH_DIR/media/music.opus  same, Opus 96 kbit/s in Ogg (48 kHz, libopus)
#   $BENCH_DIR/media/music.ogg   same, Vorbis 128 kbit/s in Ogg (libvorbis)
#   $BENCH_DIR/media/music.oga   same, FLAC in Ogg (what Icecast serves FLAC stations as)
# Idempotent: makes only what is missing (FORCE=1 to rebuild all).
set -euo pipefail
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
MINUTES=${MINUTES:-10}
M="$BENCH_DIR/media"
mkdir -p "$M"
# The other formats, encoded from the WAV by ffmpeg (bit-exact flags: the same bytes every time).
encode() {   # FILE FFMPEG-OUTPUT-OPTIONS...
  local file=$1; shift
  [[ -s "$M/$file" && -z "${FORCE:-}" ]] && return 0
  ffmpeg -hide_banner -loglevel error -nostdin -y -i "$M/music.wav" -fflags +bitexact -flags:a +bitexact "$@" "$M/$file.part"
  mv "$M/$file.part" "$M/$file"
}
others() {
  encode music.aac -c:a aac -b:a 128k -f adts
  encode music.opus -c:a libopus -b:a 96k -f ogg
  encode music.ogg -c:a libvorbis -b:a 128k -f ogg
  encode music.oga -c:a flac -f ogg
}
if [[ -s "$M/music.mp3" && -s "$M/music.wav" && -z "${FORCE:-}" ]]; then others; echo "$M/music.mp3 exists"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# 16 chords x 1.25 s = 20 s phrase; roots walk a fixed progression (deterministic).
roots=(220 246.94 261.63 196 174.61 220 261.63 293.66 329.63 293.66 261.63 246.94 220 196 174.61 164.81)
i=0
for r in "${roots[@]}"; do
  third=$(awk -v r="$r" 'BEGIN{printf "%.2f", r*1.2599}')
  fifth=$(awk -v r="$r" 'BEGIN{printf "%.2f", r*1.4983}')
  oct=$(awk -v r="$r" 'BEGIN{printf "%.2f", r*2}')
  sox -R -n -r 44100 -c 2 -b 16 "$tmp/c$(printf %02d $i).wav" \
      synth 1.25 pluck "$r" pluck "$third" pluck "$fifth" pluck "$oct" \
      remix 1,2 3,4 gain -6 fade 0.005 1.25 0.05
  i=$((i+1))
done
sox -R "$tmp"/c*.wav "$tmp/phrase.wav"
reps=$(( MINUTES * 3 - 1 ))             # 20 s phrase -> 3 per minute
sox -R "$tmp/phrase.wav" "$tmp/melody.wav" repeat "$reps" tremolo 5 30
dur=$(soxi -D "$tmp/melody.wav")
sox -R -n -r 44100 -c 2 -b 16 "$tmp/bed.wav" synth "$dur" pinknoise gain -28
sox -R -m "$tmp/melody.wav" "$tmp/bed.wav" -b 16 "$M/music.wav" gain -n -1
lame --quiet -b 128 --cbr -q 2 -t "$M/music.wav" "$M/music.mp3"  # -t: no Xing/LAME tag frame
others
soxi "$M/music.wav" | egrep 'Duration|Sample Rate|Channels'
ls -l "$M/music.mp3"
