#!/usr/bin/env bash
# Installs the system packages Workbench needs to build, run and test on Debian 12.
# Idempotent: a stamp file records the package list that was installed, so a second
# run with the same list costs nothing.
set -euo pipefail

PKGS=(
  # Tauri 2 / WebKitGTK 4.1 build prerequisites
  libwebkit2gtk-4.1-dev build-essential curl wget file libxdo-dev libssl-dev
  libayatana-appindicator3-dev librsvg2-dev libgtk-3-dev libsoup-3.0-dev
  libjavascriptcoregtk-4.1-dev pkg-config
  # OS keychain (Secret Service over D-Bus) for the keyring crate, and a headless one for tests
  libdbus-1-dev gnome-keyring libsecret-tools dbus-x11
  # headless display, screenshots, and the WebDriver for the real app window
  xvfb xauth webkit2gtk-driver imagemagick
  # a real browser for the UI tests
  chromium chromium-driver
  # SQLite CLI for inspecting the store by hand
  sqlite3
  # OS confinement of the shell (network namespaces), and ripgrep as the grep benchmark baseline
  bubblewrap ripgrep
)

STAMP_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/workbench"
STAMP="$STAMP_DIR/apt-$(printf '%s\n' "${PKGS[@]}" | sha256sum | cut -c1-16)"
if [[ -f "$STAMP" ]]; then
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "setup: installing ${#missing[@]} apt packages: ${missing[*]}"
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
mkdir -p "$STAMP_DIR" && touch "$STAMP"
