#!/usr/bin/env bash
# Runs the GPIO input benchmark (bench/Sources/gpio-bench/main.swift) inside the gpio-vm guest and prints its figures.
# Usage: bench/gpio/run.sh [ORDERING_WINDOW_MS]   (GpiodBackend's edge ordering window; default 2)
# Not part of scripts/test: figures, not pass/fail. Record them in docs/BENCHMARKS.md ("Input").
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build --package-path bench --product gpio-bench >/dev/null
GPIO_VM_TIMEOUT=${GPIO_VM_TIMEOUT:-600} scripts/gpio-vm/vmrun.sh "$(swift build --package-path bench --show-bin-path)/gpio-bench" "$@"
