# Sourced by the test guests' runners (scripts/gpio-vm/vmrun.sh, scripts/pi-vm/vmrun.sh): the control
# share through which the guest's init reads its command (cmd.sh) and reports its exit status (rc),
# and QEMU run on the serial console with that status as the runner's own.

# vm_control COMMAND [ARG...]: makes the control directory $ctl (removed on exit) holding the command.
vm_control() {
    ctl=$(mktemp -d)
    trap 'rm -rf "$ctl"' EXIT
    { printf '%q ' "$@"; echo; } >"$ctl/cmd.sh"
}

# vm_console SECONDS QEMU [ARG...]: runs QEMU for at most SECONDS with its console on stdout, then
# exits with the status the guest reported, or 125 when it reported none (boot failure, timeout).
vm_console() {
    local seconds=$1; shift
    timeout -k 5 "$seconds" "$@" </dev/null 2>&1 | tr -d '\r' | sed '/\] reboot: Restarting system$/d'
    local qemu_status=${PIPESTATUS[0]}
    if ! [ -s "$ctl/rc" ]; then
        echo "vmrun: no exit status from the guest (qemu status $qemu_status; 124 = timeout)" >&2
        exit 125
    fi
    exit "$(cat "$ctl/rc")"
}
