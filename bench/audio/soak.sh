#!/usr/bin/env bash
# Soak: hours of audio through wavedial's player into alsa-lib's null PCM, faster than real time,
# sampling the player's memory. The loopback fixture server (Tests/AudioTests/Fixtures) paces the
# stream at SPEED x real time; a second run uses a stream that ends every 3 s of audio, so the
# player reconnects thousands of times. Prints RSS over time and whether it stayed flat.
#
#   bench/audio/soak.sh            Environment: SECONDS_PER_RUN (180) SPEED (60) BUILD (release)
# 180 s at 60x is 3 hours of audio per run. Not run in CI.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SECONDS_PER_RUN=${SECONDS_PER_RUN:-180}; SPEED=${SPEED:-60}; BUILD=${BUILD:-release}
export PATH="/opt/swift/usr/bin:$PATH"
(cd "$root" && swift build -c "$BUILD" --product wavedial >/dev/null)
WAVEDIAL="$root/.build/$BUILD/wavedial"
media="$root/.build-media/soak-tone.mp3"
mkdir -p "$root/.build-media"
[[ -s $media ]] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi \
  -i "sine=frequency=440:sample_rate=44100:duration=60" -ac 2 -c:a libmp3lame -b:a 128k \
  -fflags +bitexact -flags:a +bitexact -write_xing 0 -id3v2_version 0 -f mp3 "$media"

work=$(mktemp -d)
exec 3> >(python3 "$root/Tests/AudioTests/Fixtures/misbehaving_server.py" "$media" 1 > "$work/port")
trap 'exec 3>&-; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do [[ -s $work/port ]] && break; sleep 0.05; done
port=$(awk '{print $2}' "$work/port")
# The server is on loopback, which a typed URL may not reach unless the configuration allows it.
printf '[audio]\nallowed_addresses = ["127.0.0.1"]\n' > "$work/config.toml"

soak() {  # name path
  local name=$1 path=$2
  "$WAVEDIAL" play-url --config "$work/config.toml" --device null --seconds "$SECONDS_PER_RUN" "http://127.0.0.1:$port$path" \
    > "$work/$name.out" &
  local pid=$! t=0 samples=()
  sleep 2
  while kill -0 "$pid" 2>/dev/null; do
    local rss; rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [[ -n $rss ]] && samples+=("$t:$rss")
    sleep 5; t=$((t + 5))
  done
  wait "$pid" || true
  python3 - "$name" "$SPEED" "$SECONDS_PER_RUN" "$work/$name.out" "${samples[@]}" <<'PY'
import sys
name, speed, seconds, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
pts = [tuple(int(x) for x in s.split(":")) for s in sys.argv[5:]]
rss = [kb / 1024 for _, kb in pts]
half = len(rss) // 2
lines = open(out).read().splitlines()
starts = sum(1 for l in lines if l == "state: playing")
audio = seconds * speed / 3600 if name == "continuous" else starts * 3 / 3600
print(f"### {name}: about {audio:.1f} h of audio in {seconds:.0f} s; {starts} starts of sound; {len(lines)} status lines")
print("| t (s) | RSS (MiB) |\n|---|---|")
for t, kb in pts[::max(1, len(pts) // 12)]:
    print(f"| {t} | {kb / 1024:.1f} |")
if half:
    growth = max(rss[half:]) - max(rss[:half])
    print(f"\nRSS max first half {max(rss[:half]):.1f} MiB, second half {max(rss[half:]):.1f} MiB: "
          f"{'flat' if growth < 1.0 else 'GROWING'} ({growth:+.2f} MiB)\n")
PY
}

soak continuous "/ok.mp3?speed=$SPEED"
soak reconnecting "/short.mp3?speed=$SPEED"
