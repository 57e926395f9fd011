#!/usr/bin/env bash
# Lets this x86_64 machine run arm64 binaries directly (qemu-user through binfmt_misc): mounts
# binfmt_misc if it is not, and registers qemu-aarch64-static from qemu-user-static's binfmt.d entry
# if nothing handles aarch64 yet. The F flag (fix binary) opens the interpreter at registration,
# so arm64 binaries also run inside a chroot that has no qemu. Idempotent. Needs root.
#
#   scripts/pi/qemu-binfmt.sh
set -euo pipefail
binfmt=/proc/sys/fs/binfmt_misc
conf=/usr/lib/binfmt.d/qemu-aarch64.conf
[ "$(id -u)" -eq 0 ] || { echo "qemu-binfmt: needs root" >&2; exit 1; }
[ -f "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt"
if [ ! -e "$binfmt/qemu-aarch64" ]; then
    [ -f "$conf" ] || { echo "qemu-binfmt: no $conf (apt install qemu-user-static)" >&2; exit 1; }
    # the entry names qemu-binfmt's aarch64-binfmt-P link; registering a name twice is an error
    # (another run may have raced us), so success is the entry being there afterwards
    grep -v '^#' "$conf" > "$binfmt/register" 2>/dev/null || true
    [ -e "$binfmt/qemu-aarch64" ] || { echo "qemu-binfmt: registering $conf failed" >&2; exit 1; }
fi
grep -q '^enabled' "$binfmt/qemu-aarch64" || echo 1 > "$binfmt/qemu-aarch64"
