#!/usr/bin/env bash
# The arm64 guest's kernel: Debian 13's own arm64 kernel (the package linux-image-arm64 depends on,
# fetched with `apt-get download` and unpacked, never installed) and the one module it lacks,
# gpio-sim (CONFIG_GPIO_SIM is unset in Debian's kernels), built out of tree from linux-source-6.12's
# drivers/gpio/gpio-sim.c with trixie's aarch64 gcc-14, the compiler that kernel was built with.
# Runs the build inside the trixie root (scripts/pi/trixie-root.sh; packages in
# scripts/pi/packages/trixie-root-vm.txt) with a private apt state for arm64, so the shared root
# gains no foreign architecture. Cached in $PI_VM_DIR (default .build-pi-vm/ in the repo, which must
# stay inside the repo: the trixie root sees the repo only) and made again when apt names another
# kernel or this script changes. Needs root (the trixie root).
#
#   scripts/pi-vm/build-kernel.sh
#
# Output: $PI_VM_DIR/Image, $PI_VM_DIR/modules/: the modules the guest loads (9p, overlayfs,
# snd-aloop, configfs, gpio-sim and what they depend on), uncompressed, with `order` listing them in load order;
# $PI_VM_DIR/busybox: trixie's static arm64 busybox for the initramfs (build-initramfs.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${PI_VM_DIR:-$repo/.build-pi-vm}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
case $dir/ in "$repo"/*) ;; *) echo "build-kernel: PI_VM_DIR must be inside $repo" >&2; exit 2 ;; esac

if [ "${1:-}" != --in-root ]; then
    exec 8>"$dir/kernel.lock"
    flock 8
    exec nice "$repo/scripts/pi/trixie-root.sh" run "scripts/pi-vm/${0##*/}" --in-root "/src${dir#"$repo"}"
fi

# Inside the trixie root from here on; the repo is /src.
dir=$2
apt_dir=$dir/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${DEBIAN_MIRROR:-http://deb.debian.org/debian} trixie main" \
    >"$apt_dir/sources.list"
arm64_apt=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
           -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
           -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o Debug::NoLocking=1)
apt-get "${arm64_apt[@]}" update -qq
image=$(apt-cache "${arm64_apt[@]}" depends linux-image-arm64 | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
[ -n "$image" ] || { echo "build-kernel: apt knows no linux-image-arm64" >&2; exit 1; }
version=${image#linux-image-}                  # 6.12.117+deb13-arm64
abi=${version%-arm64}                          # 6.12.117+deb13
debver=$(apt-cache "${arm64_apt[@]}" show "$image" | awk '/^Version:/ { print $2; exit }')   # 6.12.117-1
series=$(echo "$version" | cut -d. -f1-2)      # 6.12
stamp="$version $debver $(sha256sum "$0" | cut -c1-16)"
if [ -s "$dir/Image" ] && [ -s "$dir/modules/order" ] && [ "$(cat "$dir/Image.stamp" 2>/dev/null)" = "$stamp" ]; then
    exit 0
fi
echo "pi-vm: building gpio-sim for Debian's arm64 kernel $version" >&2
work=$(mktemp -d -p "$dir" work.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/download" "$work/tree"
# The image and its headers for arm64; the kernel's build tools (linux-kbuild, Multi-Arch: foreign)
# for the machine that builds; the sources of the same version for gpio-sim.c.
(cd "$work/download" &&
    apt-get "${arm64_apt[@]}" download -q "$image" "linux-headers-$version" "linux-headers-$abi-common" busybox-static &&
    apt-get download -q "linux-kbuild-$abi=$debver" "linux-source-$series=$debver") 2>&1 |
    grep -v -e '^W: Download is performed unsandboxed' -e '^Get:' >&2 || true
for deb in "$work"/download/*.deb; do
    case $deb in */linux-source-*) ;; *) dpkg-deb -x "$deb" "$work/tree" ;; esac
done
tree=$work/tree
headers=$tree/usr/src/linux-headers-$version
[ -f "$headers/Makefile" ] && [ -d "$tree/usr/lib/linux-kbuild-$abi" ] ||
    { echo "build-kernel: the headers or linux-kbuild of $version did not unpack" >&2; exit 1; }
# The arm64 headers include the common ones by absolute path; their scripts/ links are relative
# and resolve inside the unpacked tree.
sed -i "s|^include /usr/src/|include $tree/usr/src/|" "$headers/Makefile"

# From the source of the same Debian release: gpio-sim.c, the gpiolib's private header it includes, and
# the interrupt simulator it selects (CONFIG_IRQ_SIM, built in only, and not in Debian's kernel), linked
# into the module.
src=linux-source-$series
dpkg-deb --fsys-tarfile "$work"/download/linux-source-"$series"_*.deb | tar -xO "./usr/src/$src.tar.xz" >"$work/$src.tar.xz"
tar -xJf "$work/$src.tar.xz" -C "$work" --occurrence=1 \
    "$src/drivers/gpio/gpio-sim.c" "$src/drivers/gpio/gpiolib.h" "$src/kernel/irq/irq_sim.c"
mkdir -p "$work/gpio-sim"
mv "$work/$src/drivers/gpio/gpio-sim.c" "$work/gpio-sim/gpio-sim-driver.c"
mv "$work/$src/drivers/gpio/gpiolib.h" "$work/$src/kernel/irq/irq_sim.c" "$work/gpio-sim/"
# A module cannot call irq_to_desc() (not exported); generic_handle_irq() runs the same handler.
sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$work/gpio-sim/irq_sim.c"
grep -q generic_handle_irq "$work/gpio-sim/irq_sim.c" || { echo "build-kernel: irq_sim.c changed; see build-kernel.sh" >&2; exit 1; }
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-driver.o irq_sim.o\n' >"$work/gpio-sim/Kbuild"
make -C "$headers" M="$work/gpio-sim" -j2 modules >"$work/module.log" 2>&1 ||
    { tail -40 "$work/module.log" >&2; exit 1; }
sim=$work/gpio-sim/gpio-sim.ko
modules=$tree/lib/modules/$version
[ -d "$modules" ] || modules=$tree/usr/lib/modules/$version
depmod -b "${modules%/lib/modules/*}" "$version"
# The guest's kernel refuses a module built for another one; say so here, where it is clear why.
configfs=$(modprobe -d "${modules%/lib/modules/*}" -S "$version" --show-depends configfs | awk '$1 == "insmod" { print $2 }')
[ "$(modinfo -F vermagic "$sim")" = "$(modinfo -F vermagic "$configfs")" ] ||
    { echo "build-kernel: gpio-sim was built for another kernel than $version" >&2; exit 1; }

rm -rf "$dir/modules"
mkdir -p "$dir/modules"
# snd-aloop: a sound card whose playback the kernel paces in real time, under the appliance check's
# capture file (arm64-vm), as a DAC would pace the daemon on the Pi.
for module in 9pnet_virtio 9p overlay snd-aloop $(modinfo -F depends "$sim" | tr ',' ' '); do
    modprobe -d "${modules%/lib/modules/*}" -S "$version" --show-depends "$module" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
    # busybox's insmod takes plain modules; Debian ships them xz-compressed
    name=$(basename "$ko" .xz)
    case $ko in *.xz) xz -dc "$ko" >"$dir/modules/$name" ;; *) cp "$ko" "$dir/modules/$name" ;; esac
    echo "$name" >>"$dir/modules/order"
done
cp "$sim" "$dir/modules/"
echo gpio-sim.ko >>"$dir/modules/order"
cp "$tree/usr/bin/busybox" "$dir/busybox"
cp "$tree/boot/vmlinuz-$version" "$dir/Image"
echo "$version" >"$dir/version"
echo "$stamp" >"$dir/Image.stamp"
