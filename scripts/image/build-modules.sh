#!/usr/bin/env bash
# The kernel modules the SD-card image needs and Debian's arm64 kernel does not build: the PCM512x codec
# (CONFIG_SND_SOC_PCM512x_I2C is unset in Debian 13; the HiFiBerry DAC+ and its kind, overlay
# hardware/overlays/wavedial-pcm512x.dts), built out of tree from the same version's linux-source with
# trixie's aarch64 gcc-14, the compiler that kernel was built with, as scripts/pi-vm/build-kernel.sh builds
# gpio-sim for the test guest. Runs in the trixie root (scripts/pi/trixie-root.sh; its packages in
# scripts/pi/packages/trixie-root-vm.txt) with apt states of its own (the image's sources: main, updates
# and security), so the shared root gains no foreign architecture. Needs root.
#
#   scripts/image/build-modules.sh VERSION OUT
#
# VERSION is the image's kernel (`6.12.118+deb13-arm64`); OUT, inside the repository, gets
# snd-soc-pcm512x.ko and snd-soc-pcm512x-i2c.ko, kept until VERSION or this script changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: scripts/image/build-modules.sh VERSION OUT" >&2; exit 64; }
version=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
case $out/ in "$repo"/*) ;; *) echo "build-modules: OUT must be inside $repo" >&2; exit 2 ;; esac
stamp="$version $(sha256sum "$0" | cut -c1-16)"
if [ "${3:-}" != --in-root ]; then
    [ "$(cat "$out/stamp" 2>/dev/null)" != "$stamp" ] || exit 0
    exec nice "$repo/scripts/pi/trixie-root.sh" run "scripts/image/${0##*/}" "$version" "/src${out#"$repo"}" --in-root
fi
# Inside the trixie root from here on; the repository is /src.
abi=${version%-arm64}                          # 6.12.118+deb13
series=$(echo "$version" | cut -d. -f1-2)      # 6.12
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
work=$(mktemp -d -p "$out" work.XXXXXX)
trap 'rm -rf "$work"' EXIT
# apt for ARCH with the image's sources: the headers (arm64), the build tools (amd64: linux-kbuild is
# Multi-Arch foreign) and the sources (all) of exactly that version, which may be a security update.
fetch() {
    local arch=$1 state=$work/apt-$1; shift
    mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
    printf '%s\n' "deb [signed-by=$keyring] $mirror trixie main" "deb [signed-by=$keyring] $mirror trixie-updates main" \
        "deb [signed-by=$keyring] ${mirror%/debian}/debian-security trixie-security main" > "$state/sources.list"
    local apt=(-o Dir::Etc::SourceList="$state/sources.list" -o Dir::Etc::SourceParts=/nonexistent
               -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" -o Debug::NoLocking=1
               -o APT::Architecture="$arch" -o APT::Architectures::="$arch" -o APT::Sandbox::User=root)
    apt-get "${apt[@]}" update -qq
    (cd "$work/download" && apt-get "${apt[@]}" download -q "$@") 2>&1 | { grep -v '^Get:' >&2 || true; }
}
mkdir -p "$work/download" "$work/tree"
fetch arm64 "linux-headers-$version" "linux-headers-$abi-common"
debver=$(dpkg-deb -f "$work"/download/linux-headers-"$version"_*.deb Version)
fetch amd64 "linux-kbuild-$abi=$debver" "linux-source-$series=$debver"
for deb in "$work"/download/linux-headers-*.deb "$work"/download/linux-kbuild-*.deb; do dpkg-deb -x "$deb" "$work/tree"; done
headers=$work/tree/usr/src/linux-headers-$version
[ -f "$headers/Makefile" ] && [ -d "$work/tree/usr/lib/linux-kbuild-$abi" ] ||
    { echo "build-modules: the headers or linux-kbuild of $version did not unpack" >&2; exit 1; }
# The arm64 headers include the common ones by absolute path.
sed -i "s|^include /usr/src/|include $work/tree/usr/src/|" "$headers/Makefile"
src=linux-source-$series
dpkg-deb --fsys-tarfile "$work"/download/linux-source-"$series"_*.deb | tar -xO "./usr/src/$src.tar.xz" > "$work/$src.tar.xz"
tar -xJf "$work/$src.tar.xz" -C "$work" --occurrence=1 \
    "$src/sound/soc/codecs/pcm512x.c" "$src/sound/soc/codecs/pcm512x.h" "$src/sound/soc/codecs/pcm512x-i2c.c"
mkdir -p "$work/pcm512x"
mv "$work/$src"/sound/soc/codecs/pcm512x* "$work/pcm512x/"
printf 'obj-m := snd-soc-pcm512x.o snd-soc-pcm512x-i2c.o\nsnd-soc-pcm512x-y := pcm512x.o\nsnd-soc-pcm512x-i2c-y := pcm512x-i2c.o\n' \
    > "$work/pcm512x/Kbuild"
make -C "$headers" M="$work/pcm512x" -j2 modules > "$work/module.log" 2>&1 || { tail -40 "$work/module.log" >&2; exit 1; }
for module in snd-soc-pcm512x snd-soc-pcm512x-i2c; do
    magic=$(modinfo -F vermagic "$work/pcm512x/$module.ko")
    case $magic in "$version "*) ;; *) echo "build-modules: $module was built for '$magic', not $version" >&2; exit 1 ;; esac
    # Their debugging sections are most of their size (650 KB → 60 KB); the kernel needs none of them.
    aarch64-linux-gnu-strip --strip-debug -o "$out/$module.ko" "$work/pcm512x/$module.ko"
done
echo "$stamp" > "$out/stamp"
