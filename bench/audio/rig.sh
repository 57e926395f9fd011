#!/usr/bin/env bash
# Loopback internet-radio rig: icecast2 on 127.0.0.1:$PORT with an MP3 mount fed
# in real time by ffmpeg and ICY StreamTitle changing every $META_EVERY seconds.
#
#   rig.sh start            build helpers + media if missing, start icecast, feeder, metadata loop
#   rig.sh stop             stop everything this rig started (by PID)
#   rig.sh status           show PIDs and the mount as icecast sees it
#   rig.sh kill-icecast     SIGKILL icecast only (outage test); prints CLOCK_MONOTONIC time
#   rig.sh start-icecast    start icecast again; waits until the feeder is back on the mount,
#                           prints "up <mono> mount <mono>"
#   rig.sh ensure           make sure icecast runs and the mount is live (restarts icecast)
#   rig.sh ttfb [N]         icecast's own request->headers and ->first audio byte (TTFA floor)
#   rig.sh url              print the stream URL
#
# Environment (defaults): BENCH_DIR=/tmp/wavedial-bench PORT=18100 MOUNT=/live.mp3
#   META_EVERY=5 BURST_SIZE=65535 READRATE= (empty: -re real time; e.g. 10 = 10x faster feed)
#   SRC=$BENCH_DIR/media/music.mp3 (any MP3; copied, not re-encoded)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
PORT=${PORT:-18100}
MOUNT=${MOUNT:-/live.mp3}
META_EVERY=${META_EVERY:-5}
BURST_SIZE=${BURST_SIZE:-65535}
READRATE=${READRATE:-}
SRC=${SRC:-$BENCH_DIR/media/music.mp3}
PW=benchpw
R="$BENCH_DIR/rig"
P="$R/pids"
export BENCH_DIR

mono() { python3 -c 'import time; print(f"{time.monotonic():.6f}")'; }
# running and not a zombie (a crashed icecast stays a zombie while this shell is its parent)
alive() {
  [[ -s "$P/$1.pid" ]] || return 1
  local st; st=$(sed -E 's/.*\) (.).*/\1/' "/proc/$(cat "$P/$1.pid")/stat" 2>/dev/null) || return 1
  [[ -n "$st" && "$st" != Z ]]
}

write_conf() {
  mkdir -p "$R/log" "$P"
  cat > "$R/icecast.xml" <<XML
<icecast>
  <location>loopback</location><admin>bench@localhost</admin>
  <limits>
    <clients>20</clients><sources>2</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout>
    <source-timeout>10</source-timeout>
    <burst-on-connect>1</burst-on-connect><burst-size>$BURST_SIZE</burst-size>
  </limits>
  <authentication>
    <source-password>$PW</source-password><relay-password>$PW</relay-password>
    <admin-user>admin</admin-user><admin-password>$PW</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$PORT</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <mount type="normal"><mount-name>$MOUNT</mount-name><stream-name>Bench Radio</stream-name></mount>
  <fileserve>1</fileserve>
  <paths>
    <basedir>/usr/share/icecast2</basedir>
    <logdir>$R/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot>
  </paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel><logsize>10000</logsize></logging>
  <security><chroot>0</chroot></security>
</icecast>
XML
}

tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; }

launch_icecast() {
  write_conf
  local pre=()
  if [[ $(id -u) == 0 ]]; then            # icecast refuses to run as root
    local u=icecast2 g=icecast
    id "$u" >/dev/null 2>&1 || { u=nobody; g=nogroup; }
    chown -R "$u:$g" "$R/log"
    pre=(setpriv --reuid="$u" --regid="$g" --init-groups)
  fi
  "${pre[@]}" icecast2 -c "$R/icecast.xml" </dev/null >>"$R/log/icecast.stdout" 2>&1 &
  echo $! > "$P/icecast.pid"
}

# Start icecast and wait until the feeder is back on the mount. Prints
#   up <mono>      port accepts TCP connections
#   mount <mono>   mount listed in status-json (feeder connected)
#   crash <mono>   icecast died while starting (seen: 2.4.4 segfaults in libc now and then
#                  right after start); it is then started again, up to 3 times
start_icecast() {
  alive icecast && { echo "icecast already running ($(cat "$P/icecast.pid"))" >&2; return 0; }
  local try i t_up
  for try in 1 2 3; do
    launch_icecast
    t_up=""
    for i in $(seq 1 1000); do
      if tcp_open; then t_up=$(mono); break; fi
      alive icecast || break
      sleep 0.005
    done
    if [[ -n "$t_up" ]]; then
      echo "up $t_up"
      sleep 0.2        # no HTTP probing while icecast initialises (see crash note above)
      for i in $(seq 1 750); do
        alive icecast || break
        if mount_live; then echo "mount $(mono)"; return 0; fi
        sleep 0.02
      done
    fi
    alive icecast && { echo "mount did not come up" >&2; return 1; }
    echo "crash $(mono)"; echo "$(date +%T.%N) icecast died during start (try $try)" >> "$R/log/feeder.log"
    rm -f "$P/icecast.pid"
  done
  echo "icecast did not come up; see $R/log" >&2; return 1
}

mount_live() {
  curl -s --max-time 1 "http://127.0.0.1:$PORT/status-json.xsl" 2>/dev/null | grep -q "\"listenurl\":\"[^\"]*$MOUNT\""
}

start_feeder() {
  alive feeder && return 0
  local rate=(-re)
  [[ -n "$READRATE" ]] && rate=(-readrate "$READRATE")
  # supervisor loop: if icecast goes away ffmpeg exits; retry every 0.2 s
  ( trap 'kill $(cat "$P/ffmpeg.pid" 2>/dev/null) 2>/dev/null; exit 0' TERM
    while :; do
      ffmpeg -hide_banner -nostdin -loglevel error "${rate[@]}" -stream_loop -1 -i "$SRC" \
        -map 0:a -c:a copy -f mp3 -id3v2_version 0 -write_xing 0 \
        -content_type audio/mpeg -ice_name "Bench Radio" -ice_genre bench \
        "icecast://source:$PW@127.0.0.1:$PORT$MOUNT" >>"$R/log/ffmpeg.log" 2>&1 &
      echo $! > "$P/ffmpeg.pid"
      wait $! || true
      echo "$(date +%T.%N) ffmpeg exited" >> "$R/log/feeder.log"
      sleep 0.2
    done ) </dev/null >>"$R/log/feeder.log" 2>&1 &   # never hold the caller's stdout open
  echo $! > "$P/feeder.pid"
}

start_meta() {
  alive meta && return 0
  # every META_EVERY s: set StreamTitle via the admin API; log "<mono> <title>"
  python3 - "$PORT" "$MOUNT" "$PW" "$META_EVERY" "$R/meta.log" >>"$R/log/meta.stderr" 2>&1 <<'PY' &
import sys, time, urllib.request, urllib.parse, base64
port, mount, pw, every, logp = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
auth = "Basic " + base64.b64encode(f"admin:{pw}".encode()).decode()
n = 0
while True:
    n += 1
    title = f"Bench Artist - Track {n:05d}"
    url = f"http://127.0.0.1:{port}/admin/metadata?" + urllib.parse.urlencode(
        {"mount": mount, "mode": "updinfo", "song": title, "charset": "UTF-8"})
    try:
        req = urllib.request.Request(url, headers={"Authorization": auth})
        urllib.request.urlopen(req, timeout=2).read()
        with open(logp, "a") as f:
            f.write(f"{time.monotonic():.6f} {title}\n")
    except Exception as e:
        with open(logp, "a") as f:
            f.write(f"{time.monotonic():.6f} FAILED {e.__class__.__name__}\n")
    time.sleep(every)
PY
  echo $! > "$P/meta.pid"
}

stop_pid() {
  local name=$1
  if [[ -s "$P/$name.pid" ]]; then
    local pid; pid=$(cat "$P/$name.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$P/$name.pid"
  fi
}

case "${1:-}" in
  start)
    # rebuilt when a helper's source is newer than its build
    [[ -x "$BENCH_DIR/bin/pacer" && -f "$BENCH_DIR/bin/pcmshim.so" && ! "$here/src/pcmshim.c" -nt "$BENCH_DIR/bin/pcmshim.so" && ! "$here/src/pacer.c" -nt "$BENCH_DIR/bin/pacer" ]] || "$here/build.sh"
    [[ -s "$SRC" ]] || "$here/make-media.sh"
    alive icecast || { launch_icecast; for i in $(seq 1 1000); do tcp_open && break; sleep 0.005; done; sleep 0.2; }
    start_feeder
    for i in $(seq 1 750); do mount_live && break; sleep 0.02; done
    mount_live || { echo "mount did not come up; see $R/log" >&2; exit 1; }
    start_meta
    echo "stream: http://127.0.0.1:$PORT$MOUNT"
    ;;
  stop)
    stop_pid meta; stop_pid feeder; stop_pid ffmpeg; stop_pid icecast
    echo stopped ;;
  status)
    for n in icecast feeder ffmpeg meta; do
      if alive $n; then echo "$n: $(cat "$P/$n.pid")"; else echo "$n: not running"; fi
    done
    curl -s --max-time 2 "http://127.0.0.1:$PORT/status-json.xsl" || true; echo ;;
  kill-icecast)
    alive icecast || { echo "icecast not running" >&2; exit 1; }
    kill -9 "$(cat "$P/icecast.pid")"; t=$(mono)
    wait "$(cat "$P/icecast.pid")" 2>/dev/null || true
    rm -f "$P/icecast.pid"; echo "killed $t" ;;
  start-icecast)
    start_icecast ;;
  ensure)   # used by measure.py before every repetition: rig healthy, mount live
    alive feeder && alive meta || { echo "rig not started: $0 start" >&2; exit 1; }
    alive icecast || start_icecast >/dev/null
    for i in $(seq 1 250); do mount_live && exit 0; sleep 0.02; done
    echo "mount not live" >&2; exit 1 ;;
  ttfb)     # server-side baseline for TTFA: request -> headers and -> first audio byte
    python3 - "$PORT" "$MOUNT" "${2:-10}" <<'PY'
import socket, statistics, sys, time
port, mount, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
hdr, body = [], []
for _ in range(n):
    try:
        s = socket.create_connection(("127.0.0.1", port)); t0 = time.monotonic()
    except OSError as e:
        sys.exit(f"icecast not reachable on 127.0.0.1:{port}: {e}")
    s.sendall(f"GET {mount} HTTP/1.0\r\nHost: 127.0.0.1\r\nIcy-MetaData: 1\r\n\r\n".encode())
    buf, th, tb = b"", None, None
    while tb is None:
        d = s.recv(65536)
        if not d:
            break
        buf += d; now = time.monotonic()
        th = th or now
        status = buf.split(b"\r\n", 1)[0]
        if b"\r\n" in buf and status.split()[1:2] != [b"200"]:
            sys.exit("mount not live: " + status.decode(errors="replace"))
        if b"\r\n\r\n" in buf and len(buf) > buf.index(b"\r\n\r\n") + 4:
            tb = now
    s.close()
    if tb:
        hdr.append(th - t0); body.append(tb - t0)
    time.sleep(0.3)
for name, v in (("headers", hdr), ("first audio byte", body)):
    print(f"icecast {name:16s}: median {statistics.median(v):.3f} s [{min(v):.3f}-{max(v):.3f}] n={len(v)}")
PY
    ;;
  url) echo "http://127.0.0.1:$PORT$MOUNT" ;;
  *) sed -n '2,19p' "$0"; exit 2 ;;
esac
