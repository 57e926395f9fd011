#!/usr/bin/env python3
"""Checks hardware/pinmap.toml against the Raspberry Pi header and writes what follows from it.

    python3 hardware/pinmap.py check   # pin map sound, and WIRING.md, wiring.svg, config.txt up to date
    python3 hardware/pinmap.py write   # rewrite the tables in WIRING.md, wiring.svg and config.txt

Exit status 1 with one line per problem when `check` finds any. Standard library only.
"""
import html
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
PINMAP = HERE / "pinmap.toml"
WIRING = HERE / "WIRING.md"
SVG = HERE / "wiring.svg"
CONFIG_TXT = HERE / "config.txt"

# The 40-pin header of every Raspberry Pi since the B+: physical pin -> BCM GPIO number,
# or the supply it carries. GPIO0/1 (pins 27/28) are the HAT ID EEPROM's bus.
HEADER = {
    1: "3v3", 2: "5v", 3: 2, 4: "5v", 5: 3, 6: "gnd", 7: 4, 8: 14, 9: "gnd", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "gnd", 15: 22, 16: 23, 17: "3v3", 18: 24, 19: 10, 20: "gnd",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "gnd", 26: 7, 27: 0, 28: 1, 29: 5, 30: "gnd",
    31: 6, 32: 12, 33: 13, 34: "gnd", 35: 19, 36: 16, 37: 26, 38: 20, 39: "gnd", 40: 21,
}
DIRECTIONS = {"input", "output", "i2c", "power", "ground"}
BIASES = {"pull-up", "fixed pull-up", "none", "-"}
I2C_PINS = {2, 3}
I2S_PINS = {18, 19, 20, 21}
COLORS = {"encoder": "#1f77b4", "volume_encoder": "#17becf", "buttons": "#2ca02c", "ir": "#ff7f0e", "lcd_i2c": "#9467bd",
          "lcd_gpio": "#8c564b", "dac": "#d62728"}


def load():
    with PINMAP.open("rb") as f:
        return tomllib.load(f)["parts"]


def signals(parts):
    """Every (part, signal name, signal) in file order."""
    for part_name, part in parts.items():
        for name, signal in part["signals"].items():
            yield part_name, name, signal


def problems(parts):
    """What is wrong with the pin map itself, one line each."""
    found = []
    gpio_users, pin_users = {}, {}
    for part_name, name, s in signals(parts):
        label = f"{part_name}.{name}"
        for key in ("pin", "direction", "bias", "config", "to", "notes"):
            if key not in s:
                found.append(f"{label}: no {key}")
        pin, direction, gpio = s.get("pin"), s.get("direction"), s.get("gpio")
        if pin not in HEADER:
            found.append(f"{label}: pin {pin} is not on the 40-pin header")
            continue
        if direction not in DIRECTIONS:
            found.append(f"{label}: direction {direction!r} is not one of {sorted(DIRECTIONS)}")
        if s.get("bias") not in BIASES:
            found.append(f"{label}: bias {s.get('bias')!r} is not one of {sorted(BIASES)}")
        if direction in ("power", "ground"):
            want = {"power": ("3v3", "5v"), "ground": ("gnd",)}[direction]
            if gpio is not None or HEADER[pin] not in want:
                found.append(f"{label}: pin {pin} is {HEADER[pin]}, not a {direction} pin")
        elif HEADER[pin] != gpio:
            found.append(f"{label}: GPIO{gpio} is not on pin {pin} (pin {pin} is {HEADER[pin]})")
        if gpio in (0, 1):
            found.append(f"{label}: GPIO{gpio} belongs to the HAT ID EEPROM")
        if parts[part_name].get("group") == "input":
            if gpio in I2C_PINS | I2S_PINS:
                found.append(f"{label}: GPIO{gpio} must stay free for I2C (2, 3) and the I2S DAC (18-21)")
            if gpio is not None and s.get("bias") != "pull-up":
                found.append(f"{label}: inputs that switch to ground need bias pull-up")
        if gpio is not None:
            gpio_users.setdefault(gpio, []).append(label)
        # A supply or ground pin may feed several parts (the wires daisy-chained or joined).
        if direction not in ("power", "ground"):
            pin_users.setdefault(pin, []).append(label)
    for gpio, users in sorted(gpio_users.items()):
        if len(users) > 1:
            found.append(f"GPIO{gpio} is used twice: {', '.join(users)}")
    for pin, users in sorted(pin_users.items()):
        if len(users) > 1:
            found.append(f"pin {pin} is used twice: {', '.join(users)}")
    return found


def table(part):
    rows = ["| signal | BCM GPIO | header pin | direction | bias | config key | goes to | notes |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in part["signals"].items():
        gpio = f"GPIO{s['gpio']}" if "gpio" in s else {"3v3": "3.3 V", "5v": "5 V", "gnd": "GND"}[HEADER[s["pin"]]]
        config = f"`{s['config']}`" if s["config"] else ""
        rows.append(f"| {name} | {gpio} | {s['pin']} | {s['direction']} | {s['bias']} | {config} | {s['to']} | {s['notes']} |")
    return "\n".join(rows)


def wiring_md(parts, text):
    """WIRING.md with each `<!-- pinmap:PART -->` block replaced by the part's table."""
    out = []
    lines = iter(text.splitlines())
    seen = set()
    for line in lines:
        out.append(line)
        if line.startswith("<!-- pinmap:") and line.endswith("-->") and not line.startswith("<!-- pinmap:end"):
            part = line[len("<!-- pinmap:"):-3].strip()
            if part not in parts:
                raise SystemExit(f"WIRING.md names part {part!r}, which pinmap.toml does not have")
            seen.add(part)
            for skipped in lines:
                if skipped.startswith("<!-- pinmap:end"):
                    break
            else:
                raise SystemExit(f"WIRING.md: the block of {part!r} has no <!-- pinmap:end --> line")
            out.append(table(parts[part]))
            out.append("<!-- pinmap:end -->")
    missing = set(parts) - seen
    if missing:
        raise SystemExit(f"WIRING.md has no table for {', '.join(sorted(missing))}")
    return "\n".join(out) + "\n"


def svg(parts):
    """The header seen from above (pin 1 top left), each used pin coloured by part and labelled."""
    used, also = {}, {}
    for part_name, name, s in signals(parts):
        if s["pin"] in used:  # a shared supply pin: labelled by its first part, the others named after it
            also.setdefault(s["pin"], []).append(f"{part_name}.{name}")
        else:
            used[s["pin"]] = (part_name, name, s)
    titles = {name: part["title"] for name, part in parts.items()}
    pitch, top, cx_odd, cx_even = 22, 70, 640, 662
    width, height = 1302, top + 20 * pitch + 40 + 22 * len(parts)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           '<text x="651" y="24" font-size="15" text-anchor="middle" font-weight="bold">'
           'Wavedial wiring: Raspberry Pi 40-pin header, seen from above (generated from hardware/pinmap.toml)</text>',
           '<text x="651" y="44" text-anchor="middle">Left column: odd pins 1-39; right column: even pins 2-40. '
           'Bold labels: signals in use. The direct-wired LCD (brown) replaces the I2C backpack (purple).</text>',
           f'<rect x="{cx_odd - 14}" y="{top - 14}" width="{cx_even - cx_odd + 28}" height="{20 * pitch + 6}" '
           'rx="4" fill="#333"/>']
    for pin in range(1, 41):
        row, odd = (pin - 1) // 2, pin % 2 == 1
        x, y = (cx_odd if odd else cx_even), top + row * pitch
        what = HEADER[pin]
        function = {"3v3": "3.3V", "5v": "5V", "gnd": "GND"}.get(what, f"GPIO{what}")
        fill = COLORS[used[pin][0]] if pin in used else "#bbb"
        out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}" stroke="white" stroke-width="1"/>')
        out.append(f'<text x="{x}" y="{y + 3.5}" text-anchor="middle" fill="white" font-size="8">{pin}</text>')
        anchor, tx, lx = ("end", x - 22, x - 8) if odd else ("start", x + 22, x + 8)
        label = function
        weight = "normal"
        if pin in used:
            part_name, name, s = used[pin]
            user = " + ".join([f"{part_name}.{name}"] + also.get(pin, []))
            label = (f"{s['to']} \u2190 {user} \u2014 {function}" if odd
                     else f"{function} \u2014 {user} \u2192 {s['to']}")
            weight = "bold"
            out.append(f'<line x1="{lx}" y1="{y}" x2="{tx + (4 if odd else -4)}" y2="{y}" '
                       f'stroke="{COLORS[part_name]}" stroke-width="3"/>')
        out.append(f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" font-weight="{weight}" '
                   f'fill="{COLORS[used[pin][0]] if pin in used else "#666"}">{html.escape(label)}</text>')
    y = top + 20 * pitch + 30
    for part_name in parts:
        out.append(f'<rect x="40" y="{y - 10}" width="14" height="14" fill="{COLORS[part_name]}"/>')
        out.append(f'<text x="62" y="{y + 1}">{html.escape(part_name)}: {html.escape(titles[part_name])}</text>')
        y += 22
    out.append("</svg>")
    return "\n".join(out) + "\n"


def config_txt(parts):
    """The lines for /boot/firmware/config.txt."""
    enc = parts["encoder"]["signals"]
    vol = parts["volume_encoder"]["signals"]
    btn = parts["buttons"]["signals"]
    keys = ", ".join(str(btn[n]["gpio"]) for n in ("play", "pause", "back", "forward", "favorite"))
    # Linux key codes: KEY_ENTER, KEY_PLAYCD, KEY_PAUSECD, KEY_PREVIOUSSONG, KEY_NEXTSONG, KEY_BOOKMARKS.
    codes = [("push", enc["push"], 28), ("play", btn["play"], 200), ("pause", btn["pause"], 201),
             ("back", btn["back"], 165), ("forward", btn["forward"], 163), ("favorite", btn["favorite"], 156)]
    key_lines = "\n".join(f'# dtoverlay=gpio-key,gpio={s["gpio"]},keycode={code},label="{name}",gpio_pull=2'
                           for name, s, code in codes)
    return f"""# Wavedial: lines for /boot/firmware/config.txt (/boot/config.txt before Raspberry Pi OS 12).
# Generated from hardware/pinmap.toml by hardware/pinmap.py; deploy/install.sh adds the
# I2C line itself. Reboot after editing.

# I2C for the LCD backpack (GPIO2/3, header pins 3 and 5): /dev/i2c-1.
dtparam=i2c_arm=on

# The I2S DAC on GPIO{parts["dac"]["signals"]["bclk"]["gpio"]}-{parts["dac"]["signals"]["dout"]["gpio"]}: pick the overlay of your board and turn the
# on-board audio off so the DAC is the default ALSA card.
dtparam=audio=off
dtoverlay=hifiberry-dac
#   PCM5102A / PCM5100 boards, HiFiBerry DAC, DAC+ Zero/Lite ... hifiberry-dac
#   HiFiBerry DAC+, DAC2 HD, Raspberry Pi DAC+/Pro .............. hifiberry-dacplus (rpi-dacplus on Pi-branded HATs)
#   IQaudio / Raspberry Pi DAC Pro ............................... rpi-dacpro
#   Google AIY, MAX98357A amplifier boards ....................... max98357a
# A USB sound card needs no overlay: keep dtparam=audio=off and set its ALSA device.

# The volume knob (GPIO{vol["a"]["gpio"]}/{vol["b"]["gpio"]}/{vol["push"]["gpio"]}, [hardware.volume_encoder]) sits on SPI0's pins: leave
# SPI off (no dtparam=spi=on).

# The IR remote's receiver on GPIO{parts["ir"]["signals"]["out"]["gpio"]} (header pin {parts["ir"]["signals"]["out"]["pin"]}): the kernel decodes it (rc-core) into an input
# device named gpio_ir_recv, which wavediald reads with [ir] enabled = true. Load the remote's
# keymap with ir-keytable (hardware/REMOTE.md).
dtoverlay=gpio-ir,gpio_pin={parts["ir"]["signals"]["out"]["gpio"]},gpio_pull=up

# Not for Wavedial as it is: the kernel's own encoder and key drivers. wavediald reads the
# encoder (GPIO{enc["a"]["gpio"]}/{enc["b"]["gpio"]}/{enc["push"]["gpio"]}) and the buttons (GPIO {keys}) through libgpiod,
# debouncing and timing long presses itself; these overlays would claim the same lines and
# wavediald would report them busy. They are listed for other software (evdev readers):
# dtoverlay=rotary-encoder,pin_a={enc["a"]["gpio"]},pin_b={enc["b"]["gpio"]},relative_axis=1,steps-per-period=4
{key_lines}"""


def expected_files(parts):
    return {WIRING: wiring_md(parts, WIRING.read_text()), SVG: svg(parts), CONFIG_TXT: config_txt(parts)}


def main(argv):
    if len(argv) != 2 or argv[1] not in ("check", "write"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    parts = load()
    found = problems(parts)
    if found:
        for line in found:
            print(f"pinmap.toml: {line}", file=sys.stderr)
        return 1
    for path, text in expected_files(parts).items():
        if argv[1] == "write":
            path.write_text(text)
        elif not path.exists() or path.read_text() != text:
            found.append(f"{path.name} is out of date: run python3 hardware/pinmap.py write")
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
