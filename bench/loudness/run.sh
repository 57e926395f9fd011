#!/usr/bin/env bash
# Equal loudness benchmark: six stations whose programmes are -30 ... -12 LUFS apart, each played by
# the real player (wavedial-player, release build) from a loopback Icecast for 15 s of audio into
# alsa-lib's file plugin piped to bench/audio's pacer (a software DAC that takes the audio in real time,
# as hardware does), the capture judged by ffmpeg's ebur128 filter (not by the player's meter):
# integrated loudness and true peak per station, with [audio] loudness_target at -23 and "off".
# Then the meter's cost: the player's CPU seconds per hour of playing, loudness off and on.
# Prints Markdown tables for docs/BENCHMARKS.md ("Loudness"). Not run in CI (a few minutes).
# Needs ffmpeg and icecast2 (scripts/packages/test-audio.txt) and scripts/packages/build.txt.
#
#   bench/loudness/run.sh [spread|cpu|all]          (default all)
# Environment (defaults): BENCH_DIR=/tmp/wavedial-loudness PORT=18300 SECONDS_EACH=15
#   TARGET=-23 CPU_SECONDS=60 (each CPU run) CPU_REPS=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-loudness}
PORT=${PORT:-18300}
SECONDS_EACH=${SECONDS_EACH:-15}
TARGET=${TARGET:--23}
CPU_SECONDS=${CPU_SECONDS:-60}
CPU_REPS=${CPU_REPS:-3}
LEVELS=(-30 -26.4 -22.8 -19.2 -15.6 -12)
what=${1:-all}
PW=benchpw
media="$BENCH_DIR/media" run="$BENCH_DIR/run"
mkdir -p "$media" "$run/log"
pids=()
cleanup() { for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

export PATH="/opt/swift/usr/bin:$PATH"
bin="$("$root/scripts/build-release" --product wavedial-player)"

# ebur128 of a file or raw capture: prints "I TP" (LUFS, dBTP).
ebur128() {
  ffmpeg -hide_banner -nostdin -nostats "$@" -af ebur128=peak=true -f null - 2>&1 |
    awk '/Summary:/ { s = 1 } s && $1 == "I:" { i = $2 } s && $1 == "Peak:" { p = $2 } END { print i, p }'
}

# Music-like programme n at a loudness: pink noise under a chord on its own root, swelling every
# 2-4 s by 3 to 10 dB (a loudness range of 0-3 LU, as processed radio has), each mastered differently
# (noise level, swell depth); made in two passes: measured, then scaled.
programme() {
  local n=$1 level=$2 out="$media/station$1-v2.mp3"
  [[ -s $out ]] && return
  local root=$((196 + 37 * n)) period=$((2 + n % 3)) noise depth
  noise=$(awk -v n="$n" 'BEGIN { print 0.1 + 0.06 * n }')
  depth=$(awk -v n="$n" 'BEGIN { print 0.15 + 0.04 * n }')
  ffmpeg -hide_banner -loglevel error -nostdin -y \
    -f lavfi -i "anoisesrc=color=pink:seed=$n:amplitude=$noise:sample_rate=44100:duration=60" \
    -f lavfi -i "sine=frequency=$root:sample_rate=44100:duration=60" \
    -f lavfi -i "sine=frequency=$((root * 5 / 4)):sample_rate=44100:duration=60" \
    -f lavfi -i "sine=frequency=$((root * 3 / 2)):sample_rate=44100:duration=60" \
    -filter_complex "[0][1][2][3]amix=inputs=4:normalize=0,volume='1-$depth+$depth*sin(2*PI*t/$period)':eval=frame,aformat=channel_layouts=stereo" \
    -c:a pcm_f32le "$run/base$n.wav"
  local measured gain
  measured=$(ebur128 -i "$run/base$n.wav" | cut -d' ' -f1)
  gain=$(awk -v l="$level" -v m="$measured" 'BEGIN { printf "%.2f", l - m }')
  ffmpeg -hide_banner -loglevel error -nostdin -y -i "$run/base$n.wav" -af "volume=${gain}dB" \
    -c:a libmp3lame -b:a 128k -f mp3 "$out"
  rm -f "$run/base$n.wav"
}
for n in "${!LEVELS[@]}"; do programme "$n" "${LEVELS[$n]}"; done

# One icecast, a mount a station, each fed in real time.
mounts=""
for n in "${!LEVELS[@]}"; do mounts+="<mount type=\"normal\"><mount-name>/s$n.mp3</mount-name></mount>"; done
cat > "$run/icecast.xml" <<XML
<icecast><location>loopback</location><admin>bench@localhost</admin>
<limits><clients>20</clients><sources>8</sources><queue-size>524288</queue-size><burst-on-connect>1</burst-on-connect><burst-size>65535</burst-size>
<source-timeout>10</source-timeout></limits>
<authentication><source-password>$PW</source-password><admin-user>admin</admin-user><admin-password>$PW</admin-password></authentication>
<hostname>127.0.0.1</hostname><listen-socket><port>$PORT</port><bind-address>127.0.0.1</bind-address></listen-socket>
$mounts
<paths><basedir>/usr/share/icecast2</basedir><logdir>$run/log</logdir><webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
<logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
<security><chroot>0</chroot></security></icecast>
XML
chmod -R a+rwX "$run"
if [[ $(id -u) == 0 ]]; then
  setpriv --reuid=icecast2 --regid=icecast --init-groups icecast2 -c "$run/icecast.xml" >/dev/null 2>&1 & pids+=($!)
else
  icecast2 -c "$run/icecast.xml" >/dev/null 2>&1 & pids+=($!)
fi
sleep 1
for n in "${!LEVELS[@]}"; do
  ffmpeg -hide_banner -loglevel error -nostdin -re -stream_loop -1 -i "$media/station$n-v2.mp3" -c:a copy -f mp3 \
    -content_type audio/mpeg "icecast://source:$PW@127.0.0.1:$PORT/s$n.mp3" & pids+=($!)
done
sleep 8   # a full burst queued at every mount, as for a listener of a running station

# The paced capture: the file plugin pipes into bench/audio's pacer, which writes the audio out in real time.
BENCH_DIR=$BENCH_DIR "$root/bench/audio/build.sh" >/dev/null
pacer="$BENCH_DIR/bin/pacer"

# Plays station n with loudness target $2 until SECONDS_EACH of audio are captured; prints "I TP I-settled"
# (the whole capture, and its part after the first 5 s).
play() {
  local n=$1 target=$2 file="$run/capture-$1-$2.raw" conf="$run/asound-$1-$2.conf"
  rm -f "$file"
  printf 'pcm.capture { type file slave.pcm "null" file "|exec %s %%r %%c %%b %s" format "raw" }\n' "$pacer" "$file" > "$conf"
  ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$conf" "$bin/wavedial-player" --seconds $((SECONDS_EACH + 10)) --device capture \
    --allowed-addresses 127.0.0.0/8 --loudness-target "$target" -- "http://127.0.0.1:$PORT/s$n.mp3" >/dev/null &
  local player=$!
  local want=$((SECONDS_EACH * 44100 * 4))
  while kill -0 "$player" 2>/dev/null && [[ $(stat -c %s "$file" 2>/dev/null || echo 0) -lt $want ]]; do sleep 0.2; done
  kill "$player" 2>/dev/null || true; wait "$player" 2>/dev/null || true
  echo "$(ebur128 -f s16le -ar 44100 -ac 2 -t "$SECONDS_EACH" -i "$file")" \
    "$(ebur128 -f s16le -ar 44100 -ac 2 -ss 5 -t $((SECONDS_EACH - 5)) -i "$file" | cut -d' ' -f1)"
}

if [[ $what == spread || $what == all ]]; then
echo "### Loudness at the output, $SECONDS_EACH s a station ($(date +%F), ffmpeg ebur128 on the captured PCM)"
echo
echo "| programme (LUFS) | off: I (LUFS) | off: true peak (dBTP) | target $TARGET: I (LUFS) | target $TARGET: true peak (dBTP) | target $TARGET: I after 5 s (LUFS) |"
echo "| --- | --- | --- | --- | --- | --- |"
on_levels=() off_levels=() settled_levels=() peaks=()
for n in "${!LEVELS[@]}"; do
  read -r off_i off_tp _ < <(play "$n" off)
  read -r on_i on_tp on_settled < <(play "$n" "$TARGET")
  off_levels+=("$off_i"); on_levels+=("$on_i"); settled_levels+=("$on_settled"); peaks+=("$on_tp")
  echo "| ${LEVELS[$n]} | $off_i | $off_tp | $on_i | $on_tp | $on_settled |"
done
spread() { printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd' ' | awk '{ printf "%.1f", $2 - $1 }'; }
echo
echo "Spread of integrated loudness: off $(spread "${off_levels[@]}") LU, target $TARGET: $(spread "${on_levels[@]}") LU (target <= 1.5),"
echo "after the first 5 s: $(spread "${settled_levels[@]}") LU;"
echo "highest true peak with the target: $(printf '%s\n' "${peaks[@]}" | sort -g | tail -1) dBTP (target <= -1)."
fi
[[ $what == cpu || $what == all ]] || exit 0

# CPU: the player's own CPU seconds (user + system) for CPU_SECONDS of real-time stream, off and on,
# alternating; per hour of playing = seconds * 3600 / CPU_SECONDS. The null device, so no capture I/O.
cpu() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{usage.ru_utime + usage.ru_stime:.3f}")
PY
}
echo
echo "### The loudness stage's CPU cost ($CPU_REPS runs of $CPU_SECONDS s each, median; $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
echo
echo "| loudness_target | CPU s per hour playing |"
echo "| --- | --- |"
declare -A runs=()
for rep in $(seq "$CPU_REPS"); do
  for target in off "$TARGET"; do
    used=$(cpu "$bin/wavedial-player" --seconds "$CPU_SECONDS" --device null --allowed-addresses 127.0.0.0/8 \
      --loudness-target "$target" -- "http://127.0.0.1:$PORT/s0.mp3")
    runs[$target]+="$used "
  done
done
for target in off "$TARGET"; do
  median=$(printf '%s\n' ${runs[$target]} | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  echo "| $target | $(awk -v s="$median" -v d="$CPU_SECONDS" 'BEGIN { printf "%.1f", s * 3600 / d }') |"
done
