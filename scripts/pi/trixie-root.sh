#!/usr/bin/env bash
# A Debian 13 "trixie" root (debootstrap, amd64) with Debian's swiftlang and the packages in
# scripts/pi/packages/trixie-root*.txt: the toolchain Raspberry Pi OS trixie ships, run on this
# Debian 12 machine (swiftlang needs glibc 2.38). Cached in .build-pi/trixie-root; made once,
# and packages added to the list are installed on the next call. Needs root.
#
#   scripts/pi/trixie-root.sh ensure          makes or updates the root, prints its path
#   scripts/pi/trixie-root.sh run CMD [ARG…]  runs CMD inside it, in the repository (mounted at /src)
#
# `run` mounts /proc, /dev, /sys, the repository and /opt/swift-packages (the package mirror,
# with the host's git insteadOf rules) in a mount namespace of its own, so nothing stays mounted
# once CMD ends and the cache can be deleted with rm -rf. The repository's Package.resolved is
# covered by the root's own (/var/lib/wavedial/Package.resolved).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
root=${TRIXIE_ROOT:-$repo/.build-pi/trixie-root}
lists=("$repo"/scripts/pi/packages/trixie-root*.txt)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

wanted() { grep -hv '^\s*#' "${lists[@]}" | tr -s ' \n' '\n' | sed '/^$/d' | sort -u; }

# Runs "$@" chrooted in the root with the mounts above, in a private mount namespace.
in_root() {
    # The root resolves patched copies of some packages (scripts/pi/swift60-mirrors.sh), and SwiftPM
    # checks out exactly the revisions Package.resolved pins: the root keeps a file of its own over
    # the host's, which must exist to be covered (an empty one is a valid start for both).
    local empty='{"pins":[],"version":3}'
    mkdir -p "$root/var/lib/wavedial"
    [ -s "$root/var/lib/wavedial/Package.resolved" ] || echo "$empty" >"$root/var/lib/wavedial/Package.resolved"
    [ -e "$repo/Package.resolved" ] || echo "$empty" >"$repo/Package.resolved"
    unshare --mount --propagation private -- sh -ec '
        root=$1 repo=$2; shift 2
        # The root is a mount point of its own, so that "ip netns" can make / a slave mount.
        mount --bind "$root" "$root"
        mount --bind /proc "$root/proc"
        mount --bind /dev "$root/dev"
        mount --bind /sys "$root/sys"
        mkdir -p "$root/src" "$root/opt/swift-packages"
        mount --bind "$repo" "$root/src"
        mount --bind "$root/var/lib/wavedial/Package.resolved" "$root/src/Package.resolved"
        [ ! -d /opt/swift-packages ] || mount --bind /opt/swift-packages "$root/opt/swift-packages"
        exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
            LANG=C.UTF-8 TERM="${TERM:-dumb}" sh -c "cd /src && exec \"\$@\"" sh "$@"
    ' sh "$root" "$repo" "$@"
}

ensure() {
    mkdir -p "$(dirname "$root")"
    exec 9>"$root.lock"
    flock 9
    if [ ! -x "$root/usr/bin/apt-get" ] || [ ! -f "$root/.complete" ]; then
        rm -rf "$root"
        debootstrap --variant=minbase --include=ca-certificates trixie "$root" "$mirror" >"$root.log" 2>&1 \
            || { tail -20 "$root.log" >&2; echo "trixie-root: debootstrap failed (log: $root.log)" >&2; exit 1; }
        touch "$root/.complete"
    fi
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # SwiftPM resolves github.com through the host's package mirror: the same insteadOf rules.
    [ ! -f /etc/gitconfig ] || cp /etc/gitconfig "$root/etc/gitconfig"
    local missing=()
    for p in $(wanted); do
        chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "trixie-root: installing ${missing[*]}" >&2
        in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 1; }' sh "${missing[@]}" >&2
    fi
    flock -u 9
    echo "$root"
}

[ "$(id -u)" -eq 0 ] || { echo "trixie-root: needs root (debootstrap, chroot)" >&2; exit 1; }
case "${1:-}" in
    ensure) ensure ;;
    run) shift; ensure >/dev/null; in_root "$@" ;;
    *) echo "usage: scripts/pi/trixie-root.sh ensure | run CMD [ARG…]" >&2; exit 64 ;;
esac
