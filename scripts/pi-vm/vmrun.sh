#!/usr/bin/env bash
# Runs one command inside a throwaway arm64 QEMU guest (qemu-system-aarch64 -M virt, software
# emulation) with Debian 13's arm64 kernel and gpio-sim (build-kernel.sh). With PI_VM_ROOT, the guest
# runs in that unpacked arm64 tree (scripts/pi/arm64-root.sh), shared read-only over 9p and seen
# through an overlay: writes succeed but are thrown away; without it, in the busybox initramfs.
# The repository is mounted read-only at its host path and the command runs as root in the current
# directory (which must be inside the repository, or /) with WAVEDIAL_GPIO_VM=1 set; its exit status
# becomes vmrun.sh's. Its output (and kernel warnings) arrive on stdout.
# Builds and caches the kernel and initramfs on first use.
#
#   scripts/pi-vm/vmrun.sh [--] COMMAND [ARG...]
#
# env: PI_VM_DIR     kernel/initramfs cache (default .build-pi-vm/ in the repo)
#      PI_VM_ROOT    the guest's root: an unpacked arm64 tree (default: the initramfs alone)
#      PI_VM_RW      host dirs to share read-write at the same paths, space separated (must exist)
#      PI_VM_MEM (1024M) PI_VM_SMP (1) PI_VM_TIMEOUT seconds (600)
# Exit status: the command's, or 125 when the guest reported none (boot failure, timeout).
# No network: `-nic none` (qemu's default virtio NIC wants efi-virtio.rom, and nothing here needs one).
set -uo pipefail
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [--] COMMAND [ARG...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
export PI_VM_DIR=${PI_VM_DIR:-$repo/.build-pi-vm}
# The kernel is checked against apt only by build-kernel.sh itself (scripts/test.d/arm64-vm calls
# it): here a cached one is used as it is, since checking means starting the trixie root.
[ -s "$PI_VM_DIR/Image" ] && [ -s "$PI_VM_DIR/modules/order" ] || "$here/build-kernel.sh" || exit 125
"$here/build-initramfs.sh" || exit 125
case $PWD in *' '*) echo "vmrun: the current directory must not contain spaces" >&2; exit 2 ;; esac
. "$(dirname "$0")/../vm-console.sh"
vm_control "$@"

append="console=ttyAMA0 quiet loglevel=3 panic=-1 pivm.cwd=$PWD"
share=(-virtfs "local,path=$ctl,mount_tag=pivmctl,security_model=none"
       -virtfs "local,path=$repo,mount_tag=repo,security_model=none,readonly=on,multidevs=remap")
shares="repo:ro:$repo"
if [ -n "${PI_VM_ROOT:-}" ]; then
    root=$(cd "$PI_VM_ROOT" && pwd) || exit 2
    share+=(-virtfs "local,path=$root,mount_tag=guestroot,security_model=none,readonly=on,multidevs=remap")
    append="$append pivm.root=1"
fi
i=0
for d in ${PI_VM_RW:-}; do
    d=$(cd "$d" && pwd) || exit 2
    share+=(-virtfs "local,path=$d,mount_tag=rw$i,security_model=none,multidevs=remap")
    shares="$shares,rw$i:rw:$d"; i=$((i + 1))
done
append="$append pivm.share=$shares"

# One vCPU: with -smp 2 the GPIO cases ran 3x slower on this 2-core host and 4 of 20 failed (edges of
# several lines out of order, detents lost: gpio-sim raises its edges from irq_work, which then runs
# on the other vCPU, late).
# -cpu max with pauth-impdef: pointer authentication with QEMU's own cheap hash instead of
# emulated QARMA, which costs TCG much of its speed on a kernel and userland built with PAC.
vm_console "${PI_VM_TIMEOUT:-600}" \
  qemu-system-aarch64 -nodefaults -no-user-config -no-reboot \
    -M virt -accel tcg -cpu max,pauth-impdef=on -m "${PI_VM_MEM:-1024M}" -smp "${PI_VM_SMP:-1}" \
    -display none -serial stdio -monitor none -nic none \
    -kernel "$PI_VM_DIR/Image" -initrd "$PI_VM_DIR/initramfs.cpio.gz" \
    -append "$append" "${share[@]}"
