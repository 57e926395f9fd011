#!/usr/bin/env bash
# Prints the Debian packages holding the shared libraries the given binaries need, one a
# line (what a .deb's Depends: and install.sh's apt-get want). A library that no package
# holds (the Swift runtime of a build without --static-swift-stdlib) is an error, unless
# --allow-unpackaged, which names it on stderr and goes on (test packages of debug builds).
set -euo pipefail
allow=0 status=0
[ "${1:-}" = --allow-unpackaged ] && { allow=1; shift; }
[ $# -gt 0 ] || { echo "usage: runtime-deps.sh [--allow-unpackaged] BINARY..." >&2; exit 64; }
owners=()
# The libraries named in each binary's NEEDED entries (not what they pull in themselves),
# found where the dynamic loader finds them.
libs=()
for binary in "$@"; do
  needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  for soname in $needed; do
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
  real=$(realpath "$lib")
  owner=""
  for path in "$lib" "$real" "/usr${lib#/usr}" "${lib#/usr}" "/usr${real#/usr}" "${real#/usr}"; do
    owner=$(dpkg-query -S "$path" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && break
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
