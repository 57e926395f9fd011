#!/usr/bin/env bash
# Builds the guest's initramfs: static busybox, our init and the kernel modules build-kernel.sh chose
# (the guest then runs host binaries from the 9p-shared host root). Rebuilt when one of them changes.
# Output: $GPIO_VM_DIR/initramfs.cpio.gz
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${GPIO_VM_DIR:-$here/../../.build-gpio-vm}
mkdir -p "$dir"
[ -s "$dir/modules/order" ] || { echo "build-initramfs: no modules, run build-kernel.sh first" >&2; exit 1; }
stamp=$(cat "$here/init" /bin/busybox "$dir"/modules/* | sha256sum | cut -c1-16)
if [ -s "$dir/initramfs.cpio.gz" ] && [ "$(cat "$dir/initramfs.stamp" 2>/dev/null)" = "$stamp" ]; then
    exit 0
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,run,tmp,mnt,lib/modules}
cp /bin/busybox "$stage/bin/busybox"
cp "$dir"/modules/* "$stage/lib/modules/"
install -m 0755 "$here/init" "$stage/init"
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$dir/initramfs.cpio.gz"
echo "$stamp" >"$dir/initramfs.stamp"
