# Sourced by bench scripts that need a station at an exact level: bench/radio.sh's radio, its station a
# 440 Hz tone (128 kbit/s MP3) from a loopback rig of its own ($BENCH_DIR/TONE_RIG-rig on PORT), so that
# it runs beside bench/daemon/run.sh's rig, whose music programme it borrows when it has one.
# Needs: root, bin, TONE_RIG (the rig's name), PORT; and what bench/radio.sh takes. Sets: work, and
# what bench/radio.sh sets.
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench-daemon}
work="$BENCH_DIR/$TONE_RIG"
export BENCH_DIR="$BENCH_DIR/$TONE_RIG-rig" SRC="$BENCH_DIR/$TONE_RIG-rig/tone.mp3" RIG_FORMATS=mp3 FORMAT=mp3 PORT
rm -rf "$work" && mkdir -p "$work" "$BENCH_DIR"
[ -e "$BENCH_DIR/media" ] || [ ! -d "$(dirname "$BENCH_DIR")/media" ] || ln -s "$(dirname "$BENCH_DIR")/media" "$BENCH_DIR/media"
[ -s "$SRC" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=60" \
  -ac 2 -c:a libmp3lame -b:a 128k -fflags +bitexact -flags:a +bitexact -write_xing 0 -id3v2_version 0 -f mp3 "$SRC"
. "$root/bench/radio.sh" >/dev/null
