#!/usr/bin/env bash
# The guest's kernel: Debian's own (scripts/debian-kernel.sh) and the one module it lacks, gpio-sim
# (Debian's kernels have CONFIG_GPIO_SIM unset), built out of tree from Debian's linux-source-6.1
# against that kernel's headers: seconds of compiling instead of a whole kernel. Cached in
# $GPIO_VM_DIR (default .build-gpio-vm/ in the repo) and made again when the kernel or this script
# changes. Output: $GPIO_VM_DIR/bzImage, and $GPIO_VM_DIR/modules/: the modules the guest loads
# (virtio-pci, 9p, overlayfs, configfs, evdev and uinput for the IR remote's tests, gpio-sim, and snd-dummy:
# a sound card with mixer controls) with `order`, the files in the order to load them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${GPIO_VM_DIR:-$here/../../.build-gpio-vm}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
kernel=$("$here/../debian-kernel.sh" fetch)
version=$(ls "$kernel/lib/modules")
if [ ! -d "/usr/src/linux-headers-$version" ] || [ ! -f /usr/src/linux-source-6.1.tar.xz ]; then
    echo "build-kernel: linux-headers-$version or linux-source-6.1 is not installed (scripts/install-deps test-gpio)" >&2
    exit 1
fi
stamp="$version $(sha256sum "$0" | cut -c1-16)"
if [ -s "$dir/bzImage" ] && [ -s "$dir/modules/order" ] && [ "$(cat "$dir/bzImage.stamp" 2>/dev/null)" = "$stamp" ]; then
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "gpio-vm: building gpio-sim for Debian's kernel $version" >&2
# From the source of the same Debian release: gpio-sim.c, the gpiolib's private header it includes, and
# the interrupt simulator it selects (CONFIG_IRQ_SIM, built in only, and not in Debian's kernel), linked
# into the module.
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$work" --occurrence=1 linux-source-6.1/drivers/gpio/gpio-sim.c \
    linux-source-6.1/drivers/gpio/gpiolib.h linux-source-6.1/kernel/irq/irq_sim.c
mkdir -p "$work/gpio-sim"
mv "$work/linux-source-6.1/drivers/gpio/gpio-sim.c" "$work/gpio-sim/gpio-sim-driver.c"
mv "$work/linux-source-6.1/drivers/gpio/gpiolib.h" "$work/linux-source-6.1/kernel/irq/irq_sim.c" "$work/gpio-sim/"
# A module cannot call irq_to_desc() (not exported); generic_handle_irq() runs the same handler.
sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$work/gpio-sim/irq_sim.c"
grep -q generic_handle_irq "$work/gpio-sim/irq_sim.c" || { echo "build-kernel: irq_sim.c changed; see build-kernel.sh" >&2; exit 1; }
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-driver.o irq_sim.o\n' >"$work/gpio-sim/Kbuild"
make -C "/usr/src/linux-headers-$version" M="$work/gpio-sim" modules >"$work/module.log" 2>&1 ||
    { tail -40 "$work/module.log" >&2; exit 1; }
sim=$work/gpio-sim/gpio-sim.ko
# The guest's kernel refuses a module built for another one; say so here, where it is clear why.
[ "$(modinfo -F vermagic "$sim")" = "$(modinfo -F vermagic "$(find "$kernel/lib/modules" -name configfs.ko)")" ] ||
    { echo "build-kernel: gpio-sim was built for another kernel than $version" >&2; exit 1; }

rm -rf "$dir/modules"
mkdir -p "$dir/modules"
"$here/../debian-kernel.sh" modules virtio_pci 9pnet_virtio 9p overlay evdev uinput $(modinfo -F depends "$sim" | tr ',' ' ') snd_dummy |
while read -r ko; do
    cp "$ko" "$dir/modules/"
    basename "$ko" >>"$dir/modules/order"
done
cp "$sim" "$dir/modules/"
echo gpio-sim.ko >>"$dir/modules/order"
cp "$kernel/boot/vmlinuz-$version" "$dir/bzImage"
echo "$stamp" >"$dir/bzImage.stamp"
