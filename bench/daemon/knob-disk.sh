#!/usr/bin/env bash
# Detent → LCD while the knob rests and snaps between turns (knob-bench snaps: the real controller, display
# loop and HD44780 driver, a catalog on disk), once with fsync as this disk has it and once with every
# fsync/fdatasync 40 ms slower (bench/slow-disk/slow_fsync.c, preloaded), as a slow SD card's: a detent must
# never wait for the writes a rest makes (the last station, the play history).
# Not run in CI. Usage: bench/daemon/knob-disk.sh [DETENTS] [SLOW_FSYNC_MS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
detents=${1:-200}
slow=${2:-40}
export PATH="/opt/swift/usr/bin:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -o "$work/slow_fsync.so" "$root/bench/slow-disk/slow_fsync.c" -ldl
(cd "$root/bench" && swift build -c release --product knob-bench >/dev/null)
bench=$(cd "$root/bench" && swift build -c release --show-bin-path)/knob-bench
# The temporary folder must be on a disk, not tmpfs: fsync on tmpfs does nothing.
export TMPDIR=${BENCH_DISK_DIR:-$root/.build-bench-disk}
mkdir -p "$TMPDIR"
echo "== fsync as this disk has it"
"$bench" snaps "$detents"
echo "== fsync and fdatasync $slow ms slower (a slow SD card)"
SLOW_FSYNC_MS=$slow LD_PRELOAD="$work/slow_fsync.so" "$bench" snaps "$detents"
