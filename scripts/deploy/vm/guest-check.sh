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
  if "$@" > /run/check.log 2>&1; then
    passed=$((passed + 1)); echo "ok   guest: $name" >> "$out"
  else
    failed=$((failed + 1)); echo "FAIL guest: $name" >> "$out"; sed 's/^/     /' /run/check.log >> "$out"
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

# --- the database, shared by the daemon (user wavedial) and the CLI of group wavedial and root ---
db=/var/lib/wavedial/wavedial.sqlite
# db_files [DB]: each database file there is, as "NAME MODE OWNER GROUP".
db_files() { for f in "${1:-$db}" "${1:-$db}-wal" "${1:-$db}-shm"; do [ -e "$f" ] && stat -c '%n %a %U %G' "$f"; done; return 0; }
# Every database file writable by the daemon: 0660, group wavedial, not root's.
db_files_shared() {
  db_files "$@" | tee /dev/stderr | while read -r name mode user group; do
    [ "$mode $group" = "660 wavedial" ] && [ "$user" != root ] || { echo "the daemon could not write $name"; exit 1; }
  done
}
database_files() {
  for f in $db $db-wal $db-shm; do [ "$(stat -c '%a %U %G' "$f")" = "660 wavedial wavedial" ] || { db_files; return 1; }; done
}
check "database, -wal and -shm 0660 wavedial:wavedial (made under UMask=0007)" database_files

# A catalog (the tests' Radio Browser stand-in on loopback) and one that sends its headers and then
# nothing, which keeps a sync (and its database) open until it is killed.
python3 /mnt/radio_browser_server.py --stations /mnt/stations.json > /run/catalog.port &
python3 /mnt/radio_browser_server.py --stations /mnt/stations.json --mode hang > /run/hang.port &
for _ in $(seq 50); do [ -s /run/catalog.port ] && [ -s /run/hang.port ] && break; sleep 0.2; done
sed -i "s|^servers = .*|servers = [\"http://127.0.0.1:$(head -1 /run/catalog.port)\"]|" /etc/wavedial/config.toml
sed "s|^servers = .*|servers = [\"http://127.0.0.1:$(head -1 /run/hang.port)\"]|" /etc/wavedial/config.toml > /run/hang.toml
chmod 0644 /run/hang.toml
one=96f2a2b1-0000-4000-8000-00000000e001 two=96f2a2b1-0000-4000-8000-00000000e002
# killed_sync USER: a sync by USER, SIGKILLed while it has the database open (its -wal and -shm stay).
killed_sync() {
  if [ "$1" = root ]; then wavedial --config /run/hang.toml sync & else
    setpriv --reuid="$1" --regid="$1" --init-groups wavedial --config /run/hang.toml sync &
  fi
  pid=$!
  # until it has the database open (its -wal and -shm there): seconds on a loaded CI host's emulated guest
  for _ in $(seq 300); do [ -e $db-wal ] && [ -e $db-shm ] && break; sleep 0.2; done
  sleep 1
  kill -9 "$pid" && { wait "$pid"; true; } &&
  [ -e $db-wal ] && [ -e $db-shm ] && echo "left by $1:" && db_files
}
cli_while_stopped() {
  systemctl stop wavediald.service &&
  runuser -u listener -- wavedial sync && runuser -u listener -- wavedial location set 52.52 13.405 &&
  runuser -u listener -- wavedial history && db_files_shared &&
  wavedial history --tracks && wavedial stations search guest && wavedial fav add $one && wavedial fav remove $one &&
  db_files_shared && killed_sync listener && db_files_shared && killed_sync root && db_files_shared &&
  systemctl start wavediald.service && [ "$(prop wavediald.service ActiveState)" = active ] &&
  runuser -u listener -- wavedial tune $one && runuser -u listener -- wavedial volume 33 &&
  runuser -u listener -- wavedial sim press favorite &&
  systemctl restart wavediald.service &&
  runuser -u listener -- wavedial fav list | tee /dev/stderr | grep -q "Guest One" &&
  runuser -u listener -- wavedial status --json | tee /dev/stderr | grep -q '"volume" *: *33' &&
  ! journalctl -u wavediald.service --no-pager -o cat | grep -iE 'not saved|readonly|read-only|unable to open|permission denied'
}
check "CLI while the daemon is stopped (group member, root, both killed mid-sync): then the daemon writes" cli_while_stopped

# --- resource and address limits -------------------------------------------------------------
limits() {
  systemctl show -p IPAddressDeny -p MemoryMax -p TasksMax wavediald.service | tee /dev/stderr > /run/limits
  grep -qx 'MemoryMax=134217728' /run/limits && grep -qx 'TasksMax=256' /run/limits &&
  [ "$(sed -n 's/^IPAddressDeny=//p' /run/limits | tr ' ' '\n' | sort | xargs)" = "169.254.0.0/16 224.0.0.0/4 fe80::/10 ff00::/8" ] &&
  cgroup=/sys/fs/cgroup$(systemctl show -P ControlGroup wavediald.service) &&
  [ "$(cat "$cgroup/memory.max")" = 134217728 ] && [ "$(cat "$cgroup/pids.max")" = 256 ] &&
  # A process in the unit's cgroup meets its IP filter (cgroup BPF on the packets: the addresses need
  # a route, here through lo). Outside it the same attempts go through.
  ip addr add 169.254.1.1/16 dev lo && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo &&
  outside=$(python3 /run/probe.py) && inside=$(sh -c "echo \$\$ > $cgroup/cgroup.procs && exec python3 /run/probe.py") &&
  echo "outside the unit: $outside; inside: $inside" &&
  [ "$outside" = "ECONNREFUSED sent sent connected" ] &&
  case "$inside" in "EPERM EPERM EPERM connected"|"dropped EPERM EPERM connected") ;; *) false ;; esac
}
cat > /run/probe.py <<PY
import errno, socket
def attempt(kind, address):
    s = socket.socket(socket.AF_INET, kind)
    s.settimeout(2)
    try:
        if kind == socket.SOCK_STREAM:
            s.connect(address)
            return "connected"
        s.sendto(b"x", address)
        return "sent"
    except socket.timeout:
        return "dropped"  # a TCP SYN the filter dropped: connect() waits for an answer that never comes
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
    finally:
        s.close()
print(attempt(socket.SOCK_STREAM, ("169.254.1.1", 81)),       # link-local (a router's or a cloud's metadata)
      attempt(socket.SOCK_DGRAM, ("224.0.0.251", 5353)),      # mDNS
      attempt(socket.SOCK_DGRAM, ("239.255.255.250", 1900)),  # SSDP
      attempt(socket.SOCK_STREAM, ("127.0.0.1", $(head -1 /run/catalog.port))))
PY
check "IPAddressDeny (link-local, multicast), MemoryMax, TasksMax in effect in the unit's cgroup" limits

# --- a read-only root with the database on a partition of its own (README, "Read-only root") -----
# The README's steps: the data partition mounted at /data, the database moved there and named in
# [catalog], the unit allowed to write there; then the root is made read-only. The daemon must start,
# tune, keep a favorite across a restart and write nothing outside /data/wavedial and /run.
read_only_root() {
  systemctl stop wavediald.service && mkdir -p /data && mount /dev/vda /data &&
  install -d -m 2770 -o wavedial -g wavedial /data/wavedial && mv $db* /data/wavedial/ &&
  sed -i 's|^database = .*|database = "/data/wavedial/wavedial.sqlite"|' /etc/wavedial/config.toml &&
  printf '[Service]\nReadWritePaths=/data/wavedial\n' > /etc/systemd/system/wavediald.service.d/data.conf &&
  systemctl daemon-reload &&
  # As on any read-only root: /tmp and /var/tmp in RAM (PrivateTmp= makes the unit's there), the
  # journal in /run (on a Pi without /var/log/journal it is there anyway).
  mount -t tmpfs tmpfs /tmp && mount -t tmpfs tmpfs /var/tmp && { journalctl --relinquish-var || true; } &&
  sync && mount -o remount,ro / && findmnt -no OPTIONS / | tee /dev/stderr | grep -q '^ro' &&
  since=$(date '+%Y-%m-%d %H:%M:%S') &&
  systemctl start wavediald.service && [ "$(prop wavediald.service ActiveState)" = active ] &&
  runuser -u listener -- wavedial tune $two && runuser -u listener -- wavedial sim press favorite &&
  systemctl restart wavediald.service && [ "$(prop wavediald.service ActiveState)" = active ] &&
  runuser -u listener -- wavedial fav list | tee /dev/stderr | grep -q "Guest Two" &&
  db_files_shared /data/wavedial/wavedial.sqlite && [ -z "$(ls -A /var/lib/wavedial)" ] &&
  ! journalctl -u wavediald.service --since "$since" --no-pager -o cat | tee /dev/stderr |
    grep -iE 'critical|not saved|read-only|permission denied|unable to open'
}
check "read-only root, database on its own partition: starts, tunes, keeps a favorite across a restart" read_only_root
# Back to the package's layout for the checks below (stop, remove, purge).
systemctl stop wavediald.service; mount -o remount,rw /; umount /tmp /var/tmp; journalctl --flush
mv /data/wavedial/wavedial.sqlite* /var/lib/wavedial/ 2>/dev/null
sed -i 's|^database = .*|database = "/var/lib/wavedial/wavedial.sqlite"|' /etc/wavedial/config.toml
rm -f /etc/systemd/system/wavediald.service.d/data.conf; systemctl daemon-reload; systemctl start wavediald.service

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
