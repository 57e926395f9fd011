#!/usr/bin/env bash
# Substitutes patched copies of the dependencies Swift 6.0 cannot take, for the builds in the
# trixie root (Debian's Swift 6.0.3). Run it there before building:
#
#   scripts/pi/trixie-root.sh run scripts/pi/swift60-mirrors.sh
#
# On a Pi with internet none of this is needed: SwiftPM skips the versions whose manifests need
# a newer Swift and picks older ones within Package.swift's minimums. This machine's package
# mirror holds one version of each package, and swift-log's and GRDB's need tools 6.2 and 6.1.
#
# For each package below, .build-pi/mirrors/OWNER/NAME is a clone of it at its version with
# scripts/pi/patches/NAME.patch committed on top and tagged VERSION+swift60 (the upstream tag is
# dropped so that SwiftPM sees only the patched one). The commit's author and dates are fixed, so
# the same patch always gives the same revision and a Package.resolved pinning it stays valid.
# The clone is redone only when the patch changes.
#
# The mirrors are registered with `swift package config set-mirror` in the user's shared SwiftPM
# configuration (~/.swiftpm/configuration/mirrors.json; SWIFTPM_MIRROR_CONFIG points set-mirror
# at it, which otherwise writes the repository's .swiftpm/): inside the root that is the root's
# own /root, so every build there sees them and the host's builds never do, without an option
# to pass to each swift command (--config-path would need one) and without touching the
# repository, which the host shares. The root also keeps its own Package.resolved
# (scripts/pi/trixie-root.sh). Refuses to run with any Swift but 6.0, to keep them off the host.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
patches=$repo/scripts/pi/patches
mirrors=$repo/.build-pi/mirrors
config=$HOME/.swiftpm/configuration/mirrors.json

# OWNER/NAME VERSION: the version this machine's mirror holds, which the patch applies to.
packages=(
    "apple/swift-log 1.16.2"
    "groue/GRDB.swift 7.10.0"
)

swift --version 2>/dev/null | grep -q 'Swift version 6\.0[.-]' \
    || { echo "swift60-mirrors: for Swift 6.0 only (the trixie root), not $(swift --version 2>&1 | head -1)" >&2; exit 1; }

git_fixed() {
    GIT_AUTHOR_NAME=wavedial GIT_AUTHOR_EMAIL=wavedial@localhost GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" \
    GIT_COMMITTER_NAME=wavedial GIT_COMMITTER_EMAIL=wavedial@localhost GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
        git "$@"
}

for entry in "${packages[@]}"; do
    read -r slug version <<<"$entry"
    name=${slug#*/}
    patch=$patches/$name.patch
    dir=$mirrors/$slug  # ends in NAME: SwiftPM takes the package's identity from it
    tag=$version+swift60
    stamp=$(sha256sum "$patch" | cut -d' ' -f1)
    if [ "$(git -C "$dir" config --get wavedial.patch 2>/dev/null)" != "$stamp" ] \
        || ! git -C "$dir" rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
        rm -rf "$dir" "$dir.new"
        mkdir -p "$(dirname "$dir")"
        # github.com is this machine's package mirror (git's insteadOf rules).
        git clone -q -c advice.detachedHead=false --branch "$version" "https://github.com/$slug" "$dir.new"
        git -C "$dir.new" apply --index "$patch"
        git_fixed -C "$dir.new" commit -q -m "$name $version for Swift 6.0: scripts/pi/patches/$name.patch"
        git -C "$dir.new" tag -d "$version" >/dev/null
        git_fixed -C "$dir.new" tag "$tag"
        git -C "$dir.new" config wavedial.patch "$stamp"
        mv "$dir.new" "$dir"
        echo "swift60-mirrors: $slug $tag at $(git -C "$dir" rev-parse --short HEAD)" >&2
    fi
    if ! grep -qF "\"mirror\" : \"$dir\"" "$config" 2>/dev/null; then
        mkdir -p "$(dirname "$config")"
        # Its own scratch path: the default, the host's .build, is not the root's to read.
        SWIFTPM_MIRROR_CONFIG=$config swift package --package-path "$repo" --scratch-path "$mirrors/.scratch" config set-mirror \
            --original "https://github.com/$slug" --mirror "$dir"
    fi
done
