#!/usr/bin/env bash
# Installs the Debian packages the kiosk, its training data and its tests use:
# card art (training scenes and rendered demo hands), an SVG renderer, a
# virtual screen for the Kivy tests, Chromium for the master-sheet tests, espeak-ng
# (the voice for low-vision players), shellcheck (the Pi set-up script's test) and
# nodejs (EGN's reference replayer checks the games the kiosk writes, tests/egn).
# Does nothing when they are all there already, so it is cheap to run twice.
set -euo pipefail
packages=(kdegames-card-data-kf5 gnome-cards-data librsvg2-bin xvfb chromium fonts-dejavu-core libmtdev1 libgl1 libegl1 xauth espeak-ng shellcheck nodejs)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    SUDO=sudo
else
    SUDO=
fi
echo "Installing Debian packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
