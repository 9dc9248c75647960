#!/usr/bin/env bash
# Installs the Debian font packages whose typefaces the naming network's recipe draws
# card indices from (models/train_naming_shapes.py pack; datasets/glyph_indices.py).
# Every one is free software (SIL OFL, GPL with the font exception, LPPL, Apache, the
# GUST or Bitstream licences): models/README.md, "Shapes, not decks". Only training
# needs them; the kiosk and its tests do not (the tests draw from DejaVu).
set -euo pipefail
packages=(fonts-liberation fonts-freefont-ttf fonts-urw-base35 fonts-texgyre fonts-noto-core
    fonts-crosextra-carlito fonts-crosextra-caladea fonts-linuxlibertine fonts-ebgaramond
    fonts-roboto fonts-open-sans fonts-lato fonts-symbola fonts-cantarell fonts-stix
    fonts-junicode fonts-go fonts-hack fonts-inconsolata fonts-paratype fonts-comic-neue
    fonts-league-spartan fonts-oldstandard fonts-adf-accanthis fonts-adf-berenis
    fonts-adf-gillius fonts-adf-universalis fonts-sil-gentium fonts-sil-charis
    fonts-sil-andika fonts-firacode fonts-noto-mono fonts-lmodern fonts-dejavu-extra)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "Installing font packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
