#!/usr/bin/env bash
# The long soak, one command: HOURS of audio (default 8) through wavedial's player into alsa-lib's
# null PCM, paced at SPEED x real time (default 60: 8 h in 8 minutes) by the loopback fixture server
# (Tests/AudioTests/Fixtures/misbehaving_server.py, /live.mp3), which drops the connection every
# DROP_MINUTES of audio (default 10). Checks that RSS grows less than 1 MiB, that every drop is
# followed by playing again (no stuck state), and prints a summary; exit status 1 when a check fails.
#
#   bench/soak/run.sh     Environment: HOURS (8) SPEED (60) DROP_MINUTES (10); the shipped release build
# Not run in CI; the result goes to docs/BENCHMARKS.md (soak).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
HOURS=${HOURS:-8}; SPEED=${SPEED:-60}; DROP_MINUTES=${DROP_MINUTES:-10}
WAVEDIAL="$("$root/scripts/build-release" --product wavedial --product wavedial-player)/wavedial"
media="$root/.build-media/soak-tone.mp3"
mkdir -p "$root/.build-media"
[[ -s $media ]] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi \
  -i "sine=frequency=440:sample_rate=44100:duration=60" -ac 2 -c:a libmp3lame -b:a 128k \
  -fflags +bitexact -flags:a +bitexact -write_xing 0 -id3v2_version 0 -f mp3 "$media"
exec python3 "$here/soak.py" --wavedial "$WAVEDIAL" --media "$media" \
  --server "$root/Tests/AudioTests/Fixtures/misbehaving_server.py" \
  --hours "$HOURS" --speed "$SPEED" --drop-minutes "$DROP_MINUTES"
