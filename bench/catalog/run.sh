#!/usr/bin/env bash
# Catalog benchmark: a 50,000-station sync through the real CLI from a loopback Radio
# Browser server (time and peak RSS), then nearby/search/dial latency on that catalog.
# Usage: bench/catalog/run.sh [STATIONS]     (default 50000; needs ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
count=${1:-50000}
work=${BENCH_DIR:-/tmp/wavedial-bench}/catalog
rm -rf "$work" && mkdir -p "$work"
scripts/install-deps build test-catalog
[ -x /usr/bin/time ] || scripts/install-deps bench/packages.txt

python3 bench/catalog/make_catalog.py "$count" "$work/stations.json" ../shared/data
bin=$(scripts/build-release --product wavedial)/wavedial
(cd bench && swift build -c release --product catalog-bench >/dev/null)

python3 Tests/Fixtures/radio_browser_server.py --stations "$work/stations.json" >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(head -1 "$work/port")
cat >"$work/config.toml" <<TOML
[location]
latitude = 52.52
longitude = 13.405
country = "DE"
[catalog]
database = "$work/wavedial.sqlite"
servers = ["http://127.0.0.1:$port"]
TOML
# The stand-in compresses the catalog on its first request (a second of Python) and keeps it; a
# real server streams it compressed. Warm it, so that the figure is the sync's own.
python3 -c 'import sys, urllib.request as u; u.urlopen(u.Request(sys.argv[1], headers={"Accept-Encoding": "gzip"})).read()' \
  "http://127.0.0.1:$port/json/stations?hidebroken=false"
echo "== sync of $count stations (gzip over loopback, into an empty database, then again over a full one)"
for run in empty full; do
  /usr/bin/time -f "$run: %e s wall, %M KiB peak RSS" "$bin" --config "$work/config.toml" sync 2>&1 | tail -2
done
echo "== queries"
"$(cd bench && swift build -c release --show-bin-path)/catalog-bench" "$work/wavedial.sqlite" 500
echo "== machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
