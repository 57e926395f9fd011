#!/usr/bin/env python3
"""Listens to the image's guest for scripts/test.d/image: its serial console and its sound card.

QEMU starts paused (-S) with its HMP monitor on a Unix socket, its network card's link down, and its sound
card (intel-hda) recorded by the `wav` audio backend. This script:
  - powers the guest on (`cont`): time zero;
  - brings the link up when the guest's check asks for it (a console line "IMAGE-LINK-UP"), so that the
    radio starts without a network and gets one later, as a Pi joining Wi-Fi does;
  - notes the guest's reboot (the kernel's "reboot: Restarting system"): the second power-on;
  - reads the recording as QEMU writes it, and notes when the station's tone is first heard after each of
    those moments: 100 ms blocks whose level is above -50 dBFS (the radio plays it at about -35, after its
    loudness stage and volume) and whose zero crossings give the tone's frequency within 5 %. QEMU writes the recording only while the guest plays, so its times are the
    wall clock's at reading, not offsets in the file;
  - ends when QEMU does, and prints what it heard, one fact a line:
      heard-after-link SECONDS | none
      heard-after-reboot SECONDS | none
      frequency HZ
Python's standard library only.
"""
import argparse
import math
import os
import socket
import struct
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--console", required=True)
    parser.add_argument("--wav", required=True)
    parser.add_argument("--monitor", required=True, help="QEMU's HMP monitor socket")
    parser.add_argument("--nic", required=True, help="the network card's id (set_link)")
    parser.add_argument("--pid", type=int, required=True, help="QEMU's process")
    parser.add_argument("--tone", type=float, required=True, help="the station's tone in Hz")
    args = parser.parse_args()

    monitor = connect(args.monitor)
    command(monitor, f"set_link {args.nic} off")
    command(monitor, "cont")
    powered_on = time.monotonic()
    log(f"guest powered on, link down")

    console_seen = b""
    console_offset = 0
    wav = None
    wav_format = None
    pending = b""
    link_up_at = None
    reboot_at = None
    heard_after_link = None
    heard_after_reboot = None
    frequencies = []

    while alive(args.pid):
        now = time.monotonic()
        # The console: markers anywhere in what was added since the last look.
        try:
            with open(args.console, "rb") as f:
                f.seek(console_offset)
                added = f.read()
        except FileNotFoundError:
            added = b""
        console_offset += len(added)
        console_seen = (console_seen + added)[-4096:]
        if link_up_at is None and b"IMAGE-LINK-UP" in console_seen:
            command(monitor, f"set_link {args.nic} on")
            link_up_at = now
            log(f"link up at {now - powered_on:.1f} s")
        if reboot_at is None and b"reboot: Restarting system" in console_seen:
            reboot_at = now
            log(f"guest rebooted at {now - powered_on:.1f} s")
        # The sound card's recording.
        if wav is None and os.path.exists(args.wav):
            wav = open(args.wav, "rb")
        if wav is not None:
            pending += wav.read()
            if wav_format is None and len(pending) >= 44:
                wav_format = header(pending[:44])
                pending = pending[44:]
            if wav_format is not None:
                rate, channels = wav_format
                block = rate // 10 * channels * 2
                while len(pending) >= block:
                    chunk, pending = pending[:block], pending[block:]
                    frequency = tone_in(chunk, rate, channels)
                    if frequency is None or abs(frequency - args.tone) > args.tone * 0.05:
                        continue
                    frequencies.append(frequency)
                    if reboot_at is not None:
                        if heard_after_reboot is None:
                            heard_after_reboot = now - reboot_at
                            log(f"tone heard {heard_after_reboot:.1f} s after the reboot")
                    elif link_up_at is not None and heard_after_link is None:
                        heard_after_link = now - link_up_at
                        log(f"tone heard {heard_after_link:.1f} s after the link came up")
        time.sleep(0.05)

    print(f"heard-after-link {fmt(heard_after_link)}")
    print(f"heard-after-reboot {fmt(heard_after_reboot)}")
    print(f"frequency {sum(frequencies) / len(frequencies):.0f}" if frequencies else "frequency none")


def fmt(seconds):
    return "none" if seconds is None else f"{seconds:.1f}"


def log(text):
    print(f"guest-listener: {text}", file=sys.stderr, flush=True)


def connect(path):
    deadline = time.monotonic() + 30
    while True:
        try:
            monitor = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            monitor.connect(path)
            monitor.settimeout(5)
            return monitor
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def command(monitor, line):
    """Sends one HMP command; its echo and answer are read and dropped."""
    monitor.sendall(line.encode() + b"\n")
    time.sleep(0.1)
    try:
        monitor.recv(65536)
    except socket.timeout:
        pass


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (QEMU ended, its parent not yet waited) has no status file's "State: Z" but is gone for us.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def header(data):
    """(rate, channels) of a 16-bit PCM RIFF header, as QEMU's wav backend writes it."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise SystemExit("guest-listener: the recording is not a WAV file")
    channels, rate = struct.unpack_from("<HI", data, 22)
    bits = struct.unpack_from("<H", data, 34)[0]
    if bits != 16 or channels < 1:
        raise SystemExit(f"guest-listener: unexpected recording format ({bits} bits, {channels} channels)")
    return rate, channels


def tone_in(chunk, rate, channels):
    """The first channel's frequency by zero crossings, when the block is loud enough to be a tone."""
    samples = struct.unpack(f"<{len(chunk) // 2}h", chunk)[::channels]
    rms = math.sqrt(sum(s * s for s in samples) / len(samples))
    if rms < 32768 * 10 ** (-50 / 20):
        return None
    crossings = sum(1 for a, b in zip(samples, samples[1:]) if (a < 0) != (b < 0))
    return crossings / 2 / (len(samples) / rate)


if __name__ == "__main__":
    main()
