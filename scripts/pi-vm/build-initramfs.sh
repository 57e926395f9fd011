#!/usr/bin/env bash
# Builds the arm64 guest's initramfs: trixie's static arm64 busybox, our init and the kernel modules
# build-kernel.sh chose (the guest then runs what the 9p-shared guest root holds). Rebuilt when one
# of them changes.
#
#   scripts/pi-vm/build-initramfs.sh
#
# Output: $PI_VM_DIR/initramfs.cpio.gz
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${PI_VM_DIR:-$here/../../.build-pi-vm}
mkdir -p "$dir"
[ -s "$dir/modules/order" ] && [ -s "$dir/busybox" ] ||
    { echo "build-initramfs: no modules or busybox, run build-kernel.sh first" >&2; exit 1; }
stamp=$(cat "$here/init" "$dir/busybox" "$dir"/modules/* | sha256sum | cut -c1-16)
if [ -s "$dir/initramfs.cpio.gz" ] && [ "$(cat "$dir/initramfs.stamp" 2>/dev/null)" = "$stamp" ]; then
    exit 0
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,run,tmp,mnt,lib/modules}
install -m 0755 "$dir/busybox" "$stage/bin/busybox"
cp "$dir"/modules/* "$stage/lib/modules/"
install -m 0755 "$here/init" "$stage/init"
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$dir/initramfs.cpio.gz"
echo "$stamp" >"$dir/initramfs.stamp"
