#!/usr/bin/env python3
"""The arm64 appliance check of scripts/test.d/arm64-vm, in two halves.

guest (inside the arm64 guest, scripts/pi-vm/vmrun.sh): installs the unpacked arm64 .deb's files,
makes a gpio-sim chip for the knob, serves a tone over loopback HTTP (busybox httpd) and a catalog of
three stations around Berlin (Tests/Fixtures/radio_browser_server.py), syncs it with the arm64
`wavedial`, starts `wavediald` as the appliance (no --headless: the knob on gpio-sim, libgpiod 2),
turns the knob with gpio-sim pull changes in the encoder's Gray code and checks that a station plays
and that a further turn tunes the next one. ALSA goes through the `file` plugin into OUT/capture.raw
(S16_LE, 2 channels, 48 kHz) over snd-aloop, which paces it as a DAC would. Reads the daemon's
VmRSS/VmHWM while it plays and writes OUT/results.json.

analyse (on the host, after the guest exits): checks the tone's frequency in the part of OUT/capture.raw the
second station played alone (the method of WavedialTestSupport's PCMAnalysis.frequency) and prints the figures.

    appliance.py guest PKG_TREE WORK OUT      PKG_TREE: dpkg-deb -x of the .deb; WORK: tone.mp3
    appliance.py analyse OUT                  exit status 0 when everything held
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

TONE_HZ = 440
RATE, CHANNELS = 48000, 2
CHIP_LABEL = "wavedial-knob"
ENCODER_A, ENCODER_B = 17, 27          # hardware/pinmap.toml's knob pins, offsets on the simulated chip
STEP_MHZ = 0.1
# Emulated (TCG) arm64 runs the Swift binaries about ten times slower than a Pi: bounded, generous waits.
READY_TIMEOUT = 120
TUNE_TIMEOUT = 120
STATIONS = [  # name, latitude, longitude: a few km apart around Berlin, the config's location
    ("Knob FM Mitte", 52.52, 13.40),
    ("Knob FM Pankow", 52.57, 13.41),
    ("Knob FM Spandau", 52.53, 13.20),
]


def log(message):
    print(f"appliance: {message}", flush=True)


def fail(message):
    log(f"FAILED: {message}")
    sys.exit(1)


def uptime():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


class GPIOSim:
    """A gpio-sim chip of 32 lines labelled CHIP_LABEL (configfs), driven through sysfs pulls."""

    def __init__(self):
        self.config = "/sys/kernel/config/gpio-sim/appliance"
        os.makedirs(f"{self.config}/bank0")
        write(f"{self.config}/bank0/num_lines", "32")
        write(f"{self.config}/bank0/label", CHIP_LABEL)
        write(f"{self.config}/live", "1")
        chip = open(f"{self.config}/bank0/chip_name").read().strip()
        device = open(f"{self.config}/dev_name").read().strip()
        self.sysfs = f"/sys/devices/platform/{device}/{chip}"
        self.levels = {}

    def pull(self, offset, high):
        write(f"{self.sysfs}/sim_gpio{offset}/pull", "pull-up" if high else "pull-down")
        self.levels[offset] = high

    def turn(self, detents, quarter_seconds=0.04):
        """Turns the encoder (A on ENCODER_A, B on ENCODER_B, resting high: pull-up bias) by `detents`,
        four quarter steps each, in the Gray code EncoderSignalGenerator makes: forwards 00→10→11→01."""
        forwards = [(0, 0), (1, 0), (1, 1), (0, 1)]
        order = forwards if detents > 0 else list(reversed(forwards))
        state = (int(self.levels.get(ENCODER_A, True)), int(self.levels.get(ENCODER_B, True)))
        index = order.index(state)
        for _ in range(abs(detents) * 4):
            index = (index + 1) % 4
            a, b = order[index]
            if a != state[0]:
                self.pull(ENCODER_A, bool(a))
            if b != state[1]:
                self.pull(ENCODER_B, bool(b))
            state = (a, b)
            time.sleep(quarter_seconds)


def cli(config, *arguments, check=True):
    result = subprocess.run(["wavedial", "--config", config, *arguments], capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        fail(f"wavedial {' '.join(arguments)}: status {result.returncode}: {result.stderr.strip()}")
    return result


def status(config):
    result = cli(config, "status", "--json", check=False)
    try:
        return json.loads(result.stdout) if result.returncode == 0 else {}
    except json.JSONDecodeError:
        return {}


def wait_for(what, timeout, condition):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    fail(f"{what}: not within {timeout} s")


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])  # kB
    return fields


def guest(package, work, out):
    # The .deb's files, as dpkg would unpack them (the guest root is a throwaway overlay).
    shutil.copytree(package, "/", symlinks=True, dirs_exist_ok=True)
    for binary in ("wavedial", "wavediald", "wavedial-player"):
        with open(f"/usr/bin/{binary}", "rb") as f:
            header = f.read(20)
        if header[:4] != b"\x7fELF" or int.from_bytes(header[18:20], "little") != 183:  # EM_AARCH64
            fail(f"/usr/bin/{binary} from the .deb is not an arm64 executable")
    log("the .deb's arm64 binaries installed")

    sim = GPIOSim()
    os.makedirs("/run/wavedial", exist_ok=True)
    os.makedirs("/var/lib/wavedial", exist_ok=True)
    helpers = []
    try:
        helpers.append(subprocess.Popen(["httpd", "-f", "-p", "127.0.0.1:8000", "-h", work]))
        url = "http://127.0.0.1:8000/tone.mp3"
        stations = [{
            "changeuuid": f"10000000-0000-4000-8000-00000000000{n}", "stationuuid": f"00000000-0000-4000-8000-00000000a00{n}",
            "name": name, "url": url, "url_resolved": url, "homepage": "", "favicon": "", "tags": "test",
            "country": "Germany", "countrycode": "DE", "state": "Berlin", "language": "", "languagecodes": "",
            "votes": 10, "lastchangetime": "2025-06-01 12:00:00", "lastchangetime_iso8601": "2025-06-01T12:00:00Z",
            "codec": "MP3", "bitrate": 64, "hls": 0, "lastcheckok": 1, "lastchecktime": "2025-06-01 12:00:00",
            "clickcount": 0, "clicktrend": 0, "ssl_error": 0, "geo_lat": lat, "geo_long": lon,
            "geo_distance": None, "has_extended_info": False,
        } for n, (name, lat, lon) in enumerate(STATIONS)]
        write("/tmp/stations.json", json.dumps(stations))
        catalog = subprocess.Popen(["python3", "Tests/Fixtures/radio_browser_server.py", "--stations", "/tmp/stations.json"],
                                   stdout=subprocess.PIPE, text=True)
        helpers.append(catalog)
        port = int(catalog.stdout.readline())

        # The paced sink: plug converts to a known format, `file` keeps a copy, snd-aloop paces.
        write("/etc/asound.conf", f"""
pcm.appliance {{
    type plug
    slave {{ pcm "capturefile"; format S16_LE; channels {CHANNELS}; rate {RATE} }}
}}
pcm.capturefile {{
    type file
    slave.pcm "hw:Loopback,0,0"
    file "{out}/capture.raw"
    format "raw"
}}
""")
        config = "/etc/wavedial/config.toml"
        os.makedirs("/etc/wavedial", exist_ok=True)
        write(config, f"""[location]
latitude = 52.52
longitude = 13.405
country = "DE"
[catalog]
database = "/var/lib/wavedial/wavedial.sqlite"
servers = ["http://127.0.0.1:{port}"]
[dial]
snap_delay_ms = 400
[display]
driver = "none"
[audio]
device = "appliance"
allowed_addresses = ["127.0.0.1"]
[hardware]
backend = "gpiod"
chip = "{CHIP_LABEL}"
[hardware.encoder]
a = {ENCODER_A}
b = {ENCODER_B}
acceleration = false
[control]
socket = "/run/wavedial/control.sock"
""")
        cli(config, "sync")
        dial = json.loads(cli(config, "dial", "--json").stdout)
        log("the dial: " + ", ".join(f"{s['frequency_mhz']} {s['name']}" for s in dial))
        if len(dial) != len(STATIONS):
            fail(f"the dial holds {len(dial)} stations, not {len(STATIONS)}")

        # start → ready as docs/BENCHMARKS.md counts it: process spawn to the control socket answering
        daemon_log = open(f"{out}/daemon.log", "w")
        started = time.monotonic()
        daemon = subprocess.Popen(["wavediald", "--config", config], stdout=daemon_log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
        helpers.append(daemon)
        ready_ms = None
        while time.monotonic() - started < READY_TIMEOUT and daemon.poll() is None:
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                    probe.connect("/run/wavedial/control.sock")
                ready_ms = (time.monotonic() - started) * 1000
                break
            except OSError:
                time.sleep(0.01)
        if ready_ms is None:
            fail(f"wavediald not ready within {READY_TIMEOUT} s (status {daemon.poll()})")
        log(f"wavediald ready in {ready_ms:.0f} ms")
        wait_for("the knob's lines taken", 60, lambda: status(config).get("error") in (None, ""))

        sim.turn(5)
        first = wait_for("a station tuned and playing after 5 detents", TUNE_TIMEOUT, lambda: (
            lambda s: s["station"] if s.get("state") == "playing" and s.get("station") else None)(status(config)))
        log(f"the knob tuned {first['frequency_mhz']} {first['name']}: playing")
        time.sleep(8)  # playing: the figures below are the steady state, not the start
        playing = memory(daemon.pid)
        log(f"while playing: VmRSS {playing['VmRSS']} kB, VmHWM {playing['VmHWM']} kB")

        # The next station up the band (or down, at its top), reached detent by detent.
        others = sorted((s for s in dial if s["stationuuid"] != first["stationuuid"]),
                        key=lambda s: abs(s["frequency_mhz"] - first["frequency_mhz"]))
        target = others[0]
        detents = round((target["frequency_mhz"] - first["frequency_mhz"]) / STEP_MHZ)
        sim.turn(detents)
        second = wait_for(f"{target['name']} tuned and playing after {detents} detents", TUNE_TIMEOUT, lambda: (
            lambda s: s["station"] if s.get("state") == "playing" and s.get("station", {}) and
            s["station"]["stationuuid"] == target["stationuuid"] else None)(status(config)))
        log(f"{detents} more detents tuned {second['frequency_mhz']} {second['name']}: playing")
        # The tone is checked on what the second station played alone: before it lie the sweep's hiss and
        # fades across the detents, after it the fade out on SIGTERM.
        window_start = os.path.getsize(f"{out}/capture.raw")
        time.sleep(4)
        window_end = os.path.getsize(f"{out}/capture.raw")
        final = memory(daemon.pid)
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=60)
        if code != 0:
            fail(f"wavediald exited with status {code} on SIGTERM")
        results = {"ready_ms": round(ready_ms), "rss_kb": playing["VmRSS"], "hwm_kb": final["VmHWM"],
                   "stations": [first["name"], second["name"]], "window": [window_start, window_end], "tone_hz": TONE_HZ, "rate": RATE, "channels": CHANNELS}
        write(f"{out}/results.json", json.dumps(results))
    finally:
        for helper in helpers:
            if helper.poll() is None:
                helper.kill()
                helper.wait()


def frequency(samples, channels, rate):
    """PCMAnalysis.frequency: the median period between rising crossings (hysteresis ±1000, or a quarter of
    the loudest sample for a quieter capture, 64 at least), the shortest and longest tenth of periods left out."""
    mono = samples[::channels]
    hysteresis = max(min(1000, max((abs(value) for value in mono), default=0) // 4), 64)
    rising, low = [], False
    for index, value in enumerate(mono):
        if value < -hysteresis:
            low = True
        elif value > hysteresis and low:
            low = False
            rising.append(index)
    if len(rising) <= 2:
        return 0.0
    periods = sorted(b - a for a, b in zip(rising, rising[1:]))
    cut = len(periods) // 10
    kept = periods[cut:len(periods) - cut]
    return rate / (sum(kept) / len(kept))


def analyse(out):
    try:
        with open(f"{out}/results.json") as f:
            results = json.load(f)
    except (OSError, ValueError):
        print("appliance: no results from the guest", file=sys.stderr)
        return 1
    import array
    samples = array.array("h")
    with open(f"{out}/capture.raw", "rb") as f:
        samples.frombytes(f.read())
    seconds = len(samples) / results["channels"] / results["rate"]
    start, end = (offset // 2 // results["channels"] * results["channels"] for offset in results["window"])
    second = samples[start:end]
    second_seconds = len(second) / results["channels"] / results["rate"]
    hz = frequency(second, results["channels"], results["rate"])
    print(f"appliance: {seconds:.1f} s of audio captured, {second_seconds:.1f} s of them from the second station: "
          f"tone {hz:.1f} Hz (played {results['tone_hz']} Hz)")
    status = 0
    if seconds < 5:
        print("appliance: FAILED: less than 5 s of audio reached ALSA", file=sys.stderr)
        status = 1
    if second_seconds < 2:
        print("appliance: FAILED: less than 2 s of the second station reached ALSA", file=sys.stderr)
        status = 1
    if abs(hz - results["tone_hz"]) > results["tone_hz"] * 0.02:
        print("appliance: FAILED: the captured tone is not the one played", file=sys.stderr)
        status = 1
    print(f"arm64 guest: daemon RSS {results['rss_kb'] / 1024:.1f} MiB (VmHWM {results['hwm_kb'] / 1024:.1f} MiB), "
          f"start→ready {results['ready_ms']} ms")
    return status


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "guest":
        guest(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "analyse":
        sys.exit(analyse(sys.argv[2]))
    else:
        sys.exit(__doc__)
