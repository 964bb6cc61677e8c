#!/usr/bin/env bash
# Install the poker table service on a fresh Raspberry Pi OS Lite (Bookworm, 64-bit).
#
#   sudo systemd/install.sh            # from a checkout of the repository, on the Pi
#   sudo systemd/install.sh --dry-run  # print what would be done
#   systemd/install.sh boot-config FILE   # only add the overlays to FILE (idempotent)
#
# What it does (each step is idempotent, so it is also the update procedure):
#   1. apt packages: python3-venv, python3-dev + gcc (phevaluator builds from source on ARM,
#      docs/install-pi.md), python3-lgpio, i2c-tools, SDL, espeak-ng (optional speech)
#   2. the groups and the dedicated system user "pokertable" (no login shell)
#   3. the source under /opt/pokertable/src and a venv under /opt/pokertable/venv
#      (--system-site-packages, so the apt python3-lgpio is visible)
#   4. /etc/pokertable/table.toml from config/example-table.toml (never overwritten)
#   5. the udev rule giving the shoe the stable name /dev/pokertable-shoe
#   6. /boot/firmware/config.txt: I2C on, the TCA9548A i2c-mux overlay, the UART on GPIO14/15
#      with the serial console off (cmdline.txt)
#   7. the unit, enabled; getty on tty1 disabled (the TV owns the console)
# A reboot is needed after the first install (overlays).  See docs/operations.md.
set -euo pipefail

PREFIX=/opt/pokertable
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BOOT_CONFIG=/boot/firmware/config.txt
BOOT_CMDLINE=/boot/firmware/cmdline.txt
GROUPS_NEEDED=(gpio i2c spi dialout video render input audio)
DRY_RUN=0
MARK_BEGIN="# >>> pokertable (systemd/install.sh) >>>"
MARK_END="# <<< pokertable <<<"

run() {
    if [[ $DRY_RUN == 1 ]]; then echo "+ $*"; else "$@"; fi
}

boot_config() {  # add our block to a config.txt (replaced if present)
    local file=$1 tmp
    tmp=$(mktemp)
    if [[ -f $file ]]; then
        awk -v b="$MARK_BEGIN" -v e="$MARK_END" '
            $0 == b {skip = 1; next}
            $0 == e {skip = 0; next}
            !skip {print}' "$file" > "$tmp"
    fi
    cat >> "$tmp" <<CFG
$MARK_BEGIN
[all]
# I2C1 on GPIO2/3 for the TCA9548A multiplexer and the seat displays (docs/hardware.md)
dtparam=i2c_arm=on
dtparam=i2c_arm_baudrate=100000
# one /dev/i2c-N per multiplexer channel (TCA9548A is PCA9548-compatible), at 0x70
dtoverlay=i2c-mux,pca9548,addr=0x70
# GPIO0/1 carry two dealer keys: no HAT EEPROM probe at boot
force_eeprom_read=0
# UART on GPIO14/15 for a shoe wired to the UART (the login console on it is removed
# from cmdline.txt); on a Pi 3/4 the PL011 is taken back from Bluetooth
enable_uart=1
[pi3]
dtoverlay=disable-bt
[pi4]
dtoverlay=disable-bt
[all]
# sound on the HDMI/headphone outputs
dtparam=audio=on
$MARK_END
CFG
    if [[ $DRY_RUN == 1 ]]; then
        echo "+ update $file:"; diff -u "$file" "$tmp" || true; rm -f "$tmp"
    else
        install -m 0755 -d "$(dirname "$file")"
        cat "$tmp" > "$file"; rm -f "$tmp"
    fi
}

serial_console_off() {  # the UART must not carry a login console
    local file=$1
    [[ -f $file ]] || return 0
    if grep -qE 'console=(serial0|ttyAMA0|ttyS0),[0-9]+' "$file"; then
        run sed -i -E 's/ ?console=(serial0|ttyAMA0|ttyS0),[0-9]+//g' "$file"
    fi
}

main() {
    case "${1:-}" in
        boot-config) shift; boot_config "${1:?usage: install.sh boot-config FILE}"; return ;;
        --dry-run) DRY_RUN=1 ;;
        "") ;;
        *) echo "usage: $0 [--dry-run] | boot-config FILE" >&2; exit 2 ;;
    esac
    if [[ $DRY_RUN == 0 && $(id -u) != 0 ]]; then
        echo "install.sh: run as root (sudo)" >&2; exit 2
    fi

    # 1. packages
    run apt-get update
    run apt-get install -y --no-install-recommends python3-venv python3-dev gcc python3-lgpio \
        i2c-tools libsdl2-2.0-0 fonts-dejavu-core espeak-ng rsync

    # 2. groups and the service user
    for g in "${GROUPS_NEEDED[@]}"; do
        getent group "$g" >/dev/null || run groupadd --system "$g"
    done
    if ! id pokertable >/dev/null 2>&1; then
        run useradd --system --user-group --home-dir /var/lib/pokertable --no-create-home \
            --shell /usr/sbin/nologin pokertable
    fi
    run usermod -a -G "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" pokertable

    # 3. source and venv
    run install -d -m 0755 "$PREFIX" "$PREFIX/src"
    run rsync -a --delete --exclude .git --exclude .venv --exclude state \
        --exclude '__pycache__' "$SRC_DIR/" "$PREFIX/src/"
    [[ -x $PREFIX/venv/bin/python ]] || run python3 -m venv --system-site-packages "$PREFIX/venv"
    run "$PREFIX/venv/bin/pip" install --quiet --upgrade pip
    run "$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src"

    # 4. configuration (never overwrite the venue's file)
    run install -d -m 0755 /etc/pokertable
    if [[ ! -e /etc/pokertable/table.toml ]]; then
        run install -m 0644 "$SRC_DIR/config/example-table.toml" /etc/pokertable/table.toml
    fi
    run "$PREFIX/venv/bin/pokertable" config check /etc/pokertable/table.toml || {
        echo "install.sh: fix /etc/pokertable/table.toml, then: systemctl restart pokertable" >&2; }

    # 5. udev rule for the shoe
    run install -m 0644 "$SRC_DIR/systemd/99-pokertable-shoe.rules" /etc/udev/rules.d/
    run udevadm control --reload
    run udevadm trigger --subsystem-match=tty

    # 6. overlays and the serial console
    boot_config "$BOOT_CONFIG"
    serial_console_off "$BOOT_CMDLINE"

    # 7. the unit
    run install -m 0644 "$SRC_DIR/systemd/pokertable.service" /etc/systemd/system/
    run systemctl daemon-reload
    run systemctl disable getty@tty1.service
    run systemctl enable pokertable.service
    if [[ $DRY_RUN == 1 ]]; then
        echo "Dry run: nothing was changed."
    else
        echo "Installed.  Reboot once for the overlays: sudo reboot"
    fi
    echo "Then: systemctl status pokertable; journalctl -u pokertable -f"
}

main "$@"
