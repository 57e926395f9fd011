#!/usr/bin/env bash
# SD card wear: what the real daemon (wavediald --headless) makes the storage write while it rests
# idle, while it plays (a typical station: a new title every TYPICAL_TITLE_SECONDS, a song's length;
# a flooding one: a new title every second), for one tune, and for one catalog sync (a 50,000-station
# catalog derived from ../shared/data, over a full database).
#
#   bench/wear/run.sh [MINUTES]     MINUTES a phase (default 10), scaled to an hour
#
# How, three figures a phase:
#   * device: the bytes written to the block device holding the database folder, an ext4 file system
#     of its own on a loop device (/sys/block/loopN/stat), the state folder's file system synced at
#     each phase's start and end: the data, the -shm written back, ext4's metadata and its journal,
#     all that reaches a card. Needs root (losetup, mount); without it this column is n/a.
#   * write_bytes: the daemon's /proc/PID/io (the pages its writes and its shared mappings dirtied, and
#     metadata dirtied in its own fsync calls).
#   * fsyncs: its fsync/fdatasync/msync/sync_file_range calls, every thread's: perf records those
#     syscalls' tracepoints machine-wide during the phase and the daemon's are counted (nothing slows
#     the daemon, and threads it starts meanwhile are seen). n/a without perf.
# The daemon's log goes to tmpfs (on the radio it goes to the journal, which Raspberry Pi OS keeps in
# RAM unless /var/log/journal exists); its size is printed.
#
# The station is the loopback Icecast rig of bench/audio (titles set here through its admin API); the
# sound goes to alsa-lib's null PCM through bench/audio's pacer (real time, no file written).
# Environment: BIN (a folder holding wavediald and wavedial; default: scripts/build-release's),
# BENCH_DIR (/tmp/wavedial-bench-wear), PORT (18300), TYPICAL_TITLE_SECONDS (180), STATIONS (50000).
# Not run in CI; the figures go to docs/BENCHMARKS.md ("SD card wear").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
minutes=${1:-10}
seconds=$((minutes * 60))
export BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench-wear}
export PORT=${PORT:-18300}
typical=${TYPICAL_TITLE_SECONDS:-180}
stations=${STATIONS:-50000}
work="$BENCH_DIR/wear"
export PATH="/opt/swift/usr/bin:$PATH"
bin=${BIN:-$("$root/scripts/build-release" --product wavediald --product wavedial)}
"$root/bench/audio/build.sh" >/dev/null

daemon='' catalog='' titles='' log='' loopdev=''
stop_all() {
  set +e
  [ -n "$titles" ] && kill "$titles" 2>/dev/null
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  [ -n "$catalog" ] && kill "$catalog" 2>/dev/null
  "$root/bench/audio/rig.sh" stop >/dev/null
  [ -n "$log" ] && rm -f "$log"
  [ -n "$loopdev" ] && umount "$work/card" && losetup -d "$loopdev"
}
trap stop_all EXIT
mountpoint -q "$work/card" 2>/dev/null && umount "$work/card"
rm -rf "$work" && mkdir -p "$work/card"
# The state folder: an ext4 file system of its own (noatime, as Raspberry Pi OS mounts its root).
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
  truncate -s 2G "$work/card.img" && mkfs.ext4 -q -F "$work/card.img"
  loopdev=$(losetup -f --show "$work/card.img")
  mount -o noatime "$loopdev" "$work/card"
fi
if [ "$(stat -f -c %T "$work/card")" = tmpfs ]; then
  echo "wear: $work is on tmpfs, where nothing is written: set BENCH_DIR to a disk" >&2
  exit 64
fi
state="$work/card/wavedial"
mkdir -p "$state"

# The rig with titles left alone (set below, per phase), and a catalog with its stream on 94.1.
export META_EVERY=1000000
"$root/bench/audio/rig.sh" start >/dev/null
url=$("$root/bench/audio/rig.sh" url)
station=00000000-0000-4000-8000-00000000be01
python3 "$root/bench/catalog/make_catalog.py" "$stations" "$work/derived.json" "$root/../shared/data"
python3 - "$url" "$station" "$work/derived.json" "$work/stations.json" <<'PY'
import json, sys
url, uuid, derived, out = sys.argv[1:]
stations = json.load(open(derived))
stations.append({"stationuuid": uuid, "name": "Bench FM 94.1", "url": url, "url_resolved": url, "countrycode": "DE",
                 "country": "Germany", "codec": "MP3", "bitrate": 128, "hls": 0, "lastcheckok": 1,
                 "geo_lat": 52.52, "geo_long": 13.40})
json.dump(stations, open(out, "w"))
PY
python3 "$root/Tests/Fixtures/radio_browser_server.py" --stations "$work/stations.json" >"$work/port" &
catalog=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
cat >"$work/config.toml" <<TOML
[location]
latitude = 52.52
longitude = 13.405
country = "DE"
[catalog]
database = "$state/wavedial.sqlite"
servers = ["http://127.0.0.1:$(head -1 "$work/port")"]
[audio]
device = "default"
allowed_addresses = ["127.0.0.1"]
[daemon]
resume_on_start = false
[control]
socket = "$work/control.sock"
TOML
cat >"$work/asound.conf" <<ALSA
pcm.wear { type file; slave.pcm "null"; file "|exec $BENCH_DIR/bin/pacer %r %c %b /dev/null"; format "raw" }
pcm.!default { type plug; slave.pcm "wear" }
ALSA
export WAVEDIAL_CONFIG="$work/config.toml" ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$work/asound.conf"
echo "== first sync of $((stations + 1)) stations by the CLI (not measured)"
"$bin/wavedial" sync

log=/dev/shm/wavedial-wear-$$.log
"$bin/wavediald" --headless >"$log" 2>&1 &
daemon=$!
for _ in $(seq 300); do "$bin/wavedial" status >/dev/null 2>&1 && break; sleep 0.1; done
sleep 20   # start-up (migrations, the dial) is not what is measured

io() { awk -v k="$1" -F': ' '$1 == k { print $2 }' "/proc/$daemon/io"; }
device_bytes() {
  if [ -n "$loopdev" ]; then sync -f "$state"; echo $(($(awk '{ print $7 }' "/sys/block/$(basename "$loopdev")/stat") * 512)); else echo -1; fi
}
# titles_every SECONDS: a new title on the rig's mount every SECONDS, in the background.
titles_every() {
  python3 - "$PORT" "$1" <<'PY' &
import base64, sys, time, urllib.parse, urllib.request
port, every = sys.argv[1], float(sys.argv[2])
auth = "Basic " + base64.b64encode(b"admin:benchpw").decode()
n = 0
while True:
    n += 1
    query = urllib.parse.urlencode({"mount": "/live.mp3", "mode": "updinfo", "song": f"Wear Artist - Track {n:06d}"})
    try:
        urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/admin/metadata?{query}",
                                                      headers={"Authorization": auth}), timeout=2).read()
    except Exception:
        pass
    time.sleep(every)
PY
  titles=$!
}
stop_titles() { kill "$titles" 2>/dev/null; wait "$titles" 2>/dev/null || true; titles=''; }
# measure NAME SECONDS [COMMAND...]: what the phase wrote over SECONDS, or while COMMAND runs.
measure() {
  local name=$1 span=$2; shift 2
  [ $# -gt 0 ] || set -- sleep "$span"
  local device0 bytes0 log0 start end syncs="n/a"
  device0=$(device_bytes) bytes0=$(io write_bytes) log0=$(stat -c %s "$log") start=$(date +%s.%N)
  if command -v perf >/dev/null; then
    perf record -q -a -o "$work/perf-$name.data" \
      -e syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync,syscalls:sys_enter_msync,syscalls:sys_enter_sync_file_range \
      -- "$@" >"$work/command-$name" 2>&1
    syncs=$(perf script -i "$work/perf-$name.data" -F pid 2>/dev/null | awk -v pid="$daemon" '$1 == pid' | wc -l)
  else
    "$@" >"$work/command-$name" 2>&1
  fi
  end=$(date +%s.%N)
  python3 - "$name" "$start" "$end" "$device0" "$(device_bytes)" "$bytes0" "$(io write_bytes)" "$log0" "$(stat -c %s "$log")" \
    "$syncs" "$state/wavedial.sqlite" "$(awk '/VmHWM/ { print $2 }' "/proc/$daemon/status")" <<'PY' | tee -a "$work/results.txt"
import os, sys
name, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
d0, d1, b0, b1, l0, l1 = map(int, sys.argv[4:10])
syncs, db, peak = sys.argv[10], sys.argv[11], int(sys.argv[12])
span = end - start
once = name in ("tune", "sync")
scale, unit = (1, "") if once else (3600 / span, "/h")
size = lambda p: os.path.getsize(p) if os.path.exists(p) else 0
kib = lambda n: f"{n * scale / 1024:8.0f} KiB{unit}"
device = "     n/a" if d0 < 0 else kib(d1 - d0)
fs = syncs if syncs == "n/a" else f"{int(syncs) * scale:.0f}{unit}"
print(f"{name:14s} {span:5.0f} s  device {device}  write_bytes {kib(b1 - b0)}  fsyncs {fs:>6}"
      f"  (log {(l1 - l0) * scale / 1024:.1f} KiB{unit}; db {size(db) >> 20} MiB, wal {size(db + '-wal') >> 10} KiB; peak RSS {peak >> 10} MiB)")
PY
}

echo "== idle, $minutes min (nothing tuned)"
measure idle "$seconds"
echo "== tune (the station, its first title; 20 s)"
titles_every "$typical"
measure tune 20 sh -c "'$bin/wavedial' tune $station >/dev/null && sleep 20"
playing_state() { "$bin/wavedial" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])'; }
[ "$(playing_state)" = playing ] || { echo "wear: the station does not play ($(playing_state)): nothing to measure" >&2; exit 1; }
echo "== playing, a title every $typical s, $minutes min"
measure playing "$seconds"
stop_titles
echo "== playing, a title every second (rate-limited history), $minutes min"
titles_every 1
measure playing-flood "$seconds"
stop_titles
"$bin/wavedial" status --json | python3 -c 'import json,sys; s=json.load(sys.stdin); print("   state:", s["state"], "title:", s.get("title"))'
"$bin/wavedial" history --tracks --limit 3 || true
echo "== sync of $((stations + 1)) stations through the daemon, over the full database"
measure sync 0 "$bin/wavedial" sync
cat "$work/command-sync"
echo "== machine: $(nproc) cores, $(uname -m), $(findmnt -no FSTYPE -T "$state") under $state, $(date -u +%Y-%m-%d)"
