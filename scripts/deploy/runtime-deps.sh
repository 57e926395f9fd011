#!/usr/bin/env bash
# Prints the Debian packages holding the shared libraries the given binaries need, one a
# line (what a .deb's Depends: and install.sh's apt-get want). A library that no package
# holds (the Swift runtime of a build without --static-swift-stdlib) is an error, unless
# --allow-unpackaged, which names it on stderr and goes on (test packages of debug builds).
# --root DIR: the binaries are for another architecture and run on the system in DIR (the arm64
# tree of scripts/pi/arm64-root.sh, with its dpkg database): libraries are looked up there, in
# the binary's RUNPATH and the multiarch folders, and packages are named by DIR's dpkg.
set -euo pipefail
allow=0 status=0 root=""
while [ $# -gt 0 ]; do
  case "$1" in
    --allow-unpackaged) allow=1; shift ;;
    --root) root=$(realpath "$2"); shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: runtime-deps.sh [--allow-unpackaged] [--root DIR] BINARY..." >&2; exit 64; }
dpkg_query=(dpkg-query); [ -z "$root" ] || dpkg_query+=(--admindir="$root/var/lib/dpkg")
owners=()
# SONAME BINARY: the library's path in $root, as the target's loader would find it (ldd cannot
# run a foreign binary); printed without the $root prefix, as the target's dpkg knows it.
find_in_root() {
  local runpath dir
  runpath=$(readelf -d "$2" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p' | tr : ' ')
  for dir in $runpath "$root"/usr/lib/*-linux-gnu "$root"/usr/lib; do
    dir=${dir#"$root"}
    [ -e "$root$dir/$1" ] && { echo "$dir/$1"; return; }
  done
  return 0
}
# The libraries named in each binary's NEEDED entries (not what they pull in themselves),
# found where the dynamic loader finds them.
libs=()
for binary in "$@"; do
  needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  for soname in $needed; do
    if [ -n "$root" ]; then
      path=$(find_in_root "$soname" "$binary")
      [ -n "$path" ] || { echo "runtime-deps.sh: $binary needs $soname, which is not in $root" >&2; status=1; continue; }
      libs+=("$path")
      continue
    fi
    # "libfoo.so.1 => /path (addr)", or for the dynamic loader "/lib64/ld-linux-x86-64.so.2 (addr)".
    # (awk reads all of ldd's output: an early exit would fail the pipeline with SIGPIPE.)
    path=$(ldd "$binary" | awk -v so="$soname" '$1 == so && $2 == "=>" && !found { print $3; found = 1 }
      substr($1, length($1) - length(so)) == "/" so && !found { print $1; found = 1 }')
    [ -n "$path" ] || { echo "runtime-deps.sh: $binary needs $soname, which is not installed" >&2; status=1; continue; }
    libs+=("$path")
  done
done
for lib in $(printf '%s\n' "${libs[@]}" | sort -u); do
  # dpkg knows a file by the path its package ships; with merged /usr that may be the
  # /lib or the /usr/lib spelling of what ldd prints.
  if [ -n "$root" ]; then real=$(realpath -m --relative-base="$root" "$root$lib"); real=/${real#/}; else real=$(realpath "$lib"); fi
  owner=""
  for path in "$lib" "$real" "/usr${lib#/usr}" "${lib#/usr}" "/usr${real#/usr}" "${real#/usr}"; do
    owner=$("${dpkg_query[@]}" -S "$path" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && break
  done
  if [ -z "$owner" ]; then
    echo "runtime-deps.sh: $lib belongs to no Debian package" >&2
    [ $allow -eq 1 ] || status=1
    continue
  fi
  owners+=("$owner")
done
[ ${#owners[@]} -eq 0 ] || printf '%s\n' "${owners[@]}" | sort -u
exit $status
