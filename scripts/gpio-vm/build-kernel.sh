#!/usr/bin/env bash
# Builds the guest kernel (x86_64 tinyconfig + kernel.config: gpio-sim, configfs, virtio-9p,
# overlayfs) from Debian's linux-source-6.1. Debian's own kernels have CONFIG_GPIO_SIM unset.
# About 3 min on 2 idle cores, once per machine: the result is cached and rebuilt only when
# kernel.config changes. Output: $GPIO_VM_DIR/bzImage (default .build-gpio-vm/ in the repo).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${GPIO_VM_DIR:-$here/../../.build-gpio-vm}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
stamp=$(sha256sum "$here/kernel.config" | cut -c1-16)
if [ -s "$dir/bzImage" ] && [ "$(cat "$dir/bzImage.stamp" 2>/dev/null)" = "$stamp" ]; then
    exit 0
fi
[ -f /usr/src/linux-source-6.1.tar.xz ] || { echo "build-kernel: linux-source-6.1 is not installed (scripts/install-deps test-gpio)" >&2; exit 1; }
src=$dir/linux-source-6.1
[ -d "$src" ] || tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$dir"
out=$dir/kbuild
mkdir -p "$out"
echo "gpio-vm: building the guest kernel once (about 3 min), log in $dir/kbuild.log" >&2
make -C "$src" O="$out" ARCH=x86_64 tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$here/kernel.config" >/dev/null
make -C "$src" O="$out" ARCH=x86_64 olddefconfig >/dev/null
# every option of the fragment must have survived olddefconfig
missing=0
for o in $(grep -o '^CONFIG_[A-Z0-9_]*=[ym]' "$here/kernel.config"); do
    grep -qx "$o" "$out/.config" || { echo "build-kernel: $o did not stick" >&2; missing=1; }
done
[ $missing = 0 ]
make -C "$out" ARCH=x86_64 -j"$(nproc)" bzImage >"$dir/kbuild.log" 2>&1 ||
    { tail -40 "$dir/kbuild.log" >&2; exit 1; }
cp "$out/arch/x86/boot/bzImage" "$dir/bzImage"
echo "$stamp" >"$dir/bzImage.stamp"
# the sources and objects are only needed for a rebuild; bzImage is what is cached
rm -rf "$src" "$out"
