#!/usr/bin/env bash
# Tuning to a dead station → the failed answer, with the real daemon (issue 16): `wavedial tune` of a
# station whose server answers 404, of one whose name does not exist (under .invalid, known absent without
# asking, and a name the resolver is asked about and answers NXDOMAIN for), and, for contrast, of one whose
# server answers 503, which is no definitive answer: the radio keeps trying until start_timeout_seconds
# (the shipped 15 s), as every dead station did before.
# t0 is the launch of `wavedial tune` (the CLI's start and the socket's round trip are inside the figure);
# the answer is the first `wavedial status --follow --json` line that says failed for that station.
# Not run in CI. Usage: bench/daemon/dead-station.sh [REPS]
# (BIN: a directory holding wavediald and wavedial; else scripts/build-release builds them)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-5}
work=${BENCH_DIR:-/tmp/wavedial-bench-dead}
rm -rf "$work" && mkdir -p "$work"
export PATH="/opt/swift/usr/bin:$PATH"
bin=${BIN:-$("$root/scripts/build-release" --product wavediald --product wavedial)}

python3 - "$root" "$bin" "$work" "$reps" <<'PY'
import json, os, socket, statistics, subprocess, sys, threading, time
root, bin_dir, work, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
children = []

def spawn(args, **kwargs):
    process = subprocess.Popen(args, **kwargs)
    children.append(process)
    return process

def first_line_port(process):
    return int(process.stdout.readline().decode().split()[-1])

try:
    # The misbehaving stream server (no audio needed: only its error paths are asked) and a port nothing
    # listens on for its dead playlist entries.
    probe = socket.socket(); probe.bind(("127.0.0.1", 0)); dead_port = probe.getsockname()[1]; probe.close()
    server = spawn(["python3", f"{root}/Tests/AudioTests/Fixtures/misbehaving_server.py", "/dev/null", str(dead_port)],
                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    streams = f"http://127.0.0.1:{first_line_port(server)}"
    cases = [("404", f"{streams}/notfound"), ("NXDOMAIN (.invalid)", "http://dead-station.invalid/stream"),
             ("NXDOMAIN (resolver)", "http://no-such-station.wavedial.example/stream")]
    contrast = ("503 (not definitive)", f"{streams}/status/503")
    stations = []
    for index, (name, url) in enumerate(cases + [contrast]):
        stations.append({"stationuuid": f"00000000-0000-4000-8000-0000000dead{index}", "name": f"Dead {index} FM",
                         "url": url, "url_resolved": url, "countrycode": "DE", "country": "Germany", "codec": "MP3",
                         "bitrate": 128, "hls": 0, "lastcheckok": 1, "geo_lat": 52.52, "geo_long": 13.40 + index / 100})
    with open(f"{work}/stations.json", "w") as f:
        json.dump(stations, f)
    catalog = spawn(["python3", f"{root}/Tests/Fixtures/radio_browser_server.py", "--stations", f"{work}/stations.json"],
                    stdout=subprocess.PIPE)
    with open(f"{work}/config.toml", "w") as f:
        f.write(f"""[location]
latitude = 52.52
longitude = 13.405
country = "DE"
[catalog]
database = "{work}/wavedial.sqlite"
servers = ["http://127.0.0.1:{first_line_port(catalog)}"]
[audio]
device = "null"
allowed_addresses = ["127.0.0.0/8"]
[daemon]
resume_on_start = false
[control]
socket = "{work}/control.sock"
""")
    env = dict(os.environ, WAVEDIAL_CONFIG=f"{work}/config.toml")
    cli = f"{bin_dir}/wavedial"
    subprocess.run([cli, "sync"], env=env, check=True, stdout=subprocess.DEVNULL)
    spawn([f"{bin_dir}/wavediald", "--headless"], env=env, stdout=subprocess.DEVNULL, stderr=open(f"{work}/daemon.log", "w"))
    while subprocess.run([cli, "status"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        time.sleep(0.05)

    # Every status the daemon publishes, stamped on arrival.
    seen, lock = [], threading.Lock()
    follower = spawn([cli, "status", "--follow", "--json"], env=env, stdout=subprocess.PIPE)
    def follow():
        for line in follower.stdout:
            with lock:
                seen.append((time.monotonic(), json.loads(line)))
    threading.Thread(target=follow, daemon=True).start()

    def tune_until_failed(uuid, limit):
        t0 = time.monotonic()
        subprocess.run([cli, "tune", uuid], env=env, check=True, stdout=subprocess.DEVNULL)
        while time.monotonic() - t0 < limit:
            with lock:
                for stamp, status in seen:
                    if stamp >= t0 and status.get("state") == "failed" and \
                            (status.get("station") or {}).get("stationuuid") == uuid:
                        return stamp - t0, status.get("error_detail"), status.get("error")
            time.sleep(0.005)
        return None, None, None

    results = {name: [] for name, _ in cases}
    details = {}
    for _ in range(reps):
        for index, (name, _) in enumerate(cases):
            elapsed, detail, error = tune_until_failed(stations[index]["stationuuid"], 30)
            results[name].append(elapsed)
            details[name] = f"{error}: {detail}"
    print(f"== tune a dead station → failed answer ({reps} runs each, default start_timeout_seconds = 15)")
    for name, _ in cases:
        times = [t for t in results[name] if t is not None]
        missed = len(results[name]) - len(times)
        summary = f"median {statistics.median(times):.2f} s, max {max(times):.2f} s" if times else "no answer"
        print(f"{name:22} {summary}{f', {missed} runs without an answer in 30 s' if missed else ''}  ({details[name]})")
    elapsed, detail, error = tune_until_failed(stations[len(cases)]["stationuuid"], 30)
    print(f"{contrast[0]:22} {'%.2f s' % elapsed if elapsed else 'no answer in 30 s'}  ({error}: {detail})")
    print(f"== machine: {os.cpu_count()} cores, {os.uname().machine}, {time.strftime('%Y-%m-%d', time.gmtime())}")
finally:
    for process in reversed(children):
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
PY
