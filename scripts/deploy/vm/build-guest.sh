#!/usr/bin/env bash
# Prepares the guest for run.sh: Debian's own kernel (scripts/debian-kernel.sh) and an initramfs of
# static busybox, the virtio/9p/overlay and virtio disk/ext4 modules and ./init. Debian's kernel has
# what a hardened unit needs (cgroup2 with BPF device and IP filters, seccomp, namespaces). Cached in
# .build-deploy-vm/ and rebuilt only when the kernel, init or the modules change. Output: vmlinuz,
# initramfs.cpio.gz.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${DEPLOY_VM_DIR:-$here/../../../.build-deploy-vm}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
kernel=$("$here/../../debian-kernel.sh" fetch)
version=$(ls "$kernel/lib/modules")
# virtio_blk and ext4: the data disk of the read-only-root check (the database on a partition of its own).
modules="virtio_pci 9pnet_virtio 9p overlay virtio_blk ext4"
stamp="$version $(sha256sum "$here/init" | cut -c1-16) $modules"
if [ -s "$dir/vmlinuz" ] && [ -s "$dir/initramfs.cpio.gz" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
initrd=$(mktemp -d)
trap 'rm -rf "$initrd"' EXIT
mkdir -p "$initrd/bin" "$initrd/modules"
cp /bin/busybox "$initrd/bin/busybox"   # busybox-static's
"$here/../../debian-kernel.sh" modules $modules | while read -r ko; do
  cp "$ko" "$initrd/modules/"
  basename "$ko" >> "$initrd/modules/order"
done
install -m 0755 "$here/init" "$initrd/init"
(cd "$initrd" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initramfs.cpio.gz"
cp "$kernel/boot/vmlinuz-$version" "$dir/vmlinuz"
echo "$stamp" > "$dir/stamp"
