# Sourced by bench scripts after bench/radio.sh: three stations for the warm neighbours, the rig's
# programme on 94.1 and two tones beside it (96.1: 1000 Hz, 98.1: 700 Hz) fed to the rig's Icecast,
# served by a loopback Radio Browser of their own. Writes "$work/warm.toml" (warming on, the default)
# and "$work/off.toml" ([dial] warm_neighbours = 0), each with its own database and control socket,
# and syncs both. Needs: root, work, bin, url, PORT, BENCH_DIR. Stops its processes on EXIT.
feeders=()
warm_catalog=""
trap '"$root/bench/audio/rig.sh" stop >/dev/null; kill $catalog $warm_catalog "${feeders[@]}" 2>/dev/null || true' EXIT
mkdir -p "$BENCH_DIR/media"
for hz in 1000 700; do
  tone="$BENCH_DIR/media/tone-$hz.mp3"
  [ -s "$tone" ] || ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "sine=frequency=$hz:sample_rate=44100:duration=30" \
    -ac 2 -c:a libmp3lame -b:a 128k -write_xing 0 -id3v2_version 0 -f mp3 "$tone"
  ( trap "exit 0" TERM; while :; do ffmpeg -hide_banner -loglevel error -nostdin -re -stream_loop -1 -i "$tone" -c:a copy -f mp3 \
      -content_type audio/mpeg "icecast://source:benchpw@127.0.0.1:$PORT/tone-$hz.mp3" </dev/null || true; sleep 0.2; done ) &
  feeders+=($!)
done
for _ in $(seq 250); do
  status=$(curl -s --max-time 1 "http://127.0.0.1:$PORT/status-json.xsl" || true)
  [[ $status == *tone-1000.mp3* && $status == *tone-700.mp3* ]] && break
  sleep 0.1
done
python3 - "$url" "http://127.0.0.1:$PORT" "$work/warm-stations.json" <<'PY'
import json, sys
url, base, out = sys.argv[1:4]
rows = [("be01", "Bench FM 94.1", url), ("be02", "Tone 96.1", f"{base}/tone-1000.mp3"), ("be03", "Tone 98.1", f"{base}/tone-700.mp3")]
json.dump([{"stationuuid": f"00000000-0000-4000-8000-00000000{tail}", "name": name, "url": u, "url_resolved": u,
            "countrycode": "DE", "country": "Germany", "codec": "MP3", "bitrate": 128, "hls": 0, "lastcheckok": 1,
            "geo_lat": 52.52, "geo_long": 13.40} for tail, name, u in rows], open(out, "w"))
PY
python3 "$root/Tests/Fixtures/radio_browser_server.py" --stations "$work/warm-stations.json" >"$work/warm-port" &
warm_catalog=$!
for _ in $(seq 50); do [ -s "$work/warm-port" ] && break; sleep 0.1; done
for mode in warm off; do
  sed -e "s|$work/wavedial.sqlite|$work/$mode.sqlite|" -e "s|$work/control.sock|$work/$mode.sock|" \
      -e "s|^servers = .*|servers = [\"http://127.0.0.1:$(head -1 "$work/warm-port")\"]|" "$work/config.toml" >"$work/$mode.toml"
  [ $mode = off ] && printf '[dial]\nwarm_neighbours = 0\n' >>"$work/$mode.toml"
  WAVEDIAL_CONFIG="$work/$mode.toml" "$bin/wavedial" sync >/dev/null
done
