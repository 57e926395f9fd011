#!/usr/bin/env bash
# measure.py's trigger for the warm-neighbour runs of run.sh: tunes the station on 94.1, lets the radio
# settle for 20 s (its neighbour on 96.1 is warmed, when warming is on), then turns the knob 20 detents
# up to 96.1. Usage: turn-to-neighbour.sh BIN (the folder of wavedial).
set -euo pipefail
"$1/wavedial" tune 94.1 >/dev/null
sleep 20
"$1/wavedial" sim turn 20 >/dev/null
