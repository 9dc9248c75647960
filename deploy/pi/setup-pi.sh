#!/usr/bin/env bash
# Sets up a Raspberry Pi (Raspberry Pi OS Bookworm, 64-bit; Lite is enough) as a euchre
# table kiosk that starts full screen at boot, with Kivy's on-screen keyboard for the
# touch screen. Run it from a copy of this repository on the Pi, as root:
#
#   sudo deploy/pi/setup-pi.sh [--camera N|none] [--rotation DEG] [--from WHEEL|DIR]
#   deploy/pi/setup-pi.sh --dry-run ...    # prints what it would do, changes nothing
#
# It installs the Debian packages the kiosk needs, makes the user euchre-kiosk, a
# virtual environment in /opt/euchre-kiosk with the kiosk in it (a wheel carries the
# networks, the screens and the demo), writes Kivy's settings in
# /var/lib/euchre-kiosk/kivy/config.ini, and installs and enables the systemd unit
# euchre-kiosk.service. The console's login prompt on tty1 gives way to the kiosk, and a
# desktop, if the Pi boots into one, is set aside (the kiosk draws to the screen itself).
# Running it again updates the kiosk and keeps the table's games and calibration.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
KIOSK_USER=euchre-kiosk
PREFIX=/opt/euchre-kiosk
STATE=/var/lib/euchre-kiosk
UNIT=euchre-kiosk.service
DEFAULTS=/etc/default/euchre-kiosk
PACKAGES=(python3 python3-venv python3-pip libgl1 libegl1 libgles2 libgbm1 libdrm2
          libgl1-mesa-dri libegl-mesa0 libglib2.0-0 libmtdev1 fonts-dejavu-core v4l-utils)

dry_run=0
camera=0
rotation=0
source_path="$REPO"

usage() {
    sed -n '2,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
    cat <<'EOF'

Options:
  --dry-run        print each step, change nothing (needs no root)
  --camera N|none  the table's camera (default: 0, the first USB camera);
                   none plays the bundled demo hand
  --rotation DEG   0, 90, 180 or 270: for a screen mounted turned (default: 0)
  --from PATH      the kiosk to install: a wheel or a source folder (default: this repository)
  -h, --help       this text
EOF
}

fail() {
    echo "setup-pi: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --camera) [ $# -ge 2 ] || fail "--camera needs a number or none"; camera="$2"; shift ;;
        --rotation) [ $# -ge 2 ] || fail "--rotation needs 0, 90, 180 or 270"; rotation="$2"; shift ;;
        --from) [ $# -ge 2 ] || fail "--from needs a wheel or a folder"; source_path="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) fail "unknown option $1 (see --help)" ;;
    esac
    shift
done

case "$camera" in
    none) kiosk_args="" ;;
    ''|*[!0-9]*) fail "--camera takes a number (0 for the first camera) or none, not '$camera'" ;;
    *) kiosk_args="--camera $camera" ;;
esac
case "$rotation" in
    0|90|180|270) ;;
    *) fail "--rotation takes 0, 90, 180 or 270, not '$rotation'" ;;
esac
[ -e "$source_path" ] || fail "nothing to install at $source_path"
if [ "$dry_run" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    fail "run it as root (sudo $0 ...), or with --dry-run to see what it does"
fi

# One step: printed, and run unless this is a dry run.
step() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
    if [ "$dry_run" -eq 0 ]; then
        "$@"
    fi
}

# A whole file: its text comes on standard input.
write_file() {
    local path="$1" text
    text="$(cat)"
    echo "+ write $path:"
    printf '%s\n' "$text" | sed 's/^/    /'
    if [ "$dry_run" -eq 0 ]; then
        printf '%s\n' "$text" > "$path"
    fi
}

model=""
if [ -r /proc/device-tree/model ]; then
    model="$(tr -d '\0' < /proc/device-tree/model)"
fi
case "$model" in
    *"Raspberry Pi"*) echo "Setting up $model as a euchre table kiosk." ;;
    *) echo "Not a Raspberry Pi (${model:-no device-tree model}): setting up anyway." ;;
esac

echo "1. Debian packages"
step apt-get update
step env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}"

echo "2. The kiosk's user, $KIOSK_USER: the screen, the GPU, the touch screen and the camera"
if ! id -u "$KIOSK_USER" > /dev/null 2>&1; then
    step useradd --system --user-group --home-dir "$STATE" --create-home \
        --shell /usr/sbin/nologin "$KIOSK_USER"
fi
for group in video render input; do
    if getent group "$group" > /dev/null; then
        step usermod -aG "$group" "$KIOSK_USER"
    fi
done

echo "3. The kiosk in $PREFIX/venv"
step mkdir -p "$PREFIX"
step python3 -m venv "$PREFIX/venv"
step "$PREFIX/venv/bin/python" -m pip install --quiet --upgrade pip
step "$PREFIX/venv/bin/python" -m pip install --quiet --upgrade "$source_path"

echo "4. Kivy's settings: full screen, the docked on-screen keyboard, one event a tap"
step install -d -o "$KIOSK_USER" -g "$KIOSK_USER" "$STATE" "$STATE/kivy"
step install -m 644 "$HERE/kivy_config.py" "$PREFIX/kivy_config.py"
step runuser -u "$KIOSK_USER" -- env "KIVY_HOME=$STATE/kivy" \
    "$PREFIX/venv/bin/python" "$PREFIX/kivy_config.py" --rotation "$rotation"

echo "5. The unit, $UNIT, started at every boot"
write_file "$DEFAULTS" <<EOF
# What \`kiosk run\` reads, for $UNIT (written by deploy/pi/setup-pi.sh).
# --camera N: the table's camera; empty: the bundled demo hand. Also --deck FILE.
KIOSK_ARGS="$kiosk_args"
EOF
step install -m 644 "$HERE/$UNIT" "/etc/systemd/system/$UNIT"
step systemctl daemon-reload
step systemctl enable "$UNIT"
# the kiosk holds tty1 (Conflicts= in the unit); no login prompt starts there at boot
step systemctl disable getty@tty1.service
if [ "$dry_run" -eq 1 ] || [ "$(systemctl get-default)" = graphical.target ]; then
    echo "   (if the Pi boots into a desktop: the kiosk needs the screen to itself)"
    step systemctl set-default multi-user.target
fi

echo "Done. Reboot (sudo reboot): the kiosk starts full screen. Its log: journalctl -u $UNIT"
