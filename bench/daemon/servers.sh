#!/usr/bin/env bash
# What the household servers cost the daemon: its RSS while playing with [mpd] and [web] off, on and idle,
# and on after clients used them (40 web page loads and status requests, 40 MPD status/currentsong
# exchanges, 16 clients at once), with wavediald --headless on a loopback tone station (bench/tone-radio.sh).
# RSS is read from /proc/PID/status 20 s into playing (after the daemon's page release of a settled station).
# Not run in CI. Needs what bench/audio needs. Usage: bench/daemon/servers.sh [REPS]
# (bin: the release binaries, built when unset)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-3}
export PATH="/opt/swift/usr/bin:$PATH"
bin=${bin:-$("$root/scripts/build-release" --product wavediald --product wavedial)}
TONE_RIG=servers PORT=${SERVERS_PORT:-18300} RADIO_STATION="be04 Servers Tone 94.1"
. "$root/bench/tone-radio.sh"
mpd_port=$((PORT + 11)) web_port=$((PORT + 12))
cp "$work/config.toml" "$work/off.toml"
{ cat "$work/config.toml"; printf '[mpd]\nenabled = true\nport = %s\n[web]\nenabled = true\nport = %s\n' "$mpd_port" "$web_port"; } >"$work/on.toml"
echo "== daemon RSS while playing: [mpd] and [web] off, on (idle), on after clients ($reps runs each)"
python3 - "$bin" "$work" "$reps" "$mpd_port" "$web_port" <<'PY'
import os, socket, statistics, subprocess, sys, time
bin, work, reps, mpd_port, web_port = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
def exchange(port, data):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        while s.recv(65536):
            pass
def clients():
    many = [socket.create_connection(("127.0.0.1", mpd_port), timeout=5) for _ in range(8)]
    many += [socket.create_connection(("127.0.0.1", web_port), timeout=5) for _ in range(8)]
    for _ in range(40):
        exchange(web_port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        exchange(web_port, b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        exchange(mpd_port, b"status\ncurrentsong\nplaylistinfo\nclose\n")
    for s in many:
        s.close()
results = {}
for mode, config in (("off", "off"), ("on, idle", "on"), ("on, after clients", "on")):
    figures = []
    for _ in range(reps):
        env = dict(os.environ, WAVEDIAL_CONFIG=f"{work}/{config}.toml")
        daemon = subprocess.Popen([f"{bin}/wavediald", "--headless"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while subprocess.run([f"{bin}/wavedial", "status"], env=env, capture_output=True).returncode != 0:
            time.sleep(0.05)
        subprocess.run([f"{bin}/wavedial", "tune", "94.1"], env=env, capture_output=True, check=True)
        time.sleep(5)
        if mode == "on, after clients":
            clients()
        time.sleep(15)
        figures.append(rss(daemon.pid))
        daemon.terminate(); daemon.wait()
    results[mode] = figures
    print(f"  {mode}: RSS {statistics.median(figures):.1f} MiB [{min(figures):.1f}–{max(figures):.1f}]", flush=True)
PY
