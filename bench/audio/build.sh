#!/usr/bin/env bash
# Build the two helpers into $BENCH_DIR/bin (needs gcc + libasound2-dev).
set -euo pipefail
BENCH_DIR=${BENCH_DIR:-/tmp/wavedial-bench}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$BENCH_DIR/bin"
gcc -O2 -Wall -shared -fPIC -o "$BENCH_DIR/bin/pcmshim.so" "$here/src/pcmshim.c" -ldl
gcc -O2 -Wall -o "$BENCH_DIR/bin/pacer" "$here/src/pacer.c"
echo "built $BENCH_DIR/bin/pcmshim.so $BENCH_DIR/bin/pacer"
