#!/usr/bin/env bash
# Loopback internet-radio rig: icecast2 on 127.0.0.1:$PORT with a mount per format fed in real time
# by ffmpeg (the programme of make-media.sh, copied, not re-encoded), ICY StreamTitle changing every
# $META_EVERY seconds on the MP3 and AAC mounts, and a live HLS stream (ffmpeg's hls muxer, the AAC
# programme in MPEG-TS segments) served by an HTTP server of its own (hls_server.py) on $HLS_PORT.
#
#   rig.sh start            build helpers + media if missing, start icecast, the feeders of
#                           $RIG_FORMATS, the metadata loop (and the HLS server if hls is among them)
#   rig.sh stop             stop everything this rig started (by PID)
#   rig.sh status           show PIDs and the mounts as icecast sees them
#   rig.sh kill-server      SIGKILL the server of $FORMAT only (outage test): icecast, or the HLS
#                           server; prints CLOCK_MONOTONIC time ("killed <mono>")
#   rig.sh start-server     start it again; waits until $FORMAT's stream is back,
#                           prints "up <mono> mount <mono>"
#   rig.sh kill-icecast, start-icecast   the same for icecast, whatever $FORMAT
#   rig.sh ensure           make sure the servers run and $FORMAT's stream is live
#   rig.sh ttfb [N]         the server's own floor for $FORMAT: icecast's request -> headers and ->
#                           first audio byte; HLS: playlist request -> first byte of the segment a
#                           player starts with (three target durations from the live edge)
#   rig.sh url              print $FORMAT's stream URL
#
# Environment (defaults): BENCH_DIR=/tmp/wavedial-bench PORT=18100 HLS_PORT=PORT+80
#   RIG_FORMATS="mp3" (any of: mp3 aac opus vorbis flac hls) FORMAT=mp3 (the stream measured)
#   META_EVERY=5 BURST_SIZE=65535 READRATE= (empty: -re real time; e.g. 10 = 10x faster feed)
#   HLS_TIME=2 HLS_LIST_SIZE=6 (segment seconds, segments in the live playlist)
#   SRC=$BENCH_DIR/media/music.mp3 (the MP3 mount's source: any MP3; copied, not re-encoded)
# Mounts: mp3 /live.mp3 (128 kbit/s), aac /live.aac (ADTS, AAC-LC 128 kbit/s), opus /live.opus
# (Ogg Opus 96 kbit/s), vorbis /live.ogg (Ogg Vorbis 128 kbit/s), flac /live.flac (Ogg FLAC);
# hls http://127.0.0.1:$HLS_PORT/live.m3u8. MOUNT overrides the mount of $FORMAT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
PORT=${PORT:-18100}
HLS_PORT=${HLS_PORT:-$((PORT + 80))}
RIG_FORMATS=${RIG_FORMATS:-mp3}
FORMAT=${FORMAT:-mp3}
META_EVERY=${META_EVERY:-5}
BURST_SIZE=${BURST_SIZE:-65535}
READRATE=${READRATE:-}
HLS_TIME=${HLS_TIME:-2}
HLS_LIST_SIZE=${HLS_LIST_SIZE:-6}
M="$BENCH_DIR/media"
SRC=${SRC:-$M/music.mp3}
PW=benchpw
R="$BENCH_DIR/rig"
P="$R/pids"
export BENCH_DIR

mount_of() {
  case $1 in
    mp3) echo /live.mp3 ;; aac) echo /live.aac ;; opus) echo /live.opus ;; vorbis) echo /live.ogg ;;
    flac) echo /live.flac ;; hls) echo /live.m3u8 ;;
    *) echo "rig.sh: unknown format $1 (mp3 aac opus vorbis flac hls)" >&2; exit 2 ;;
  esac
}
MOUNT=${MOUNT:-$(mount_of "$FORMAT")}

mono() { python3 -c 'import time; print(f"{time.monotonic():.6f}")'; }
# running and not a zombie (a crashed icecast stays a zombie while this shell is its parent)
alive() {
  [[ -s "$P/$1.pid" ]] || return 1
  local st; st=$(sed -E 's/.*\) (.).*/\1/' "/proc/$(cat "$P/$1.pid")/stat" 2>/dev/null) || return 1
  [[ -n "$st" && "$st" != Z ]]
}

# The formats of the running rig (written by start), else $RIG_FORMATS; the Icecast ones apart.
formats() { if [[ -s "$R/formats" ]]; then cat "$R/formats"; else echo "$RIG_FORMATS"; fi; }
icecast_formats() { local f; for f in $(formats); do [[ $f == hls ]] || echo "$f"; done; }
# The Icecast mount that says icecast is back: $FORMAT's, or the rig's first Icecast mount.
icecast_mount() {
  if [[ $FORMAT != hls ]]; then echo "$MOUNT"; else mount_of "$(icecast_formats | head -1)"; fi
}

write_conf() {
  mkdir -p "$R/log" "$P"
  local mounts="" f
  for f in $(icecast_formats); do
    mounts+="  <mount type=\"normal\"><mount-name>$(mount_of "$f")</mount-name><stream-name>Bench Radio</stream-name></mount>"$'\n'
  done
  cat > "$R/icecast.xml" <<XML
<icecast>
  <location>loopback</location><admin>bench@localhost</admin>
  <limits>
    <clients>20</clients><sources>8</sources><queue-size>524288</queue-size>
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
$mounts  <fileserve>1</fileserve>
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

tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

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
  local try i t_up mount; mount=$(icecast_mount)
  for try in 1 2 3; do
    launch_icecast
    t_up=""
    for i in $(seq 1 1000); do
      if tcp_open "$PORT"; then t_up=$(mono); break; fi
      alive icecast || break
      sleep 0.005
    done
    if [[ -n "$t_up" ]]; then
      echo "up $t_up"
      sleep 0.2        # no HTTP probing while icecast initialises (see crash note above)
      for i in $(seq 1 750); do
        alive icecast || break
        if mount_live "$mount"; then echo "mount $(mono)"; return 0; fi
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
  curl -s --max-time 1 "http://127.0.0.1:$PORT/status-json.xsl" 2>/dev/null | grep -q "\"listenurl\":\"[^\"]*$1\""
}

# The HLS playlist is served and names a segment.
hls_live() { curl -s --max-time 1 "http://127.0.0.1:$HLS_PORT/live.m3u8" 2>/dev/null | grep -q '\.ts'; }

launch_hls_server() {
  mkdir -p "$R/hls" "$R/log" "$P"
  python3 "$here/hls_server.py" --port "$HLS_PORT" --directory "$R/hls" </dev/null >>"$R/log/hls-server.log" 2>&1 &
  echo $! > "$P/hls-server.pid"
}

# Start the HLS server and wait until it serves the playlist: prints "up <mono>" and "mount <mono>".
start_hls_server() {
  alive hls-server && { echo "hls server already running ($(cat "$P/hls-server.pid"))" >&2; return 0; }
  launch_hls_server
  local i
  for i in $(seq 1 1000); do tcp_open "$HLS_PORT" && { echo "up $(mono)"; break; }; sleep 0.005; done
  for i in $(seq 1 750); do hls_live && { echo "mount $(mono)"; return 0; }; sleep 0.02; done
  echo "hls server did not come up; see $R/log" >&2; return 1
}

# The source of a format's mount (make-media.sh makes them) and ffmpeg's output options for it.
source_of() {
  case $1 in
    mp3) echo "$SRC" ;; aac|hls) echo "$M/music.aac" ;; opus) echo "$M/music.opus" ;;
    vorbis) echo "$M/music.ogg" ;; flac) echo "$M/music.oga" ;;
  esac
}
output_of() {
  case $1 in
    mp3) echo "-f mp3 -id3v2_version 0 -write_xing 0 -content_type audio/mpeg" ;;
    aac) echo "-f adts -content_type audio/aac" ;;
    opus|vorbis|flac) echo "-f ogg -content_type audio/ogg" ;;
  esac
}

# One supervised ffmpeg a format: if icecast goes away ffmpeg exits; it is started again every 0.2 s.
# HLS: ffmpeg's hls muxer writes a live playlist (a sliding window of segments, numbered from the
# clock so that a restarted feeder continues the sequence) into the HLS server's folder.
start_feeder() {
  local f=$1
  alive "feeder-$f" && return 0
  local rate=(-re) out
  [[ -n "$READRATE" ]] && rate=(-readrate "$READRATE")
  if [[ $f == hls ]]; then
    mkdir -p "$R/hls"
    out=(-f hls -hls_time "$HLS_TIME" -hls_list_size "$HLS_LIST_SIZE" -hls_start_number_source epoch
         -hls_flags delete_segments+temp_file -hls_segment_filename "$R/hls/seg%d.ts" "$R/hls/live.m3u8")
  else
    read -r -a out <<<"$(output_of "$f")"
    out+=(-ice_name "Bench Radio" -ice_genre bench "icecast://source:$PW@127.0.0.1:$PORT$(mount_of "$f")")
  fi
  ( trap 'kill $(cat "$P/ffmpeg-$f.pid" 2>/dev/null) 2>/dev/null; exit 0' TERM
    while :; do
      ffmpeg -hide_banner -nostdin -loglevel error "${rate[@]}" -stream_loop -1 -i "$(source_of "$f")" \
        -map 0:a -c:a copy "${out[@]}" >>"$R/log/ffmpeg-$f.log" 2>&1 &
      echo $! > "$P/ffmpeg-$f.pid"
      wait $! || true
      echo "$(date +%T.%N) ffmpeg ($f) exited" >> "$R/log/feeder.log"
      sleep 0.2
    done ) </dev/null >>"$R/log/feeder.log" 2>&1 &   # never hold the caller's stdout open
  echo $! > "$P/feeder-$f.pid"
}

start_meta() {
  alive meta && return 0
  # every META_EVERY s: set StreamTitle via the admin API on the ICY mounts (MP3, AAC; Icecast 2.4
  # takes no title updates on Ogg mounts); log "<mono> <title>"
  local mounts=() f
  for f in $(icecast_formats); do [[ $f == mp3 || $f == aac ]] && mounts+=("$(mount_of "$f")"); done
  [[ ${#mounts[@]} -gt 0 ]] || return 0
  python3 - "$PORT" "$PW" "$META_EVERY" "$R/meta.log" "${mounts[@]}" >>"$R/log/meta.stderr" 2>&1 <<'PY' &
import sys, time, urllib.request, urllib.parse, base64
port, pw, every, logp, mounts = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5:]
auth = "Basic " + base64.b64encode(f"admin:{pw}".encode()).decode()
n = 0
while True:
    n += 1
    title = f"Bench Artist - Track {n:05d}"
    for mount in mounts:
        url = f"http://127.0.0.1:{port}/admin/metadata?" + urllib.parse.urlencode(
            {"mount": mount, "mode": "updinfo", "song": title, "charset": "UTF-8"})
        try:
            req = urllib.request.Request(url, headers={"Authorization": auth})
            urllib.request.urlopen(req, timeout=2).read()
            ok = True
        except Exception as e:
            ok = False
            with open(logp, "a") as f:
                f.write(f"{time.monotonic():.6f} FAILED {mount} {e.__class__.__name__}\n")
    if ok:   # the first mount's time stands for all: the updates are a few milliseconds apart
        with open(logp, "a") as f:
            f.write(f"{time.monotonic():.6f} {title}\n")
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

kill_named() {   # NAME: SIGKILL one server of the rig; prints "killed <mono>"
  alive "$1" || { echo "$1 not running" >&2; exit 1; }
  kill -9 "$(cat "$P/$1.pid")"; local t; t=$(mono)
  wait "$(cat "$P/$1.pid")" 2>/dev/null || true
  rm -f "$P/$1.pid"; echo "killed $t"
}

case "${1:-}" in
  start)
    # rebuilt when a helper's source is newer than its build
    [[ -x "$BENCH_DIR/bin/pacer" && -f "$BENCH_DIR/bin/pcmshim.so" && ! "$here/src/pcmshim.c" -nt "$BENCH_DIR/bin/pcmshim.so" && ! "$here/src/pacer.c" -nt "$BENCH_DIR/bin/pacer" ]] || "$here/build.sh"
    "$here/make-media.sh" >/dev/null
    mkdir -p "$P"; echo "$RIG_FORMATS" > "$R/formats"
    if [[ -n "$(icecast_formats)" ]]; then
      alive icecast || { launch_icecast; for i in $(seq 1 1000); do tcp_open "$PORT" && break; sleep 0.005; done; sleep 0.2; }
    fi
    for f in $(formats); do
      [[ $f == hls ]] && { alive hls-server || launch_hls_server; }
      start_feeder "$f"
    done
    for f in $(formats); do
      m=$(mount_of "$f")
      for i in $(seq 1 750); do if [[ $f == hls ]]; then hls_live && break; else mount_live "$m" && break; fi; sleep 0.02; done
      if [[ $f == hls ]]; then hls_live; else mount_live "$m"; fi || { echo "$f did not come up; see $R/log" >&2; exit 1; }
    done
    start_meta
    for f in $(formats); do echo "stream ($f): $(FORMAT=$f MOUNT= "$0" url)"; done
    ;;
  stop)
    stop_pid meta
    for f in mp3 aac opus vorbis flac hls; do stop_pid "feeder-$f"; stop_pid "ffmpeg-$f"; done
    stop_pid icecast; stop_pid hls-server; rm -f "$R/formats"
    echo stopped ;;
  status)
    for n in icecast hls-server meta $(for f in $(formats); do echo "feeder-$f ffmpeg-$f"; done); do
      if alive "$n"; then echo "$n: $(cat "$P/$n.pid")"; else echo "$n: not running"; fi
    done
    curl -s --max-time 2 "http://127.0.0.1:$PORT/status-json.xsl" || true; echo ;;
  kill-icecast) kill_named icecast ;;
  start-icecast) start_icecast ;;
  kill-server) if [[ $FORMAT == hls ]]; then kill_named hls-server; else kill_named icecast; fi ;;
  start-server) if [[ $FORMAT == hls ]]; then start_hls_server; else start_icecast; fi ;;
  ensure)   # used by measure.py before every repetition: rig healthy, $FORMAT's stream live
    alive "feeder-$FORMAT" || { echo "rig not started with $FORMAT: RIG_FORMATS=... $0 start" >&2; exit 1; }
    if [[ $FORMAT == hls ]]; then
      alive hls-server || start_hls_server >/dev/null
      for i in $(seq 1 250); do hls_live && exit 0; sleep 0.02; done
    else
      alive icecast || start_icecast >/dev/null
      for i in $(seq 1 250); do mount_live "$MOUNT" && exit 0; sleep 0.02; done
    fi
    echo "$FORMAT not live" >&2; exit 1 ;;
  ttfb)     # server-side baseline for TTFA
    if [[ $FORMAT == hls ]]; then
      python3 - "$HLS_PORT" "${2:-10}" <<'PY'
import socket, statistics, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
def get(path):
    """One HTTP/1.0 GET on a new connection: (the time of its first body byte, the body)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
    buf, tb = b"", None
    while True:
        d = s.recv(65536)
        if not d:
            break
        buf += d
        if tb is None and b"\r\n\r\n" in buf and len(buf) > buf.index(b"\r\n\r\n") + 4:
            tb = time.monotonic()
    s.close()
    if not buf.startswith(b"HTTP/1.0 200") and not buf.startswith(b"HTTP/1.1 200"):
        sys.exit(f"{path}: " + buf.split(b"\r\n", 1)[0].decode(errors="replace"))
    return tb, buf[buf.index(b"\r\n\r\n") + 4:]
lists, floors = [], []
for _ in range(n):
    t0 = time.monotonic()
    tl, body = get("/live.m3u8")
    tl -= t0
    lines = body.decode().splitlines()
    target = float(next(l.split(":")[1] for l in lines if l.startswith("#EXT-X-TARGETDURATION")))
    segs, durs = [], []
    for i, l in enumerate(lines):
        if l.startswith("#EXTINF:"):
            durs.append(float(l[8:].split(",")[0])); segs.append(lines[i + 1])
    # RFC 8216 6.3.3: start no less than three target durations from the end of the playlist
    k, tail = len(segs) - 1, durs[-1]
    while k > 0 and tail < 3 * target:
        k -= 1; tail += durs[k]
    ts, _ = get("/" + segs[k])
    floors.append(ts - t0); lists.append(tl)
    time.sleep(0.3)
for name, v in (("playlist first byte", lists), ("first audio byte", floors)):
    print(f"hls {name:19s}: median {statistics.median(v):.4f} s [{min(v):.4f}-{max(v):.4f}] n={len(v)}")
PY
    else
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
    fi
    ;;
  url) if [[ $FORMAT == hls ]]; then echo "http://127.0.0.1:$HLS_PORT/live.m3u8"; else echo "http://127.0.0.1:$PORT$MOUNT"; fi ;;
  *) sed -n '2,29p' "$0"; exit 2 ;;
esac
