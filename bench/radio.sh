# Sourced by bench scripts: a radio with one station to play. Starts the loopback Icecast rig of
# bench/audio (PORT, BENCH_DIR), serves a one-station catalog (the rig's stream on 94.1 near Berlin)
# from the loopback Radio Browser, writes "$work/config.toml" (database and control socket in
# "$work", [audio] device "default", the rig's loopback allowed past the stations' address policy),
# exports WAVEDIAL_CONFIG and syncs with "$bin/wavedial".
# Needs: root, work, bin. Optional: RADIO_STATION (the uuid's last 4 hex digits and the name, default
# "be01 Bench FM 94.1"), RADIO_AUDIO (more lines for [audio]), RADIO_CONFIG (more tables).
# Sets: url, catalog (the catalog server's PID); stops both on EXIT.
"$root/bench/audio/rig.sh" start
trap '"$root/bench/audio/rig.sh" stop >/dev/null; kill $catalog 2>/dev/null || true' EXIT
url=$("$root/bench/audio/rig.sh" url)

# A catalog with the rig's stream on 94.1 near Berlin, served by the loopback Radio Browser.
python3 - "$url" "$work/stations.json" ${RADIO_STATION:-be01 Bench FM 94.1} <<'PY'
import json, sys
url, out, tail, name = sys.argv[1], sys.argv[2], sys.argv[3], " ".join(sys.argv[4:])
stations = [{"stationuuid": f"00000000-0000-4000-8000-00000000{tail}", "name": name, "url": url,
             "url_resolved": url, "countrycode": "DE", "country": "Germany", "codec": "MP3", "bitrate": 128,
             "hls": 0, "lastcheckok": 1, "geo_lat": 52.52, "geo_long": 13.40}]
json.dump(stations, open(out, "w"))
PY
python3 "$root/Tests/Fixtures/radio_browser_server.py" --stations "$work/stations.json" >"$work/port" &
catalog=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
cat >"$work/config.toml" <<TOML
[location]
latitude = 52.52
longitude = 13.405
country = "DE"
[catalog]
database = "$work/wavedial.sqlite"
servers = ["http://127.0.0.1:$(head -1 "$work/port")"]
[audio]
device = "default"
allowed_addresses = ["127.0.0.0/8"]
${RADIO_AUDIO:-}
${RADIO_CONFIG:-}
[daemon]
resume_on_start = false
[control]
socket = "$work/control.sock"
TOML
export WAVEDIAL_CONFIG="$work/config.toml"
"$bin/wavedial" sync >/dev/null
