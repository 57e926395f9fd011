#!/usr/bin/env bash
# Builds wavedial_VERSION_ARCH.deb from a release build, for installing one build on
# several radios: `sudo apt install ./wavedial_*.deb`.
#
#   scripts/deploy/build-deb.sh                       # release build (static Swift runtime), out/deb/
#   scripts/deploy/build-deb.sh --from .build/debug --allow-unpackaged --out DIR   # what CI tests
#
# Options:
#   --from DIR           package the binaries in DIR instead of building a release
#   --out DIR            where the .deb goes (default out/deb)
#   --version V          package version (default 0.1.0~gitDATE.SHA of the last commit)
#   --allow-unpackaged   let the binaries need libraries no Debian package holds (a debug
#                        build's Swift runtime): such a package only runs where the toolchain is
#   --arch ARCH          package binaries built for another architecture (arm64, with --from;
#                        scripts/build-pi): stripped with that architecture's binutils
#   --root DIR           for --arch: the target system whose dpkg names the libraries' packages
#                        (the sysroot of scripts/pi/swift-sdk.sh)
# The package: wavedial (and wavediald when built) in /usr/bin, the systemd unit, udev rules,
# completions, man pages, the hardware docs, and /etc/wavedial/config.toml as a conffile.
# Its maintainer scripts (deploy/debian/) create the wavedial user and the device groups,
# enable and start the service, and on purge remove the database and the user; they honour
# DPKG_ROOT, so `dpkg --root DIR --force-script-chrootless` installs into a plain directory.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
from="" out=$repo/out/deb version="" allow=() arch="" root=()
while [ $# -gt 0 ]; do
  case "$1" in
    --from) from=$(realpath "$2"); shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    --version) version=$2; shift 2 ;;
    --allow-unpackaged) allow=(--allow-unpackaged); shift ;;
    --arch) arch=$2; shift 2 ;;
    --root) root=(--root "$(realpath "$2")"); shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-deb.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
command -v swift >/dev/null || PATH="/opt/swift/usr/bin:$PATH"
if [ -z "$from" ]; then
  from=$("$repo/scripts/build-release")
fi
if [ -z "$version" ]; then
  version="0.1.0~git$(git -C "$repo" log -1 --format=%cd --date=format:%Y%m%d%H%M%S).$(git -C "$repo" log -1 --format=%h)"
fi
strip=strip
if [ -z "$arch" ] || [ "$arch" = "$(dpkg --print-architecture)" ]; then
  arch=$(dpkg --print-architecture)
else
  # the host's strip knows only its own architecture's relocations
  case "$arch" in
    arm64) strip=aarch64-linux-gnu-strip ;;
    *) echo "build-deb.sh: no strip known for $arch" >&2; exit 64 ;;
  esac
  [ ${#root[@]} -gt 0 ] || { echo "build-deb.sh: --arch $arch needs --root (the $arch system's tree)" >&2; exit 64; }
  [ -n "$from" ] || { echo "build-deb.sh: --arch $arch needs --from (this machine builds for $(dpkg --print-architecture))" >&2; exit 64; }
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
"$repo/deploy/install.sh" --files-only --root "$stage" --prefix /usr --from "$from" >/dev/null
binaries=("$stage"/usr/bin/*)
# Symbols are for debugging, not for the radio (Swift's runtime metadata is not in them).
"$strip" --strip-unneeded "${binaries[@]}"

mkdir -p "$stage/DEBIAN"
depends=$("$repo/scripts/deploy/runtime-deps.sh" ${allow[@]+"${allow[@]}"} ${root[@]+"${root[@]}"} "${binaries[@]}" | paste -sd, | sed 's/,/, /g')
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: wavedial
Version: $version
Architecture: $arch
Maintainer: Wavedial <wavedial@localhost>
Installed-Size: $size
Depends: $depends, passwd
Recommends: i2c-tools, gpiod, alsa-utils
Section: sound
Priority: optional
Description: internet radio for the Raspberry Pi with a tuning knob
 Turn the knob and a needle sweeps a band on which the stations near you sit;
 let go and it snaps to the closest and plays. Five buttons, a character LCD,
 ALSA output, a station catalog from Radio Browser, favorites, and the
 wavedial maintenance CLI. Wiring: /usr/share/doc/wavedial/hardware/WIRING.md.
EOF
echo /etc/wavedial/config.toml > "$stage/DEBIAN/conffiles"
for script in postinst prerm postrm; do
  install -m 0755 "$repo/deploy/debian/$script" "$stage/DEBIAN/$script"
done
mkdir -p "$out"
deb=$out/wavedial_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
