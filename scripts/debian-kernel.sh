#!/usr/bin/env bash
# Debian's own kernel for the test guests (scripts/deploy/vm, scripts/gpio-vm): the package
# linux-image-amd64 depends on, fetched with `apt-get download` and unpacked, never installed.
# Cached in $DEBIAN_KERNEL_DIR (default .build-debian-kernel/ in the repo) and fetched again when
# apt's linux-image-amd64 names another version; guests building at once share one download.
#
#   scripts/debian-kernel.sh fetch                prints the unpacked tree (boot/vmlinuz-VERSION,
#                                                 lib/modules/VERSION with modules.dep)
#   scripts/debian-kernel.sh modules MODULE...    prints the .ko files to insmod for MODULEs, in
#                                                 load order (dependencies first), each once
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${DEBIAN_KERNEL_DIR:-$here/../.build-debian-kernel}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

package() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'; }

fetch() {
    local name
    name=$(package)
    [ -n "$name" ] || { apt-get update -qq && name=$(package); }
    [ -n "$name" ] || { echo "debian-kernel: apt knows no linux-image-amd64 (apt-get update?)" >&2; exit 1; }
    exec 9>"$dir/lock"
    flock 9
    if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$name" ]; then
        rm -rf "$dir/tree" "$dir/download"
        mkdir -p "$dir/download"
        (cd "$dir/download" && apt-get download -q "$name" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
        local deb
        deb=$(ls "$dir"/download/*.deb 2>/dev/null | head -1)
        [ -n "$deb" ] || { echo "debian-kernel: could not download $name" >&2; exit 1; }
        dpkg-deb -x "$deb" "$dir/tree"
        rm -rf "$dir/download"
        depmod -b "$dir/tree" "$(ls "$dir/tree/lib/modules")"
        echo "$name" >"$dir/stamp"
    fi
    flock -u 9
    echo "$dir/tree"
}

case "${1:-}" in
    fetch) fetch ;;
    modules)
        shift
        tree=$(fetch)
        version=$(ls "$tree/lib/modules")
        for module in "$@"; do
            modprobe -d "$tree" -S "$version" --show-depends "$module" | awk '$1 == "insmod" { print $2 }'
        done | awk '!seen[$0]++'
        ;;
    *) echo "usage: $0 fetch | modules MODULE..." >&2; exit 2 ;;
esac
