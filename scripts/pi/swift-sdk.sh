#!/usr/bin/env bash
# The Swift SDK that cross-builds for the Pi (aarch64-unknown-linux-gnu) with the trixie root's
# Swift 6.0.3: an artifact bundle whose sysroot is Debian 13 arm64 packages only
# (scripts/pi/packages/arm64-sysroot.txt, unpacked by scripts/pi/arm64-root.sh) plus, from
# swiftlang:arm64, the Swift modules and static runtime (usr/libexec/swift/lib/{swift,swift_static})
# and clang's resource headers (lib/clang: SwiftGlibc needs its limits.h). swiftlang's own
# dependencies (a whole arm64 toolchain) are not needed to compile for arm64, so it is unpacked
# alone. Linked with ld.lld, which Debian's swiftlang ships next to swift. Needs root.
#
#   scripts/pi/swift-sdk.sh    makes or updates the bundle, prints the folder that holds it
#
# Use (inside the trixie root, where the repository is /src):
#   swift build --swift-sdks-path /src/.build-pi/swift-sdks --swift-sdk trixie-aarch64 ...
# The bundle's sysroot doubles as QEMU_LD_PREFIX for running its binaries under qemu-user.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
sdks=$repo/.build-pi/swift-sdks
bundle=$sdks/trixie-aarch64.artifactbundle
target=$bundle/trixie-aarch64/aarch64-unknown-linux-gnu
sysroot=$target/sysroot

"$repo/scripts/pi/arm64-root.sh" tree "$sysroot" "$repo/scripts/pi/packages/arm64-sysroot.txt" >/dev/null
# arm64-root.sh remakes the tree when its list changes; swiftlang's part is then unpacked again.
deb=$("$repo/scripts/pi/arm64-root.sh" download swiftlang)
if [ "$(cat "$sysroot/.swiftlang" 2>/dev/null)" != "${deb##*/}" ]; then
    rm -rf "$sysroot"/usr/libexec/swift/lib/{swift_static,clang}
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$sysroot" \
        ./usr/libexec/swift/lib/swift ./usr/libexec/swift/lib/swift_static ./usr/libexec/swift/lib/clang
    echo "${deb##*/}" > "$sysroot/.swiftlang"
fi

cat > "$bundle/info.json" <<'EOF'
{
  "schemaVersion": "1.0",
  "artifacts": {
    "trixie-aarch64": {
      "type": "swiftSDK",
      "version": "6.0.3",
      "variants": [{ "path": "trixie-aarch64/aarch64-unknown-linux-gnu" }]
    }
  }
}
EOF
cat > "$target/swift-sdk.json" <<'EOF'
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
cat > "$target/toolset.json" <<'EOF'
{
  "schemaVersion": "1.0",
  "rootPath": "/usr/libexec/swift/bin",
  "linker": { "path": "ld.lld" },
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] }
}
EOF
echo "$sdks"
