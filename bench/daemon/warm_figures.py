#!/usr/bin/env python3
"""The figures of run.sh's warm-neighbour runs, from measure.py's run folders: knob rest → the first PCM
of the station turned to at ALSA, and CPU and RSS while it plays.

The knob rest is the daemon's log line for that station once the needle snapped: "playing the station
tuned ahead" (the player adopts the connection made while the knob turned) or "tuning". While the knob
still turns the station is tuned ahead ("tuning ahead"), and with the sweep on it is heard from then on:
its first PCM is the first 10 ms window from the tune ahead (or the snap) on whose power lies at the
station's tone (Goertzel) and not in the programme before it; the snd_pcm_write* call that carried that
frame (pcmshim's trace, PCMSHIM_TRACE) gives the time. Two figures: knob rest → that first PCM (negative:
heard that long before the rest, through the sweep) and the tune ahead → it (the needle reached the
station; only where it was tuned ahead). CPU seconds per hour: the rate
from the first audio to the end of the run; RSS at the end (VmRSS) and its peak (VmHWM).
usage: warm_figures.py BENCH_DIR UUID TONE_HZ NAME... (measure.py run names)"""
import glob, json, math, os, statistics, sys

bench, uuid, tone, names = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
RATE, WINDOW = 44100, 441


def tone_share(samples, start):
    """How much of the window's power is at the tone (1 for a pure tone, about 0 for other audio)."""
    coefficient = 2 * math.cos(2 * math.pi * tone / RATE)
    previous = before = energy = 0.0
    for x in samples[start:start + WINDOW]:
        previous, before = x + coefficient * previous - before, previous
        energy += x * x
    power = previous * previous + before * before - coefficient * previous * before
    return power / (energy * WINDOW / 2) if energy > 0 else 0.0


def figures(run):
    lines = [l.split(None, 1) for l in open(os.path.join(run, "player.log"))]
    ahead = next((float(t) for t, text in lines if "tuning ahead" in text and uuid in text), None)
    snap = next((float(t) for t, text in lines if uuid in text and
                 ("playing the station tuned ahead" in text or ("tuning" in text and "tuning ahead" not in text))), None)
    writes = [l.split() for l in open(os.path.join(run, "shim.log")) if l.startswith("write ")]
    pcm = max(glob.glob(os.path.join(run, "pcm-44100-2-*.raw")), key=os.path.getsize, default=None)
    if snap is None or not writes or pcm is None:
        return None
    import array
    left = array.array("h")
    with open(pcm, "rb") as fh:
        data = fh.read()
    left.frombytes(data[:len(data) // 4 * 4])
    left = left[0::2]
    frames, calls = 0, []
    for _, _, t, n in writes:
        calls.append((int(t) / 1e9, frames, int(n)))
        frames += int(n)
    start = next((offset for t, offset, _ in calls if t >= (ahead if ahead is not None and ahead < snap else snap)), None)
    if start is None:
        return None
    found = next((f for f in range(start, len(left) - WINDOW, WINDOW) if tone_share(left, f) > 0.5), None)
    if found is None:
        return None
    carried = next(t for t, offset, n in calls if offset <= found < offset + n)
    result = json.load(open(os.path.join(run, "result.json")))
    rate = result["cpu_s_steady"] / result["steady_window_s"] * 3600 if result.get("steady_window_s") else None
    return {"first_pcm_ms": (carried - snap) * 1000,
            "ahead_pcm_ms": (carried - ahead) * 1000 if ahead is not None and ahead < snap else None, "cpu_s_per_hour": rate,
            "rss_mib": (result.get("rss_end_kb") or 0) / 1024, "peak_rss_mib": (result.get("peak_rss_kb") or 0) / 1024}


def spread(values, form):
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    return f"{form.format(statistics.median(values))} [{form.format(min(values))}–{form.format(max(values))}]"


for name in names:
    runs = [r for r in (figures(run) for run in sorted(glob.glob(os.path.join(bench, "runs", name, "*")))) if r]
    print(f"{name}: {len(runs)} runs")
    print(f"  knob rest (snap) → first PCM of the station turned to at ALSA (ms; negative: heard before): "
          f"{spread([r['first_pcm_ms'] for r in runs], '{:.1f}')}")
    print(f"  tuned ahead (the needle near it) → that first PCM (ms): {spread([r['ahead_pcm_ms'] for r in runs], '{:.1f}')}")
    print(f"  CPU seconds per hour while it plays: {spread([r['cpu_s_per_hour'] for r in runs], '{:.1f}')}")
    print(f"  RSS while it plays (MiB): {spread([r['rss_mib'] for r in runs], '{:.1f}')}, "
          f"peak {spread([r['peak_rss_mib'] for r in runs], '{:.1f}')}")
