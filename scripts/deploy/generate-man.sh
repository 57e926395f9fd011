#!/usr/bin/env bash
# Writes the man pages of the given swift-argument-parser binaries into OUTDIR: one page a
# command (wavedial.1, wavedial.fav.add.1, ...), by swift-argument-parser's generate-manual
# tool (the tool behind its `generate-manual` plugin, built here in debug: the plugin itself
# would build the whole package in release first). Dated by the last commit, so that a
# rebuild from the same commit gives the same pages.
# Usage: generate-man.sh OUTDIR BINARY...
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: generate-man.sh OUTDIR BINARY..." >&2; exit 64; }
out=$1; shift
command -v swift >/dev/null || PATH="/opt/swift/usr/bin:$PATH"
cd "$repo"
swift build --product generate-manual -q >&2
tool="$(swift build --show-bin-path)/generate-manual"
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
mkdir -p "$out"
for binary in "$@"; do
  if ! "$binary" --experimental-dump-help >/dev/null 2>&1; then
    echo "generate-man.sh: $(basename "$binary") is not a swift-argument-parser tool: no man page" >&2
    continue
  fi
  "$tool" "$binary" --multi-page --date "$date" --output-directory "$out"
done
