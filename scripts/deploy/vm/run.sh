#!/usr/bin/env bash
# Boots the host's own Debian system (its root shared read-only over 9p, writes going to a
# throwaway overlay) under Debian's kernel in QEMU, with systemd as PID 1, and runs
# guest-check.sh there as a oneshot service: it installs the .deb in the running system and
# checks wavediald under the real unit (ready notification, watchdog, socket, the database shared
# with the CLI, resource and address limits, a read-only root, reload, stop, purge). Prints the
# guest's console and check lines; exits 0 only if the guest reported "guest: N passed, 0 failed".
#
#   scripts/deploy/vm/run.sh PACKAGE.deb
#
# env: DEPLOY_VM_DIR (cache, default .build-deploy-vm/), DEPLOY_VM_TIMEOUT seconds (900: a guard against a hang; under a loaded CI its checks took 300)
# TCG, not KVM: like scripts/gpio-vm, because nested cloud VMs boot slower under KVM.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: run.sh PACKAGE.deb" >&2; exit 64; }
export DEPLOY_VM_DIR=${DEPLOY_VM_DIR:-$here/../../../.build-deploy-vm}
"$here/build-guest.sh" || exit 125
payload=$(mktemp -d) disk=$(mktemp -d)
trap 'rm -rf "$payload" "$disk"' EXIT
cp "$1" "$payload/wavedial.deb"
cp "$here/guest-check.sh" "$payload/"
# A catalog for the daemon to tune from (served in the guest by the tests' Radio Browser stand-in):
# two stations near the example config's Berlin, whose streams nobody serves.
cp "$here/../../../Tests/Fixtures/radio_browser_server.py" "$payload/"
cat > "$payload/stations.json" <<'JSON'
[{"stationuuid": "96f2a2b1-0000-4000-8000-00000000e001", "name": "Guest One 94.1", "url": "http://127.0.0.1:9/one",
  "countrycode": "DE", "country": "Germany", "codec": "MP3", "bitrate": 128, "hls": 0, "lastcheckok": 1,
  "geo_lat": 52.52, "geo_long": 13.40, "votes": 10},
 {"stationuuid": "96f2a2b1-0000-4000-8000-00000000e002", "name": "Guest Two 99.5", "url": "http://127.0.0.1:9/two",
  "countrycode": "DE", "country": "Germany", "codec": "MP3", "bitrate": 128, "hls": 0, "lastcheckok": 1,
  "geo_lat": 52.50, "geo_long": 13.42, "votes": 5}]
JSON
# The data partition of the read-only-root check: ext4 on a virtio disk (/dev/vda in the guest).
truncate -s 64M "$disk/data.img" && mkfs.ext4 -q -F -L wavedial-data "$disk/data.img" || exit 125
cat > "$payload/wavedial-vmtest.service" <<'UNIT'
[Unit]
Description=Wavedial deploy checks in the test guest
After=basic.target

[Service]
Type=oneshot
ExecStart=/bin/sh /mnt/guest-check.sh
StandardOutput=journal+console
StandardError=journal+console
UNIT
cat > "$payload/wavedial-vmtest.target" <<'UNIT'
[Unit]
Description=Wavedial deploy test guest
Requires=basic.target wavedial-vmtest.service
After=basic.target wavedial-vmtest.service
AllowIsolate=yes
UNIT

# init copies the payload's units into the guest's /etc/systemd/system before systemd starts.
append="console=ttyS0 loglevel=3 panic=-1 systemd.unit=wavedial-vmtest.target systemd.show_status=0"
append="$append systemd.log_target=console systemd.log_level=notice"
timeout -k 5 "${DEPLOY_VM_TIMEOUT:-900}" \
  qemu-system-x86_64 -nodefaults -no-user-config -no-reboot \
    -display none -serial stdio -monitor none \
    -accel tcg -cpu max -m 1024M -smp 2 \
    -kernel "$DEPLOY_VM_DIR/vmlinuz" -initrd "$DEPLOY_VM_DIR/initramfs.cpio.gz" -append "$append" \
    -drive "file=$disk/data.img,if=virtio,format=raw" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$payload,mount_tag=payload,security_model=none,multidevs=remap" </dev/null 2>&1 |
  tr -d '\r'
[ -s "$payload/results" ] || { echo "run.sh: the guest reported nothing" >&2; exit 125; }
cat "$payload/results"
grep -qx 'guest: [0-9]* passed, 0 failed' "$payload/results"
