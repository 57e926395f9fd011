#!/usr/bin/env python3
"""The one table of bench/run.sh: wavedial against mpg123, mpv and mpd, then the appliance's own
figures, from the logs and JSON lines the suites wrote into one run folder. Medians [min–max]
over the repetitions. A figure a suite did not produce prints as "—".
usage: summary.py --dir RUN_DIR [--machine TEXT] [--load TEXT]"""
import argparse, datetime, json, os, re, statistics

ap = argparse.ArgumentParser()
ap.add_argument("--dir", required=True)
ap.add_argument("--machine", default="")
ap.add_argument("--load", default="")
a = ap.parse_args()


def read(name):
    path = os.path.join(a.dir, name)
    return open(path, encoding="utf-8").read() if os.path.exists(path) else ""


def records(name):
    rows = {}
    for line in read(name).splitlines():
        if line.strip():
            r = json.loads(line)
            rows.setdefault(r["name"], []).append(r)
    return rows


def mm(values, fmt="{:.2f}"):
    v = [x for x in values if x is not None]
    if not v:
        return "—"
    if len(v) == 1:
        return fmt.format(v[0])
    return f"{fmt.format(statistics.median(v))} [{fmt.format(min(v))}–{fmt.format(max(v))}]"


audio = records("audio.jsonl")
daemon = records("daemon.jsonl")
# wavedial is `wavedial play-url` as a user types it; wavedial-player is the process it becomes, started
# directly, which shows what the CLI's own start adds.
peers = ["wavedial", "wavedial-player", "mpg123", "mpv", "mpd"]
outage = {"wavedial": "outage-wavedial", "mpg123": "outage-mpg123-retryloop",
          "mpv": "outage-mpv-lavf-reconnect", "mpd": "outage-mpd-watchdog"}


def per_hour(r):
    """An hour of playback: the rate while playing (first audio to the end) for 3600 s, plus one start.
    Scaling the whole run would count a start once a minute."""
    if r.get("cpu_s_steady") is None or not r.get("duration_s") or r.get("ttfa_file_s") is None:
        return None
    start = r["cpu_s"] - r["cpu_s_steady"]
    return r["cpu_s_steady"] / (r["duration_s"] - r["ttfa_file_s"]) * 3600 + start


def start_cpu(r):
    return r["cpu_s"] - r["cpu_s_steady"] if r.get("cpu_s") is not None and r.get("cpu_s_steady") is not None else None


def lag(rs):
    return [x for r in rs for x in r.get("meta_latency_s", []) if x is not None]


def ms(rs, key):
    return mm([r[key] * 1000 if r.get(key) is not None else None for r in rs], "{:.1f}")


player_rows = [
    ("first `snd_pcm_write*` after the launch (s); mpd: after `mpc play`", lambda rs: mm([r.get("ttfa_alsa_s") for r in rs], "{:.3f}"), "—"),
    ("launch → request sent (ms; the process's start)", lambda rs: ms(rs, "connect_s"), "—"),
    ("Icecast's first audio byte received → first `snd_pcm_write*` (ms)", lambda rs: ms(rs, "body_to_alsa_s"), "≤ 30 ms"),
    ("first non-silent sample (s)", lambda rs: mm([r.get("ttfa_sound_s") for r in rs], "{:.3f}"), "no silence added"),
    ("CPU seconds per hour of playback (the rate while playing, plus one start)", lambda rs: mm([per_hour(r) for r in rs], "{:.1f}"), "≤ mpg123's"),
    ("CPU seconds to start (request to first audio)", lambda rs: mm([start_cpu(r) for r in rs], "{:.2f}"), "—"),
    ("peak RSS (MiB)", lambda rs: mm([r["peak_rss_kb"] / 1024 if r.get("peak_rss_kb") else None for r in rs], "{:.1f}"), "≤ 20 MiB"),
    ("title lag behind the update (s)", lambda rs: mm(lag(rs)), "titles with their audio"),
]
print("## wavedial against its peers (same loopback Icecast stream, same paced ALSA sink)")
print()
floor = re.search(r"icecast first audio byte\s*: median ([0-9.]+) s", read("audio.log"))
if floor:
    print(f"Icecast's own floor, request → first audio byte: {floor.group(1)} s.")
    print()
print("| figure | " + " | ".join(peers) + " | target |")
print("|---|" + "---|" * (len(peers) + 1))
for label, cell, target in player_rows:
    print(f"| {label} | " + " | ".join(cell(audio.get(p, [])) for p in peers) + f" | {target} |")
recovery = lambda rs: mm([r["outage"].get("resume_after_mount_s") for r in rs if r.get("outage")])
resumed = lambda rs: f"{sum(1 for r in rs if r.get('outage', {}).get('resumed'))}/{len(rs)}" if rs else "—"
print("| audio back after the mount returns (s), 5 s Icecast outage | "
      + " | ".join(recovery(audio.get(outage.get(p), [])) for p in peers) + " | ≤ 0.5 s |")
print("| outages recovered | " + " | ".join(resumed(audio.get(outage.get(p), [])) for p in peers) + " | all |")
short = audio.get("short-outage-wavedial", [])
if short:
    # What the sink's clock heard: the pacer's underruns after the kill (the output file's growth has
    # holes of a few tens of milliseconds at any time: the file plugin writes in chunks).
    starved = [sum(ms for at, ms in r.get("underruns") or [] if at >= r["outage"]["kill"]) for r in short if r.get("outage")]
    heard = "none (no underrun at the sink)" if not any(starved) else mm([m / 1000 for m in starved], "{:.3f}") + " s of underrun"
    print(f"| audible gap, 2 s outage inside the buffered lead | {heard} "
          "| " + " | ".join("—" for _ in peers[1:]) + " | none |")
print()
print("Peers' reconnects are not their defaults (none of them reconnects by default): mpg123 runs in a")
print("restart loop, mpv with libavformat's reconnect options, mpd with a client that sends `play` when it stops.")
print()

print("## The appliance")
print()
print("| figure | result | target |")
print("|---|---|---|")
d = read("daemon.log")
m = re.search(r"start → ready: median (\d+) ms, max (\d+) ms", d)
print(f"| daemon start → ready (control socket answers) | {f'median {m.group(1)} ms, max {m.group(2)} ms' if m else '—'} | ≤ 300 ms |")
for size, p50, p99, mx in re.findall(r"detent → LCD, (\d+x\d+) at 100 kHz: p50 ([0-9.]+) ms\s+p99 ([0-9.]+) ms\s+max ([0-9.]+) ms", d):
    print(f"| detent → LCD updated, {size} | p50 {p50} ms, p99 {p99} ms, max {mx} ms | p99 ≤ 10 ms |")
knob = daemon.get("daemon-knob", [])
print(f"| knob rest → first audio at ALSA, rest excluded (s) | "
      f"{mm([r['ttfa_alsa_s'] - 0.4 if r.get('ttfa_alsa_s') is not None else None for r in knob], '{:.3f}')} | — |")
tune = daemon.get("daemon-tune", [])
print(f"| `wavedial tune` launched → first audio at ALSA (s) | {mm([r.get('ttfa_alsa_s') for r in tune], '{:.3f}')} | — |")
print(f"| `wavedial tune` launched → request sent (ms) | {ms(tune, 'connect_s')} | — |")
print(f"| Icecast's first audio byte received → first `snd_pcm_write*` (ms), tune and knob | {ms(tune + knob, 'body_to_alsa_s')} | ≤ 30 ms |")
print(f"| CPU seconds per hour while playing | {mm([per_hour(r) for r in knob], '{:.1f}')} | — |")
print(f"| RSS while playing (MiB) | {mm([r['peak_rss_kb'] / 1024 if r.get('peak_rss_kb') else None for r in knob], '{:.1f}')} | ≤ 30 MB (28.6 MiB) |")
c = read("catalog.log")
count = re.search(r"catalog: (\d+) stations", c)
for run, wall, rss in re.findall(r"^(empty|full): ([0-9.]+) s wall, (\d+) KiB peak RSS", c, re.M):
    what = "sync into an empty catalog" if run == "empty" else "re-sync over a full catalog"
    print(f"| {what} ({count.group(1) if count else '?'} stations) | {wall} s, {int(rss) / 1024:.0f} MiB peak RSS | ≤ 5 s, ≤ 64 MB |")
targets = {"nearby": "≤ 5 ms", "search": "≤ 20 ms"}
for name, p50, p99 in re.findall(r"^(\S.*?\S)\s+p50\s+([0-9.]+) ms\s+p99\s+([0-9.]+) ms", c, re.M):
    if "(" in name:  # the aggregates; the per-place and per-query lines stay in catalog.log
        print(f"| catalog: {name} | p50 {float(p50):.1f} ms, p99 {float(p99):.1f} ms | {targets.get(name.split()[0], '—')} |")
print()
print(f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {a.machine}; load average at the end {a.load}.")
