#!/usr/bin/env bash
# Removes what deploy/install.sh installed. Keeps the user's data (the database in
# /var/lib/wavedial, /etc/wavedial/config.toml) and the wavedial user, unless --purge.
# I2C stays on (other things may use it); hardware/config.txt lists the lines to remove.
#
#   sudo deploy/uninstall.sh [--purge]
#   deploy/uninstall.sh --root DIR [--prefix DIR] [--purge]   # a tree install.sh --root made
set -euo pipefail
root="" prefix=/usr/local purge=0
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=$(realpath -m "$2"); shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --purge) purge=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "uninstall.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  echo "uninstall.sh: run as root (sudo), or give --root DIR" >&2; exit 77
fi
say() { echo "uninstall.sh: $*"; }
if [ "$prefix" = /usr ]; then lib_dir=/usr/lib unit_dir=/usr/lib/systemd/system zsh_dir=/usr/share/zsh/vendor-completions
else lib_dir=/etc unit_dir=/etc/systemd/system zsh_dir=$prefix/share/zsh/site-functions; fi

if [ -z "$root" ] && [ -f "$unit_dir/wavediald.service" ]; then
  systemctl disable --now wavediald.service || true
fi
remove() {
  local path
  for path in "$@"; do
    if [ -e "$root$path" ]; then rm -f "$root$path"; say "removed $path"; fi
  done
}
remove "$prefix/bin/wavedial" "$prefix/bin/wavedial-player" "$prefix/bin/wavediald" "$unit_dir/wavediald.service" \
  "$lib_dir/systemd/system-generators/wavedial-generator" \
  "$lib_dir/udev/rules.d/60-wavedial.rules" "$lib_dir/modules-load.d/wavedial.conf" \
  "$prefix/share/bash-completion/completions/wavedial" "$zsh_dir/_wavedial" \
  "$prefix/share/fish/vendor_completions.d/wavedial.fish"
for page in "$root$prefix"/share/man/man1/wavedial*.1.gz; do
  [ -e "$page" ] && remove "${page#"$root"}"
done
if [ -d "$root$prefix/share/doc/wavedial" ]; then
  rm -rf "$root$prefix/share/doc/wavedial"; say "removed $prefix/share/doc/wavedial"
fi
[ -z "$root" ] && systemctl daemon-reload

if [ $purge -eq 1 ]; then
  rm -rf "$root/var/lib/wavedial" "$root/etc/wavedial" "$root/run/wavedial"
  say "removed /var/lib/wavedial (database) and /etc/wavedial (configuration)"
  account_options=()
  [ -n "$root" ] && account_options=(--prefix "$root")
  if grep -q "^wavedial:" "$root/etc/passwd" 2>/dev/null; then
    userdel "${account_options[@]}" wavedial; say "removed user wavedial"
  fi
  if grep -q "^wavedial:" "$root/etc/group" 2>/dev/null; then
    groupdel "${account_options[@]}" wavedial; say "removed group wavedial"
  fi
else
  say "kept /var/lib/wavedial, /etc/wavedial and the wavedial user (--purge removes them)"
fi
