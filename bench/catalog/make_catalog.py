#!/usr/bin/env python3
"""Derives a Radio Browser-format catalog of N stations from the shared real records
(../shared/data), with new uuids and jittered coordinates, for the catalog benchmark.
The output is written to a file given on the command line (never into the project)."""
import json
import random
import sys
import uuid

count, out = int(sys.argv[1]), sys.argv[2]
shared = sys.argv[3] if len(sys.argv) > 3 else "../shared/data"
geo = json.load(open(f"{shared}/radiobrowser-geo-sample.json"))
codec = json.load(open(f"{shared}/radiobrowser-codec-sample.json"))
rng = random.Random(42)
stations = []
for n in range(count):
    base = dict(geo[n % len(geo)])
    extra = codec[n % len(codec)]
    base["stationuuid"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    base["codec"] = extra.get("codec", "MP3")
    base["bitrate"] = extra.get("bitrate", 0)
    base["hls"] = 1 if n % 97 == 0 else 0
    base["lastcheckok"] = 0 if n % 23 == 0 else 1
    base["language"] = ["english", "german", "spanish", "french", ""][n % 5]
    if n >= len(geo):
        base["name"] = f"{base['name']} {n // len(geo)}"
        if base.get("geo_lat") is not None and n % 5 != 0:
            base["geo_lat"] = max(-90, min(90, base["geo_lat"] + rng.uniform(-1, 1)))
            base["geo_long"] = max(-180, min(180, base["geo_long"] + rng.uniform(-1, 1)))
        else:
            base["geo_lat"] = None
            base["geo_long"] = None
    stations.append(base)
json.dump(stations, open(out, "w"))
print(f"{count} stations, {sum(len(json.dumps(s)) for s in stations) // 1048576} MiB of JSON -> {out}")
