#!/bin/sh
# Runs inside the deploy test guest (scripts/deploy/vm/run.sh) as a oneshot service under
# the guest's systemd: installs /mnt/wavedial.deb into the running system and checks
# wavediald under its real, hardened unit. Writes one line a check and a totals line to
# /mnt/results, then powers the guest off.
passed=0 failed=0
out=/mnt/results
: > "$out"
check() {
  name=$1; shift
  echo "guest-check: $name (uptime $(cut -d' ' -f1 /proc/uptime) s)"
  if "$@" > /tmp/check.log 2>&1; then
    passed=$((passed + 1)); echo "ok   guest: $name" >> "$out"
  else
    failed=$((failed + 1)); echo "FAIL guest: $name" >> "$out"; sed 's/^/     /' /tmp/check.log >> "$out"
  fi
}
prop() { systemctl show -P "$2" "$1"; }

# man-db's dpkg trigger would reindex every man page over 9p: minutes, and beside the point.
rm -f /var/lib/man-db/auto-update

# A short watchdog (still long enough for a busy emulated guest), so that a daemon that
# stopped pinging would be killed within the test.
mkdir -p /etc/systemd/system/wavediald.service.d
printf '[Service]\nWatchdogSec=4s\n' > /etc/systemd/system/wavediald.service.d/vmtest.conf

install_deb() {
  DEBIAN_FRONTEND=noninteractive dpkg --force-depends -i /mnt/wavedial.deb &&
  [ "$(systemctl is-enabled wavediald.service)" = enabled ] &&
  [ "$(prop wavediald.service ActiveState)" = active ]
}
check "dpkg -i on a running system: wavediald enabled, started and ready (Type=notify)" install_deb

status_text() {
  prop wavediald.service StatusText | tee /dev/stderr | grep -q .
}
check "STATUS= from the daemon" status_text

socket() {
  ls -l /run/wavedial/control.sock
  [ "$(stat -c '%A %U %G' /run/wavedial/control.sock)" = "srw-rw---- wavedial wavedial" ] &&
  [ "$(stat -c '%a %U %G' /var/lib/wavedial)" = "2770 wavedial wavedial" ] &&
  [ "$(stat -c '%U %G' /var/lib/wavedial/wavedial.sqlite)" = "wavedial wavedial" ]
}
check "control socket 0660 wavedial:wavedial, database owned by wavedial" socket

cli_through_socket() {
  useradd --create-home --groups wavedial listener &&
  runuser -u listener -- wavedial status &&
  ! runuser -u nobody -- wavedial status 2> /tmp/nobody.err &&
  cat /tmp/nobody.err && grep -q 'Permission denied' /tmp/nobody.err
}
check "wavedial status as a member of group wavedial works, as nobody it does not" cli_through_socket

watchdog() {
  pid=$(prop wavediald.service MainPID)
  sleep 10
  echo "NRestarts=$(prop wavediald.service NRestarts) MainPID=$pid/$(prop wavediald.service MainPID) WatchdogTimestampMonotonic=$(prop wavediald.service WatchdogTimestampMonotonic)"
  [ "$(prop wavediald.service NRestarts)" = 0 ] && [ "$(prop wavediald.service MainPID)" = "$pid" ] &&
  [ "$(prop wavediald.service ActiveState)" = active ] && [ "$(prop wavediald.service WatchdogTimestampMonotonic)" != 0 ]
}
check "WATCHDOG=1 keeps it alive through 2.5x WatchdogSec (no restart)" watchdog

reload() {
  pid=$(prop wavediald.service MainPID)
  systemctl reload wavediald.service && sleep 1 &&
  [ "$(prop wavediald.service MainPID)" = "$pid" ] && [ "$(prop wavediald.service ActiveState)" = active ]
}
check "systemctl reload (SIGHUP): same process, still active" reload

sandbox() {
  journalctl -u wavediald.service --no-pager -o cat > /tmp/journal
  tail -40 /tmp/journal
  ! grep -iE ' critical |operation not permitted|permission denied|read-only file system|bad system call|unable to open' /tmp/journal
}
check "nothing critical and no denial in the daemon's journal" sandbox

stop() {
  systemctl stop wavediald.service &&
  [ "$(prop wavediald.service Result)" = success ] && [ "$(prop wavediald.service ExecMainStatus)" = 0 ]
}
check "systemctl stop (SIGTERM): clean exit 0" stop

purge() {
  echo '# mine' >> /etc/wavedial/config.toml
  dpkg --remove wavedial && [ -f /var/lib/wavedial/wavedial.sqlite ] && grep -qx '# mine' /etc/wavedial/config.toml &&
  [ "$(systemctl is-enabled wavediald.service 2>&1)" != enabled ] &&
  dpkg --purge wavedial && [ ! -e /var/lib/wavedial ] && [ ! -e /etc/wavedial ] && ! getent passwd wavedial
}
check "dpkg --remove keeps data and config; --purge removes them and the user" purge

echo "guest: $passed passed, $failed failed" >> "$out"
cat "$out"
sync
systemctl poweroff --force
