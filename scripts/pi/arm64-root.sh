#!/usr/bin/env bash
# An arm64 Debian 13 "trixie" file tree made only of Debian packages, without emulation: apt in the
# trixie root (scripts/pi/trixie-root.sh), configured for arm64 with an empty dpkg status, resolves
# the closure of the listed packages and downloads it; each .deb is then unpacked with dpkg-deb -x.
# Used for the cross-build sysroot (scripts/pi/swift-sdk.sh) and the arm64 guest's root (scripts/pi-vm).
# Needs root.
#
#   scripts/pi/arm64-root.sh tree OUT LIST...   unpacks the closure of the packages named in the LIST
#                                               files into OUT (made or replaced), prints OUT
#   scripts/pi/arm64-root.sh download PKG...    downloads PKG:arm64 alone (no dependencies) into the
#                                               cache, prints the .deb paths, one a line
#
# A LIST names Debian packages, several a line; '#' starts a comment line. Recommends are not
# installed. OUT is remade only when the package names change (OUT/.arm64-root holds them; an OUT
# without that file is refused unless empty), so a second call costs nothing; set
# ARM64_ROOT_UPDATE=1 to fetch the archive's index again and remake it with current versions.
#
# Besides the files, OUT/var/lib/dpkg knows the packages as a dpkg root would after an unpack
# without configuration ("install ok unpacked"): a status entry per package and its info/ files
# (file list, maintainer scripts). So `dpkg-query --admindir=OUT/var/lib/dpkg -S FILE` names the
# package of a file, and an arm64 system booted from OUT can run `dpkg --configure -a`.
# Merged /usr: bin, sbin and lib are symlinks into usr/ as on an installed trixie.
#
# The .debs and apt's lists are cached in .build-pi/arm64-apt (shared by every OUT, locked while
# in use). DEBIAN_MIRROR picks the mirror, as for trixie-root.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
apt_dir=$repo/.build-pi/arm64-apt
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

usage() { echo "usage: scripts/pi/arm64-root.sh tree OUT LIST... | download PKG..." >&2; exit 64; }

# apt-get inside the trixie root, with arm64 as its only architecture and its state, cache and
# sources in $apt_dir (seen at /src/.build-pi/arm64-apt there): the root's own dpkg is untouched.
root_apt() {
    "$repo/scripts/pi/trixie-root.sh" run env APT_CONFIG=/src/.build-pi/arm64-apt/apt.conf "$@"
}

prepare_apt() {
    mkdir -p "$apt_dir"/{state/lists/partial,cache/archives/partial,etc/preferences.d,etc/apt.conf.d}
    : > "$apt_dir/state/status.empty"
    echo "deb [arch=arm64] $mirror trixie main" > "$apt_dir/etc/sources.list"
    local d=/src/.build-pi/arm64-apt
    cat > "$apt_dir/apt.conf" <<EOF
APT::Architecture "arm64";
APT::Architectures { "arm64"; };
APT::Install-Recommends "false";
APT::Get::Assume-Yes "true";
Dir::State "$d/state";
Dir::State::status "$d/state/status.empty";
Dir::Cache "$d/cache";
Dir::Etc::SourceList "$d/etc/sources.list";
Dir::Etc::SourceParts "$d/etc/sources.list.d";
Dir::Etc::Preferences "$d/etc/preferences";
Dir::Etc::PreferencesParts "$d/etc/preferences.d";
Dir::Etc::Parts "$d/etc/apt.conf.d";
// the cache is a bind-mounted folder of the host: downloading as _apt could not write it
APT::Sandbox::User "root";
EOF
    if [ ! -f "$apt_dir/state/lists/.fetched" ] || [ "${ARM64_ROOT_UPDATE:-0}" = 1 ]; then
        update_apt
    fi
}
update_apt() {
    root_apt apt-get update -qq >&2
    touch "$apt_dir/state/lists/.fetched"
}

# The .deb file apt keeps for "NAME VERSION ARCH" (an epoch's colon is written %3a).
deb_path() { echo "$apt_dir/cache/archives/${1}_${2//:/%3a}_${3}.deb"; }

# Records the unpacked package of DEB in OUT's dpkg database, as dpkg's unpack phase would.
register() {
    local out=$1 deb=$2 control name arch multiarch info
    control=$(dpkg-deb -f "$deb")
    name=$(dpkg-deb -f "$deb" Package) arch=$(dpkg-deb -f "$deb" Architecture)
    multiarch=$(dpkg-deb -f "$deb" Multi-Arch)
    # dpkg names a Multi-Arch: same package's info files with its architecture
    info=$name; [ "$multiarch" != same ] || info=$name:$arch
    { echo "$control" | sed -n '1p'; echo "Status: install ok unpacked"; echo "$control" | sed '1d'; echo; } \
        >> "$out/var/lib/dpkg/status"
    dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||; s|^$|/.|' > "$out/var/lib/dpkg/info/$info.list"
    local scripts; scripts=$(mktemp -d)
    dpkg-deb -e "$deb" "$scripts"
    for f in "$scripts"/*; do
        case "${f##*/}" in control|md5sums) ;; *) cp -p "$f" "$out/var/lib/dpkg/info/$info.${f##*/}" ;; esac
    done
    [ ! -f "$scripts/md5sums" ] || cp "$scripts/md5sums" "$out/var/lib/dpkg/info/$info.md5sums"
    rm -rf "$scripts"
}

tree() {
    local out lists=() packages
    [ $# -ge 2 ] || usage
    out=$(realpath -m "$1"); shift
    for list in "$@"; do lists+=("$(realpath "$list")"); done
    packages=$(grep -hv '^\s*#' "${lists[@]}" | tr -s ' \t\n' '\n' | sed '/^$/d' | sort -u)
    [ -n "$packages" ] || { echo "arm64-root: no packages in ${lists[*]}" >&2; exit 64; }
    if [ -f "$out/.arm64-root" ] && [ "$packages" = "$(cat "$out/.arm64-root")" ] \
        && [ "${ARM64_ROOT_UPDATE:-0}" != 1 ]; then
        echo "$out"; return
    fi
    if [ -e "$out" ] && [ ! -f "$out/.arm64-root" ] && [ -n "$(ls -A "$out")" ]; then
        echo "arm64-root: $out is not empty and was not made by arm64-root.sh; not replacing it" >&2; exit 1
    fi
    prepare_apt
    # "Inst NAME (VERSION SUITE [ARCH])": with an empty status every package of the closure is listed
    # shellcheck disable=SC2086  # one argument per package name
    closure() { root_apt apt-get install -s $packages | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) [^[]*\[\([^]]*\)\].*/\1 \2 \3/p'; }
    # A point release removes the versions the cached index names: fetch the index again once.
    # shellcheck disable=SC2086
    root_apt apt-get install --download-only -qq $packages >&2 \
        || { update_apt; root_apt apt-get install --download-only -qq $packages >&2; }
    rm -rf "$out"
    mkdir -p "$out/usr/bin" "$out/usr/sbin" "$out/usr/lib" "$out/var/lib/dpkg/info"
    : > "$out/.arm64-root"  # ours, even if this unpack fails half-way; complete once it names the packages
    for d in bin sbin lib; do ln -s "usr/$d" "$out/$d"; done
    : > "$out/var/lib/dpkg/status"
    # the info/ layout that names Multi-Arch: same packages' files PKG:ARCH.list (dpkg 1.16.2+)
    echo 1 > "$out/var/lib/dpkg/info/format"
    local count=0 deb
    while read -r name version arch; do
        deb=$(deb_path "$name" "$version" "$arch")
        dpkg-deb -x "$deb" "$out"
        register "$out" "$deb"
        count=$((count + 1))
    done < <(closure)
    # (a failing apt-get -s in the process substitution above only shows as nothing unpacked)
    [ $count -gt 0 ] || { echo "arm64-root: apt resolved no packages for ${lists[*]}" >&2; exit 1; }
    echo "$packages" > "$out/.arm64-root"
    echo "arm64-root: $count packages unpacked in $out" >&2
    echo "$out"
}

download() {
    [ $# -ge 1 ] || usage
    prepare_apt
    local name version
    for name in "$@"; do
        version=$(root_apt apt-cache show --no-all-versions "$name:arm64" | sed -n 's/^Version: //p')
        [ -n "$version" ] || { echo "arm64-root: no package $name for arm64" >&2; exit 1; }
        local deb; deb=$(deb_path "$name" "$version" arm64)
        [ -f "$deb" ] || [ -f "$(deb_path "$name" "$version" all)" ] \
            || root_apt sh -c 'cd /src/.build-pi/arm64-apt/cache/archives && apt-get download -qq "$1"' sh "$name:arm64" >&2
        [ -f "$deb" ] || deb=$(deb_path "$name" "$version" all)
        echo "$deb"
    done
}

[ "$(id -u)" -eq 0 ] || { echo "arm64-root: needs root (trixie-root.sh)" >&2; exit 1; }
mkdir -p "$apt_dir"
exec 8>"$apt_dir.lock"
flock 8
case "${1:-}" in
    tree) shift; tree "$@" ;;
    download) shift; download "$@" ;;
    *) usage ;;
esac
