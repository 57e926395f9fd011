#!/usr/bin/env python3
"""Measure one audio player against the loopback icecast rig (see README.md).

For each repetition it:
  * writes a private ALSA config whose PCM "bench" is  plug(S16_LE) -> file -> null.
    --sink paced (default): the file plugin pipes into bin/pacer, a software DAC that
      consumes exactly in real time, so the player blocks on ALSA as on hardware.
    --sink file: plain file plugin over "null"; writes return at once (no pacing).
    --native: no plug/S16 conversion; the player's own format reaches the file.
  * LD_PRELOADs bin/pcmshim.so to timestamp the first snd_pcm_write*/mmap_commit.
  * starts --cmd (the process that is measured), optionally waits for --ready, runs --before once
    and --trigger (t0 is then the trigger's start, else the spawn of --cmd),
  * polls the PCM output file (1 ms until first audio, then 10 ms),
  * optionally kills the server (icecast, or the HLS origin when FORMAT=hls: rig.sh kill-server)
    at --outage AT:DOWN (seconds after t0) and restarts it,
  * at t0+--duration samples CPU (utime+stime of the process tree, pacer excluded)
    and peak RSS (VmHWM), then stops the player.
Results: one JSON object per repetition appended to --results, and a summary line.
Placeholders in --cmd/--trigger/--watch: {url} {run} {bench} {here}.
"""
import argparse, glob, json, os, random, re, shlex, signal, statistics, subprocess, sys, threading, time, urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.environ.get("BENCH_DIR", "/tmp/wavedial-bench")
TICK = os.sysconf("SC_CLK_TCK")

ALSA_CONF = """\
pcm.bench_file {{ type file; slave.pcm "null"; file "{run}/pcm-%r-%c-%f.raw"; format "raw"; perm 0644; truncate false }}
pcm.bench_paced {{ type file; slave.pcm "null"; file "|exec {bench}/bin/pacer %r %c %b {run}/pcm-%r-%c-%f.raw"; format "raw" }}
pcm.bench {sink_def}
pcm.!default {{ type plug; slave.pcm "bench" }}
"""


def fmt_bytes_per_s(path):
    m = re.search(r"pcm-(\d+)-(\d+)-(\w+)\.raw$", path)
    rate, ch, f = int(m.group(1)), int(m.group(2)), m.group(3)
    width = {"S16_LE": 2, "S24_LE": 4, "S32_LE": 4, "FLOAT_LE": 4, "S24_3LE": 3, "U8": 1,
             "FLOAT64_LE": 8}.get(f, 2)
    return rate * ch * width, f"{rate}/{ch}/{f}"


def first_sound_offset(run, pcm_path, limit_s=20, thresh=32):
    import array
    files = sorted(glob.glob(pcm_path + "*"), key=lambda f: (len(f), f))   # x.raw, x.raw.0001, ...
    bps, _ = fmt_bytes_per_s(pcm_path)
    seen = 0
    for f in files:
        with open(f, "rb") as fh:
            while seen < limit_s * bps:
                b = fh.read(bps // 10)
                if not b:
                    break
                a = array.array("h"); a.frombytes(b[:len(b) // 2 * 2])
                for i, x in enumerate(a):
                    if x > thresh or x < -thresh:
                        return round((seen + 2 * i) / bps, 4)
                seen += len(b)
    return None


def proc_tree(root):
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as fh:
                s = fh.read()
        except OSError:
            continue
        r = s.rfind(")")
        comm = s[s.find("(") + 1:r]
        ppid = int(s[r + 2:].split()[1])
        kids.setdefault(ppid, []).append((int(d), comm))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        for c, comm in kids.get(p, []):
            if comm != "pacer":          # the software DAC is not part of the player
                todo.append(c)
    return out


def cpu_rss(root):
    """(cpu_seconds user+sys, sum VmHWM kB, sum VmRSS kB) over the process tree."""
    cpu = hwm = rss = 0
    for p in proc_tree(root):
        try:
            with open(f"/proc/{p}/stat") as fh:
                s = fh.read()
            f = s[s.rfind(")") + 2:].split()
            cpu += (int(f[11]) + int(f[12])) / TICK
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        hwm += int(line.split()[1])
                    elif line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
        except (OSError, IndexError):
            pass
    return cpu, hwm, rss


def listening(pid):
    try:
        out = subprocess.run(["ss", "-ltnupH"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return []
    return [l.split()[4] for l in out.splitlines() if f"pid={pid}," in l]


def subst(s, a, run):
    return s.format(url=a.url, run=run, bench=BENCH, here=HERE) if s else s


class LineLog(threading.Thread):
    """Timestamp every output line of a process (CLOCK_MONOTONIC)."""
    def __init__(self, stream, path):
        super().__init__(daemon=True)
        self.stream, self.path, self.lines = stream, path, []

    def run(self):
        with open(self.path, "w") as fh:
            buf = b""
            while True:
                chunk = self.stream.read1(65536) if hasattr(self.stream, "read1") else self.stream.read(4096)
                if not chunk:
                    break
                buf += chunk.replace(b"\r", b"\n")
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    t = time.monotonic()
                    txt = line.decode("utf-8", "replace")
                    self.lines.append((t, txt))
                    fh.write(f"{t:.6f} {txt}\n")
                    fh.flush()


def one_rep(a, rep):
    run = os.path.join(BENCH, "runs", a.name, time.strftime("%Y%m%d-%H%M%S") + f"-r{rep}")
    os.makedirs(run, exist_ok=True)
    tgt = "bench_paced" if a.sink == "paced" else "bench_file"
    if a.native:   # whatever format the player negotiates goes to the file untouched
        sink_def = f'{{ type copy; slave.pcm "{tgt}" }}'
    else:          # like a 16-bit DAC behind plughw: players' output converted to S16_LE
        sink_def = f'{{ type plug; slave {{ pcm "{tgt}"; format S16_LE }} }}'
    conf = os.path.join(run, "asound.conf")
    with open(conf, "w") as fh:
        fh.write(ALSA_CONF.format(run=run, bench=BENCH, sink_def=sink_def))
    env = dict(os.environ)
    env.update(ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{conf}", BENCH_RUN=run, BENCH_URL=a.url,
               BENCH_DIR=BENCH, PCMSHIM_LOG=os.path.join(run, "shim.log"),
               PCMSHIM_PORT=str(urllib.parse.urlsplit(a.url).port or 80),
               PACER_LOG=os.path.join(run, "pacer.log"))
    if a.loud:
        env["PCMSHIM_PEAKS"] = "1"
    if not a.no_shim:
        env["LD_PRELOAD"] = (os.path.join(BENCH, "bin", "pcmshim.so") + " " + env.get("LD_PRELOAD", "")).strip()
    for k, v in (kv.split("=", 1) for kv in a.env):
        env[k] = v

    if not a.no_ensure:   # the rig must be healthy before each repetition (not timed)
        subprocess.run([os.path.join(HERE, "rig.sh"), "ensure"], check=True)
    cmd = shlex.split(subst(a.cmd, a, run))
    t_spawn = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    plog = LineLog(proc.stdout, os.path.join(run, "player.log")); plog.start()
    t0 = t_spawn
    watch = wlog = None
    if a.ready:
        deadline = time.monotonic() + 20
        while subprocess.run(shlex.split(subst(a.ready, a, run)), env=env).returncode != 0:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit(f"{a.name}: not ready; see {run}/player.log")
            time.sleep(0.05)
    if a.watch:
        watch = subprocess.Popen(shlex.split(subst(a.watch, a, run)), env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        wlog = LineLog(watch.stdout, os.path.join(run, "watch.log")); wlog.start()
    if a.before:
        subprocess.run(shlex.split(subst(a.before, a, run)), env=env, check=True)
    cpu_pre = cpu_rss(proc.pid)[0]
    if a.trigger:
        time.sleep(a.settle + random.uniform(0, a.jitter))
        cpu_pre = cpu_rss(proc.pid)[0]
        t0 = time.monotonic()
        subprocess.run(shlex.split(subst(a.trigger, a, run)), env=env, check=True)

    series, last = [], -1           # (t, bytes) on change
    t_first = None
    pcm_path = None
    outage = None
    if a.outage:
        at, down = (float(x) for x in a.outage.split(":"))
        outage = {"at": at, "down": down}
    ev = {}
    restart_thread = None
    exited = None
    socks = None
    cpu_first = None
    end = t0 + a.duration
    while True:
        now = time.monotonic()
        if now >= end:
            break
        if exited is None and proc.poll() is not None:
            exited = now
            if not outage:
                break
        if pcm_path is None:
            g = glob.glob(os.path.join(run, "pcm-*.raw"))
            if g:
                pcm_path = g[0]
        if pcm_path:
            sz = 0   # a re-opened device (reconnect) adds pcm-*.raw.0001 etc. with the file sink
            for f in glob.glob(os.path.join(run, "pcm-*.raw*")):
                try:
                    sz += os.path.getsize(f)
                except OSError:
                    pass
            if sz != last:
                series.append((now, sz)); last = sz
                if sz > 0 and t_first is None:
                    t_first = now
                    cpu_first = cpu_rss(proc.pid)[0]
        if socks is None and now - t0 > 3 and exited is None:
            socks = listening(proc.pid)
        if outage:
            if "kill_req" not in ev and now >= t0 + outage["at"]:
                ev["kill_req"] = now
                def kill():
                    out = subprocess.run([os.path.join(HERE, "rig.sh"), "kill-server"],
                                         capture_output=True, text=True).stdout
                    ev["kill"] = float(out.split()[-1]) if out.strip() else time.monotonic()
                threading.Thread(target=kill, daemon=True).start()
            if "kill" in ev and restart_thread is None and now >= ev["kill"] + outage["down"]:
                def restart():
                    out = subprocess.run([os.path.join(HERE, "rig.sh"), "start-server"],
                                         capture_output=True, text=True).stdout
                    for l in out.splitlines():
                        k, _, v = l.partition(" ")
                        if k in ("up", "mount"):
                            ev[k] = float(v)
                        elif k == "crash":          # icecast died while starting; rig retried
                            ev.setdefault("icecast_crashes", []).append(float(v))
                restart_thread = threading.Thread(target=restart, daemon=True); restart_thread.start()
        time.sleep(0.001 if t_first is None else 0.01)

    t_sample = time.monotonic()
    gone = proc.poll() is not None
    cpu_end, hwm, rss = cpu_rss(proc.pid) if not gone else (None, None, None)
    pcm_at_sample = series[-1][1] if series else 0
    # stop
    for p in (watch, proc):
        if p and p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    for p in (watch, proc):
        if p:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL); p.wait()
    if restart_thread:
        restart_thread.join(timeout=40)
    plog.join(timeout=2)
    time.sleep(0.3)   # let the pacer drain its pipe

    res = {"name": a.name, "rep": rep, "sink": a.sink + ("-native" if a.native else ""), "run": run,
           "cmd": a.cmd, "trigger": a.trigger, "duration_s": a.duration}
    # A player that opens the device before it knows the stream's rate (wavedial: 44.1 kHz while it
    # connects) and reopens it at the stream's (48 kHz Opus) leaves an empty file of the first rate:
    # the format is the one the audio went to.
    played = {p: sum(os.path.getsize(f) for f in glob.glob(p + "*")) for p in glob.glob(os.path.join(run, "pcm-*.raw"))}
    if played and max(played.values()) > 0:
        pcm_path = max(played, key=played.get)
    if pcm_path:
        bps, fmt = fmt_bytes_per_s(pcm_path)
        res["pcm_format"] = fmt
        res["pcm_seconds_at_end"] = round(pcm_at_sample / bps, 3)   # when CPU was sampled
    else:
        bps = None
    if os.path.exists(env["PCMSHIM_LOG"]):
        for l in open(env["PCMSHIM_LOG"]):
            f = l.split()
            if f[0] == "first" and "ttfa_alsa_s" not in res:
                res["ttfa_alsa_s"] = round(int(f[2]) / 1e9 - t0, 4)
            elif f[0] == "connect" and "connect_s" not in res:
                res["connect_s"] = round(int(f[1]) / 1e9 - t0, 4)
            elif f[0] == "body" and "body_s" not in res:
                res["body_s"] = round(int(f[1]) / 1e9 - t0, 4)
        # the player's own share of the first audio: launch -> request, and first body byte -> ALSA
        if "body_s" in res and "ttfa_alsa_s" in res:
            res["body_to_alsa_s"] = round(res["ttfa_alsa_s"] - res["body_s"], 4)
        if a.loud:
            # the first write after t0 as loud as the programme plays in the second half of the window
            peaks = [(int(f[2]) / 1e9 - t0, int(f[5])) for f in (l.split() for l in open(env["PCMSHIM_LOG"]))
                     if f[0] == "peak" and int(f[4]) > 0]
            late = sorted(p for t, p in peaks if t >= a.duration / 2)
            if late:
                full = late[len(late) // 2]
                res["loud_peak"] = full
                res["ttfa_loud_s"] = next((round(t, 4) for t, p in peaks if t >= 0 and p >= a.loud * full), None)
    res["ttfa_file_s"] = round(t_first - t0, 4) if t_first else None
    # first non-silent sample (|x| > 32 of S16) in the output: guards against players that
    # start the device with silence; with the paced sink offset/rate maps to time
    off = first_sound_offset(run, pcm_path) if pcm_path and pcm_path.endswith("S16_LE.raw") else None
    res["first_sound_offset_s"] = off
    if off is not None and t_first and a.sink == "paced":
        res["ttfa_sound_s"] = round(t_first - t0 + off, 4)
    res["startup_to_t0_s"] = round(t0 - t_spawn, 4)
    if not gone:
        res["cpu_s"] = round(cpu_end - cpu_pre, 3)            # t0 .. t0+duration
        res["cpu_s_steady"] = round(cpu_end - cpu_first, 3) if cpu_first is not None else None
        res["steady_window_s"] = round(t_sample - t_first, 3) if t_first else None
        res["cpu_pct"] = round(100 * (cpu_end - cpu_pre) / max(1e-9, t_sample - t0), 2)
    res["peak_rss_kb"] = hwm
    res["rss_end_kb"] = rss
    res["listen_sockets"] = socks
    res["exited_at_s"] = round(exited - t0, 3) if exited else None
    underruns = []
    if os.path.exists(env["PACER_LOG"]):
        for l in open(env["PACER_LOG"]):
            f = l.split()
            if f[0] == "underrun":
                underruns.append((round(int(f[1]) / 1e9 - t0, 3), int(f[2])))
    res["underruns"] = underruns
    # metadata latency: rig title update -> first player/watch line with that title
    meta_lat = []
    try:
        updates = [(float(l.split()[0]), l.split(None, 1)[1].strip()) for l in open(os.path.join(BENCH, "rig", "meta.log"))]
    except OSError:
        updates = []
    lines = plog.lines + (wlog.lines if wlog else [])
    for tu, title in updates:
        if not (t0 < tu < t_sample - 8) or "FAILED" in title:
            continue
        key = title.split()[-1]          # "Track 00042" -> "00042"
        hits = [t for t, txt in lines if f"Track {key}" in txt and t >= tu - 0.5]
        meta_lat.append(round(min(hits) - tu, 3) if hits else None)
    res["meta_latency_s"] = meta_lat
    if outage:
        crashes = ev.pop("icecast_crashes", [])
        res["outage"] = {k: round(v - t0, 3) for k, v in ev.items()}
        res["outage"]["icecast_crashes"] = len(crashes)
        res["outage"]["down_s"] = outage["down"]
        tk = ev.get("kill")
        o = res["outage"]
        o.pop("kill_req", None)
        if tk:
            grow = [t for (t, _s) in series[1:]]          # times at which output grew
            last_growth = grow[-1] if grow else None
            o["last_output_s"] = round(last_growth - t0, 3) if last_growth else None
            # resumed: output still growing at the end of the window, after the mount came back
            resumed = (bool(grow) and "mount" in ev and exited is None
                       and last_growth >= t_sample - 1.0 and last_growth > ev["mount"])
            o["resumed"] = resumed
            if resumed:
                # largest hole in the output after the kill = what a listener hears as silence
                pts = [t for t in grow if t >= tk - 0.05]
                gaps = [(b - a, a, b) for a, b in zip(pts, pts[1:])]
                g, a_, b_ = max(gaps) if gaps else (0.0, tk, tk)
                o["silence_from_s"] = round(a_ - t0, 3)
                o["silence_to_s"] = round(b_ - t0, 3)
                o["audible_gap_s"] = round(g, 3)
                o["resume_after_mount_s"] = round(b_ - ev["mount"], 3)
                o["resume_after_kill_s"] = round(b_ - tk, 3)
            else:
                o["silence_from_s"] = o["last_output_s"]
                o["audible_gap_s"] = None
    with open(os.path.join(run, "series.tsv"), "w") as fh:
        for t, s in series:
            fh.write(f"{t - t0:.4f}\t{s}\n")
    with open(os.path.join(run, "result.json"), "w") as fh:
        json.dump(res, fh, indent=1)
    return res


def summarize(rs, keys=("ttfa_alsa_s", "ttfa_file_s", "ttfa_sound_s", "ttfa_loud_s", "cpu_s", "cpu_pct", "peak_rss_kb")):
    out = {}
    for k in keys:
        v = [r[k] for r in rs if r.get(k) is not None]
        if v:
            out[k] = {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True)
    ap.add_argument("--cmd", required=True, help="measured process, e.g. 'mpg123 -o alsa -a bench {url}'")
    ap.add_argument("--ready", help="poll this until exit 0 before --trigger")
    ap.add_argument("--trigger", help="command that starts playback; t0 = its start")
    ap.add_argument("--before", help="run once after --ready, before the settle and --trigger (not timed)")
    ap.add_argument("--settle", type=float, default=1.0, help="idle seconds before --trigger")
    ap.add_argument("--jitter", type=float, default=0.0, help="up to this many seconds more, at random: the trigger "
                    "does not fall at the same point of the stream's chunks in every run")
    ap.add_argument("--loud", type=float, help="FRACTION: ttfa_loud_s, the first ALSA write after t0 whose peak is "
                    "FRACTION of the median peak in the window's second half (a station's sound, not hiss)")
    ap.add_argument("--watch", help="extra command whose output lines are timestamped (metadata)")
    ap.add_argument("--url", default=os.environ.get("BENCH_URL", "http://127.0.0.1:18100/live.mp3"))
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sink", choices=["paced", "file"], default="paced")
    ap.add_argument("--native", action="store_true", help="no plug/S16 conversion")
    ap.add_argument("--outage", help="AT:DOWN kill icecast AT s after t0, restart DOWN s later")
    ap.add_argument("--pause", type=float, default=2.0, help="seconds between repetitions")
    ap.add_argument("--no-shim", action="store_true")
    ap.add_argument("--no-ensure", action="store_true", help="do not run 'rig.sh ensure' before each rep")
    ap.add_argument("--env", action="append", default=[], help="KEY=VALUE for the player")
    ap.add_argument("--results", default=os.path.join(BENCH, "results.jsonl"))
    a = ap.parse_args()
    rs = []
    for rep in range(1, a.reps + 1):
        r = one_rep(a, rep)
        rs.append(r)
        with open(a.results, "a") as fh:
            fh.write(json.dumps(r) + "\n")
        brief = {k: r.get(k) for k in ("ttfa_alsa_s", "ttfa_file_s", "ttfa_sound_s", "ttfa_loud_s", "cpu_s", "cpu_pct", "peak_rss_kb",
                                        "exited_at_s", "pcm_format", "pcm_seconds_at_end", "meta_latency_s")}
        if "outage" in r:
            brief["outage"] = r["outage"]
        print(f"[{a.name} rep {rep}] " + json.dumps(brief), flush=True)
        if rep < a.reps:
            time.sleep(a.pause)
    print(f"[{a.name} summary] " + json.dumps(summarize(rs)), flush=True)


if __name__ == "__main__":
    main()
