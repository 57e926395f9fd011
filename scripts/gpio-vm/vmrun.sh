#!/usr/bin/env bash
# Runs one command inside a throwaway QEMU guest whose kernel has gpio-sim, with the host's
# root shared read-only over 9p (seen through an overlay: writes succeed but are thrown away).
# The command runs as root in the current directory with WAVEDIAL_GPIO_VM=1 set; its exit
# status becomes vmrun.sh's. Its output (and kernel warnings) arrive on stdout.
# Builds and caches the guest kernel and initramfs on first use (build-kernel.sh).
#
#   scripts/gpio-vm/vmrun.sh [--] COMMAND [ARG...]
#
# env: GPIO_VM_DIR   kernel/initramfs cache (default .build-gpio-vm/ in the repo)
#      GPIO_VM_RW    host dirs to share read-write, space separated (must exist)
#      GPIO_VM_MEM (1024M) GPIO_VM_TIMEOUT seconds (600)
# Exit status: the command's, or 125 when the guest reported none (boot failure, timeout).
# KVM is not used: on nested cloud VMs (kvm_pvm) a kernel boots far slower under it than TCG.
set -uo pipefail
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [--] COMMAND [ARG...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
export GPIO_VM_DIR=${GPIO_VM_DIR:-$here/../../.build-gpio-vm}
"$here/build-kernel.sh" || exit 125
"$here/build-initramfs.sh" || exit 125
case $PWD in *' '*) echo "vmrun: the current directory must not contain spaces" >&2; exit 2 ;; esac
. "$(dirname "$0")/../vm-console.sh"
vm_control "$@"

append="console=ttyS0 quiet loglevel=3 panic=-1 gpiovm.cwd=$PWD"
share=(-virtfs "local,path=$ctl,mount_tag=gpiovmctl,security_model=none"
       -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap)
i=0; rw=""
for d in ${GPIO_VM_RW:-}; do
    d=$(cd "$d" && pwd) || exit 2
    share+=(-virtfs "local,path=$d,mount_tag=rw$i,security_model=none,multidevs=remap")
    rw="$rw${rw:+,}rw$i:$d"; i=$((i + 1))
done
[ -n "$rw" ] && append="$append gpiovm.rw=$rw"

vm_console "${GPIO_VM_TIMEOUT:-600}" \
  qemu-system-x86_64 -nodefaults -no-user-config -no-reboot \
    -display none -serial stdio -monitor none \
    -accel tcg -cpu max -m "${GPIO_VM_MEM:-1024M}" -smp 1 \
    -kernel "$GPIO_VM_DIR/bzImage" -initrd "$GPIO_VM_DIR/initramfs.cpio.gz" \
    -append "$append" "${share[@]}"
