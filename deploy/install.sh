#!/usr/bin/env bash
# Installs Wavedial on a Raspberry Pi (or any Debian machine), from this checkout.
# Idempotent: running it again changes nothing but what changed in the checkout, and it
# never overwrites an edited /etc/wavedial/config.toml.
#
#   sudo deploy/install.sh                  # build (release), install under /usr/local, start
#   deploy/install.sh --root /tmp/r --from .build/debug   # into a directory tree, no system changes
#
# Options:
#   --from DIR     take the built binaries from DIR instead of building a release
#   --prefix DIR   where binaries, completions and man pages go (default /usr/local)
#   --root DIR     install into DIR as if it were /: users are created in DIR's /etc, no apt,
#                  no raspi-config, no systemctl (for tests and for staging a package)
#   --files-only   only the files (no users, packages, I2C or service): how build-deb.sh stages
#   --no-start     everything, but do not enable and start the service
# What it does: runtime packages (apt), the wavedial user and the gpio/i2c/audio/input groups,
# binaries, systemd unit, udev rules, config, shell completion, man pages, I2C on,
# service enabled and started. deploy/uninstall.sh undoes it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
root="" prefix=/usr/local from="" files_only=0 start=1 changed=0
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=$(realpath -m "$2"); shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --from) from=$(realpath "$2"); shift 2 ;;
    --files-only) files_only=1; shift ;;
    --no-start) start=0; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$prefix" in /*) ;; *) echo "install.sh: --prefix must be absolute" >&2; exit 64 ;; esac
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo), or give --root DIR" >&2; exit 77
fi
say() { echo "install.sh: $*"; }

# Files outside the prefix follow where Debian looks for them: a /usr install (the .deb)
# uses the vendor directories under /usr/lib, a local one /etc.
if [ "$prefix" = /usr ]; then lib_dir=/usr/lib; else lib_dir=/etc; fi
unit_dir=$prefix/lib/systemd/system
[ "$prefix" = /usr ] || unit_dir=/etc/systemd/system

# --- the binaries: wavedial and its player always, wavediald when the package has it ----
# Under sudo, Swift is found where its user has it (swiftly under their home, or
# /opt/swift), and builds run as that user, so the checkout's .build stays theirs.
builder=""
if [ -z "$root" ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then builder=$SUDO_USER; fi
if ! command -v swift >/dev/null; then
  for dir in /opt/swift/usr/bin ${builder:+"$(getent passwd "$builder" | cut -d: -f6)/.local/share/swiftly/bin"}; do
    [ -x "$dir/swift" ] && { PATH="$dir:$PATH"; break; }
  done
fi
as_builder() {
  if [ -n "$builder" ]; then sudo -u "$builder" env "PATH=$PATH" "$@"; else "$@"; fi
}
if [ -z "$from" ]; then
  command -v swift >/dev/null || { echo "install.sh: no Swift toolchain found (see README, Install on a Raspberry Pi)" >&2; exit 69; }
  say "building a release (this takes a while on a Pi)"
  # The Swift runtime linked in, so the binaries run without the toolchain (scripts/build-release).
  from=$(as_builder "$repo/scripts/build-release")
fi
for product in wavedial wavedial-player; do
  [ -x "$from/$product" ] || { echo "install.sh: no $product binary in $from" >&2; exit 66; }
done
# wavedial-player is what `wavedial play-url` becomes (execv), found beside wavedial.
products=(wavedial wavedial-player)
[ -x "$from/wavediald" ] && products+=(wavediald)

# Copies $1 to $2 with mode $3 unless the same content is already there.
put() {
  local source=$1 target=$root$2 mode=$3
  if [ -f "$target" ] && cmp -s "$source" "$target"; then
    chmod "$mode" "$target"; return
  fi
  install -D -m "$mode" "$source" "$target"
  changed=1
  say "installed $2"
}
# Like put, with the content on stdin.
put_text() {
  local scratch; scratch=$(mktemp)
  cat > "$scratch"
  put "$scratch" "$1" "$2"
  rm -f "$scratch"
}

# --- runtime packages ------------------------------------------------------------------
if [ $files_only -eq 0 ] && [ -z "$root" ]; then
  # The shared libraries the binaries link against, by the Debian package that holds them
  # (so bookworm's libasound2 and trixie's libasound2t64 both work), plus the tools the
  # wiring checks in hardware/WIRING.md use.
  mapfile -t wanted < <("$repo/scripts/deploy/runtime-deps.sh" "${products[@]/#/$from/}"; printf '%s\n' i2c-tools gpiod alsa-utils)
  missing=()
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# --- user and groups -------------------------------------------------------------------
if [ $files_only -eq 0 ]; then
  # useradd/groupadd --prefix edit DIR/etc/{passwd,group,shadow,gshadow} without chroot.
  account_options=()
  [ -n "$root" ] && account_options=(--prefix "$root")
  has_group() { if [ -n "$root" ]; then grep -q "^$1:" "$root/etc/group"; else getent group "$1" >/dev/null; fi; }
  has_user() { if [ -n "$root" ]; then grep -q "^$1:" "$root/etc/passwd"; else getent passwd "$1" >/dev/null; fi; }
  for group in wavedial gpio i2c audio input; do
    if ! has_group "$group"; then
      groupadd --system "${account_options[@]}" "$group"
      say "created group $group"
    fi
  done
  if ! has_user wavedial; then
    useradd --system "${account_options[@]}" --gid wavedial --groups gpio,i2c,audio,input \
      --home-dir /var/lib/wavedial --no-create-home --shell /usr/sbin/nologin \
      --comment "Wavedial radio" wavedial
    say "created user wavedial"
  else
    usermod "${account_options[@]}" --append --groups gpio,i2c,audio,input wavedial
  fi
  # The database directory, as the service keeps it (StateDirectoryMode=), so that the
  # CLI of a member of group wavedial can use the database before the daemon first ran.
  install -d -m 2770 "$root/var/lib/wavedial"
  owner="$(grep "^wavedial:" "$root/etc/passwd" | cut -d: -f3):$(grep "^wavedial:" "$root/etc/group" | cut -d: -f3)"
  chown "$owner" "$root/var/lib/wavedial"
  # Database files that a root-run CLI of an earlier wavedial left to root: the daemon's again (it
  # makes them 0660 when it opens them). -h: a link planted in the folder is not followed.
  find "$root/var/lib/wavedial" -maxdepth 1 -type f -name 'wavedial.sqlite*' -exec chown -h "$owner" {} +
  # Whoever ran sudo gets the control socket and the database (group wavedial) at next login.
  if [ -z "$root" ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ] \
     && ! id -nG "$SUDO_USER" | tr ' ' '\n' | grep -qx wavedial; then
    usermod --append --groups wavedial "$SUDO_USER"
    say "added $SUDO_USER to group wavedial (log in again to use wavedial without sudo)"
  fi
fi

# --- files -----------------------------------------------------------------------------
for product in "${products[@]}"; do
  put "$from/$product" "$prefix/bin/$product" 0755
done
sed "s|/usr/bin/wavediald|$prefix/bin/wavediald|" "$here/wavediald.service" | put_text "$unit_dir/wavediald.service" 0644
# The generator that writes wavediald-mpd.socket from [mpd] (its IPAddressAllow= follows `allow`).
sed "s|/usr/bin/wavedial|$prefix/bin/wavedial|" "$here/wavedial-generator" | put_text "$lib_dir/systemd/system-generators/wavedial-generator" 0755
put "$here/wavedial.rules" "$lib_dir/udev/rules.d/60-wavedial.rules" 0644
put "$here/wavedial-modules.conf" "$lib_dir/modules-load.d/wavedial.conf" 0644
put "$here/wavedial.example.toml" "$prefix/share/doc/wavedial/wavedial.example.toml" 0644
for doc in WIRING.md BOM.md REMOTE.md pinmap.toml wiring.svg config.txt rc_keymaps/wavedial_car_mp3.toml; do
  put "$repo/hardware/$doc" "$prefix/share/doc/wavedial/hardware/$doc" 0644
done
# The configuration: installed once, then the administrator's.
if [ ! -e "$root/etc/wavedial/config.toml" ]; then
  install -D -m 0644 "$here/wavedial.example.toml" "$root/etc/wavedial/config.toml"
  say "installed /etc/wavedial/config.toml (edit [location] before the first sync)"
fi
"$from/wavedial" --generate-completion-script bash | put_text "$prefix/share/bash-completion/completions/wavedial" 0644
# zsh's fpath on Debian: vendor-completions for packages, site-functions for local installs.
zsh_dir=$prefix/share/zsh/site-functions
[ "$prefix" = /usr ] && zsh_dir=/usr/share/zsh/vendor-completions
"$from/wavedial" --generate-completion-script zsh | put_text "$zsh_dir/_wavedial" 0644
"$from/wavedial" --generate-completion-script fish | put_text "$prefix/share/fish/vendor_completions.d/wavedial.fish" 0644
# Man pages need the Swift toolchain (swift-argument-parser's generator); a machine given
# only --from binaries and no toolchain goes without.
if command -v swift >/dev/null; then
  man_scratch=$(mktemp -d)
  [ -z "$builder" ] || chown "$builder" "$man_scratch"
  as_builder "$repo/scripts/deploy/generate-man.sh" "$man_scratch" "${products[@]/#/$from/}"
  for page in "$man_scratch"/*.1; do
    gzip -9n < "$page" | put_text "$prefix/share/man/man1/$(basename "$page").gz" 0644
  done
  rm -rf "$man_scratch"
else
  say "no Swift toolchain: man pages not installed (wavedial --help has the same text)"
fi
[ $files_only -eq 1 ] && exit 0

# --- I2C on ----------------------------------------------------------------------------
config_txt=""
for candidate in /boot/firmware/config.txt /boot/config.txt; do
  [ -f "$root$candidate" ] && { config_txt=$root$candidate; break; }
done
if [ -z "$root" ] && command -v raspi-config >/dev/null; then
  if [ "$(raspi-config nonint get_i2c)" != 0 ]; then
    raspi-config nonint do_i2c 0
    say "I2C turned on with raspi-config (reboot if /dev/i2c-1 is missing)"
  fi
elif [ -n "$config_txt" ]; then
  if ! grep -qE '^\s*dtparam=(i2c_arm|i2c)=on' "$config_txt"; then
    printf '\n# Wavedial: I2C for the LCD backpack\ndtparam=i2c_arm=on\n' >> "$config_txt"
    say "I2C turned on in ${config_txt#"$root"} (reboot to apply)"
  fi
else
  say "no config.txt found: not a Raspberry Pi? Turn on I2C yourself if the LCD uses it"
fi
say "the DAC overlay depends on your board: see hardware/config.txt"

# --- the service -----------------------------------------------------------------------
if [ -n "$root" ]; then
  exit 0
fi
udevadm control --reload 2>/dev/null && udevadm trigger --subsystem-match=gpio --subsystem-match=i2c-dev 2>/dev/null || true
modprobe i2c-dev 2>/dev/null || true
systemctl daemon-reload
if [[ " ${products[*]} " != *" wavediald "* ]]; then
  say "no wavediald binary built: the service is installed but not enabled"
else
  systemctl enable --quiet wavediald.service
  if [ $start -eq 1 ]; then
    # A restart only when something new was installed: a rerun does not interrupt the radio.
    if [ $changed -eq 1 ]; then systemctl restart wavediald.service; else systemctl start wavediald.service; fi
    say "wavediald is running: systemctl status wavediald; journalctl -u wavediald"
  fi
fi
