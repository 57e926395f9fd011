#!/usr/bin/env python3
"""The formats tables of run.sh ("formats"): wavedial against mpv and mpd on each stream of the rig, one
table a figure, a row a format, medians [min–max] over the repetitions, and the verdict against the
target where there is one. Reads measure.py's JSON lines and run.sh's server floors ("floor-FORMAT").
usage: formats-summary.py RESULTS.jsonl"""
import json, statistics, sys

FORMATS = [("mp3", "MP3 128k"), ("aac", "AAC-LC 128k (ADTS)"), ("opus", "Opus 96k (Ogg)"),
           ("vorbis", "Vorbis 128k (Ogg)"), ("flac", "FLAC (Ogg)"), ("hls", "HLS (AAC in TS, 2 s segments)")]
PLAYERS = ["wavedial", "wavedial-player", "mpv", "mpd"]
PEERS = ["mpv", "mpd"]
OUTAGE = {"wavedial": "outage-wavedial", "mpv": "outage-mpv-lavf-reconnect", "mpd": "outage-mpd-watchdog"}

rows = {}
for line in open(sys.argv[1], encoding="utf-8"):
    if line.strip():
        r = json.loads(line)
        rows.setdefault(r["name"], []).append(r)
formats = [(f, label) for f, label in FORMATS if any(n.startswith(f + "-") for n in rows)]


def values(rs, fn):
    out = []
    for r in rs:
        try:
            v = fn(r)
        except (KeyError, TypeError):
            v = None
        if v is not None:
            out.append(v)
    return out


def mm(v, fmt):
    if not v:
        return "—"
    if len(v) == 1:
        return fmt.format(v[0])
    return f"{fmt.format(statistics.median(v))} [{fmt.format(min(v))}–{fmt.format(max(v))}]"


def med(v):
    return statistics.median(v) if v else None


def floor(f):
    fl = rows.get("floor-" + f)
    return fl[0]["floor_s"] if fl else None


def per_hour(r):
    """An hour of playback: the rate while playing (first audio to the end) for 3600 s, plus one start."""
    start = r["cpu_s"] - r["cpu_s_steady"]
    return r["cpu_s_steady"] / (r["duration_s"] - r["ttfa_file_s"]) * 3600 + start


def pipeline_ms(f):
    """The player's own share of the first audio: the server's first audio byte received -> first write
    to ALSA. HLS: the request sent -> the first write, less what a minimal client needs to have the
    first byte of its first segment (the floor: a playlist and a segment request)."""
    if f == "hls":
        fl = floor(f)
        return lambda r: (r["ttfa_alsa_s"] - r["connect_s"] - fl) * 1000 if fl is not None else None
    return lambda r: r["body_to_alsa_s"] * 1000


def failed(rs):
    """A player that never played this stream: say so instead of a dash."""
    return rs and all(r.get("ttfa_alsa_s") is None for r in rs)


def table(title, fn_for, fmt, verdict=None, players=PLAYERS, names=lambda f, p: f"{f}-{p}"):
    """A row a format, a column a player; fn_for(format) gives the figure of one repetition."""
    print(f"**{title}**")
    print()
    print("| format | " + " | ".join(players) + (" | verdict |" if verdict else " |"))
    print("|---|" + "---|" * (len(players) + (1 if verdict else 0)))
    for f, label in formats:
        cells = []
        for p in players:
            rs = rows.get(names(f, p), [])
            cells.append("did not play" if failed(rs) else mm(values(rs, fn_for(f)), fmt))
        line = f"| {label} | " + " | ".join(cells)
        print(line + (f" | {verdict(f)} |" if verdict else " |"))
    print()


def met(ok, text):
    return ("met" if ok else "**not met**") + f" ({text})" if ok is not None else "—"


def cpu_verdict(f):
    ours = med(values(rows.get(f"{f}-wavedial", []), per_hour))
    peers = [m for m in (med(values(rows.get(f"{f}-{p}", []), per_hour)) for p in PEERS) if m is not None]
    if ours is None or not peers:
        return "—"
    return met(ours <= min(peers), f"{ours:.1f} against {min(peers):.1f}")


def first_audio_verdict(f):
    ours = med(values(rows.get(f"{f}-wavedial", []), pipeline_ms(f)))
    return "—" if ours is None else met(ours <= 30, f"{ours:.1f} ms ≤ 30 ms")


def rss_verdict(f):
    ours = values(rows.get(f"{f}-wavedial-player", []) + rows.get(f"{f}-wavedial", []),
                  lambda r: r["peak_rss_kb"] / 1024)
    return "—" if not ours else met(max(ours) <= 20, f"max {max(ours):.1f} MiB ≤ 20 MiB")


def start_verdict(f):
    mp3 = med(values(rows.get("mp3-wavedial-player", []), lambda r: r["connect_s"] * 1000))
    ours = med(values(rows.get(f"{f}-wavedial-player", []), lambda r: r["connect_s"] * 1000))
    if ours is None or mp3 is None:
        return "—"
    return "(the reference)" if f == "mp3" else f"{ours - mp3:+.1f} ms against MP3"


def floor_cell(f):
    fl = rows.get("floor-" + f)
    if not fl:
        return "—"
    x = fl[0]
    unit = 1000
    return f"{x['floor_s'] * unit:.1f} [{x['floor_min_s'] * unit:.1f}–{x['floor_max_s'] * unit:.1f}]"


print("**The server's floor: request → first audio byte, a minimal client (ms; HLS: playlist, then the "
      "segment three target durations from the live edge)**")
print()
print("| format | floor (ms) |")
print("|---|---|")
for f, label in formats:
    print(f"| {label} | {floor_cell(f)} |")
print()
table("First `snd_pcm_write*` after the launch (s); mpd: after `mpc play`",
      lambda f: lambda r: r["ttfa_alsa_s"], "{:.3f}")
table("The player's own share of the first audio (ms): the server's first audio byte received → first "
      "`snd_pcm_write*` (HLS: request → first write, less the floor). Target: first audio ≤ the floor + 30 ms",
      pipeline_ms, "{:.1f}", first_audio_verdict)
table("Launch → request sent (ms; the process's start). Target: no worse than today's (MP3)",
      lambda f: lambda r: r["connect_s"] * 1000, "{:.1f}", start_verdict)
table("CPU seconds per hour of playback (user + system; the rate while playing, plus one start). "
      "Target: `wavedial` ≤ the best peer's", lambda f: per_hour, "{:.1f}", cpu_verdict)
table("Peak RSS (MiB, VmHWM). Target: the player ≤ 20 MiB", lambda f: lambda r: r["peak_rss_kb"] / 1024,
      "{:.1f}", rss_verdict)
outage_players = [p for p in OUTAGE]
# A hole under 0.1 s in the output is the file plugin writing in chunks, not silence: such a run never
# went silent (its buffered lead outlasted the outage) and has no "audio back" time.
SILENT = 0.1


def silent(r):
    return r.get("outage", {}).get("resumed") and (r["outage"].get("audible_gap_s") or 0) >= SILENT


out_formats = [(f, label) for f, label in formats if any(n.startswith(f"{f}-outage-") for n in rows)]
if out_formats:
    formats_all, formats = formats, out_formats
    table("Audio back after the server returns (s), a 5 s outage (Icecast killed; HLS: its HTTP server); "
          "runs that went silent", lambda f: lambda r: r["outage"]["resume_after_mount_s"] if silent(r) else None,
          "{:.2f}", players=outage_players, names=lambda f, p: f"{f}-{OUTAGE[p]}")
    table("Audible gap (s), the same outages: the longest hole in the output after the kill "
          "(under 0.1 s: never silent)", lambda f: lambda r: r["outage"].get("audible_gap_s"), "{:.2f}",
          players=outage_players, names=lambda f, p: f"{f}-{OUTAGE[p]}")
    print("**Outages recovered (of which never silent)**")
    print()
    print("| format | " + " | ".join(outage_players) + " |")
    print("|---|" + "---|" * len(outage_players))
    for f, label in formats:
        cells = []
        for p in outage_players:
            rs = rows.get(f"{f}-{OUTAGE[p]}", [])
            back = sum(1 for r in rs if r.get("outage", {}).get("resumed"))
            quiet = sum(1 for r in rs if r.get("outage", {}).get("resumed") and not silent(r))
            cells.append(f"{back}/{len(rs)} ({quiet})" if rs else "—")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    formats = formats_all
