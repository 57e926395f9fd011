#!/usr/bin/env bash
# Prepares the guest for run.sh: Debian's own kernel (linux-image-amd64, fetched with
# `apt-get download` and unpacked, never installed) and an initramfs of static busybox, the
# virtio/9p/overlay modules and ./init. Debian's kernel has what a hardened unit needs
# (cgroup2 with BPF device filters, seccomp, namespaces). Cached in .build-deploy-vm/ and
# rebuilt only when the kernel package or init changes. Output: vmlinuz, initramfs.cpio.gz.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${DEPLOY_VM_DIR:-$here/../../../.build-deploy-vm}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
kernel_package() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'; }
package=$(kernel_package)
[ -n "$package" ] || { apt-get update -qq && package=$(kernel_package); }
[ -n "$package" ] || { echo "build-guest: apt knows no linux-image-amd64 (apt-get update?)" >&2; exit 1; }
stamp="$package $(sha256sum "$here/init" | cut -c1-16)"
if [ -s "$dir/vmlinuz" ] && [ -s "$dir/initramfs.cpio.gz" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && apt-get download -q "$package" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
deb=$(ls "$scratch"/*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "build-guest: could not download $package" >&2; exit 1; }
dpkg-deb -x "$deb" "$scratch/kernel"
version=$(ls "$scratch/kernel/lib/modules")
depmod -b "$scratch/kernel" "$version"
initrd=$scratch/initrd
mkdir -p "$initrd/bin" "$initrd/modules"
cp /bin/busybox "$initrd/bin/busybox"   # busybox-static's
# The modules in load order, dependencies first.
for module in virtio_pci 9pnet_virtio 9p overlay; do
  modprobe -d "$scratch/kernel" -S "$version" --show-depends "$module" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
  cp "$ko" "$initrd/modules/"
  basename "$ko" >> "$initrd/modules/order"
done
install -m 0755 "$here/init" "$initrd/init"
(cd "$initrd" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initramfs.cpio.gz"
cp "$scratch/kernel/boot/vmlinuz-$version" "$dir/vmlinuz"
echo "$stamp" > "$dir/stamp"
