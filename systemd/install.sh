#!/usr/bin/env bash
# Install the poker table service on a fresh Raspberry Pi OS Lite (Bookworm, 64-bit).
#
#   sudo systemd/install.sh            # from a checkout of the repository, on the Pi
#   sudo systemd/install.sh --dry-run  # print what would be done
#   systemd/install.sh boot-config FILE   # only add the overlays to FILE (idempotent)
#   sudo systemd/install.sh network    # after editing [console] listen or [shoe] port
#   sudo systemd/install.sh source     # only copy the program to /opt/pokertable/src
#
# POKERTABLE_ROOT=DIR puts every file under DIR (tests); commands that change the system
# itself (apt-get, useradd, systemctl, udevadm, runuser) are then only printed.
#
# What it does (each step is idempotent, so it is also the update procedure):
#   1. apt packages: python3-venv, python3-dev + gcc (phevaluator builds from source on ARM,
#      docs/install-pi.md), python3-lgpio, i2c-tools, SDL, espeak-ng (optional speech)
#   2. the groups and the dedicated system user "pokertable" (no login shell)
#   3. the source under /opt/pokertable/src, owned by root (not the checkout's owner), and
#      a root-owned venv under /opt/pokertable/venv (--system-site-packages, so the apt
#      python3-lgpio is visible) with exactly the versions in systemd/requirements.lock:
#      downloaded with their hashes checked, and phevaluator compiled, by the service user
#      in a scratch folder; then installed by root from those files only
#   4. /etc/pokertable/table.toml from config/example-table.toml (never overwritten)
#   5. the udev rule giving the shoe the stable name /dev/pokertable-shoe
#   6. /boot/firmware/config.txt: I2C on, the TCA9548A i2c-mux overlay, the UART on GPIO14/15
#      with the serial console off (cmdline.txt)
#   7. the unit, enabled, and its network drop-in from `pokertable config network` (the
#      console's and a network shoe's peers, nothing else); getty on tty1 disabled
# A reboot is needed after the first install (overlays).  See docs/operations.md.
set -euo pipefail

ROOT="${POKERTABLE_ROOT:-}"
PREFIX=$ROOT/opt/pokertable
ETC=$ROOT/etc
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCK="$SRC_DIR/systemd/requirements.lock"
BOOT_CONFIG=$ROOT/boot/firmware/config.txt
BOOT_CMDLINE=$ROOT/boot/firmware/cmdline.txt
DROP_IN=$ETC/systemd/system/pokertable.service.d/network.conf
SERVICE_USER=pokertable
GROUPS_NEEDED=(gpio i2c spi dialout video render audio)
DRY_RUN=0
MARK_BEGIN="# >>> pokertable (systemd/install.sh) >>>"
MARK_END="# <<< pokertable <<<"

run() {
    if [[ $DRY_RUN == 1 ]]; then echo "+ $*"; else "$@"; fi
}

sys_run() {  # a command that changes the system itself: only printed under POKERTABLE_ROOT
    if [[ -n $ROOT ]]; then echo "+ (not under POKERTABLE_ROOT) $*"; else run "$@"; fi
}

atomic_write() {  # atomic_write FILE: stdin to FILE via a temporary file, fsync, rename
    local file=$1 dir tmp
    dir=$(dirname "$file")
    install -m 0755 -d "$dir"
    tmp=$(mktemp "$dir/.$(basename "$file").XXXXXX")
    if ! cat > "$tmp"; then rm -f "$tmp"; return 1; fi
    if [[ -e $file ]]; then chmod --reference="$file" "$tmp" 2>/dev/null || true
    else chmod 0644 "$tmp"; fi
    sync "$tmp"            # the new contents are on the card before the name points at them
    mv -f "$tmp" "$file"   # rename(2): the old file or the new one, never a torn one
    sync "$dir"
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
        echo "+ update $file (temporary file, fsync, rename):"
        diff -u "$file" "$tmp" || true
    else
        atomic_write "$file" < "$tmp"
    fi
    rm -f "$tmp"
}

serial_console_off() {  # the UART must not carry a login console
    local file=$1 pattern=' ?console=(serial0|ttyAMA0|ttyS0),[0-9]+'
    [[ -f $file ]] || return 0
    if grep -qE "$pattern" "$file"; then
        if [[ $DRY_RUN == 1 ]]; then
            echo "+ remove the serial console from $file (temporary file, fsync, rename)"
        else
            sed -E "s/$pattern//g; s/^ +//" "$file" | atomic_write "$file"
        fi
    fi
}

copy_source() {  # the program, owned by root whoever owns the checkout
    run install -d -m 0755 "$PREFIX" "$PREFIX/src"
    run rsync -rlpt --delete --no-owner --no-group --chmod=go-w \
        --exclude .git --exclude .venv --exclude state --exclude '__pycache__' \
        "$SRC_DIR/" "$PREFIX/src/"
    # files an earlier `rsync -a` gave the checkout's owner are taken back
    if [[ $(id -u) == 0 ]]; then run chown -R 0:0 "$PREFIX/src"; fi
}

lock_subset() {  # the lock's entries, hashes included, for the names matching $1 (a|b)
    awk -v pat="^($1)==" '/^[^ #]/ {keep = ($0 ~ pat)} keep' "$LOCK"
}

as_service_user() {  # run "$@" as the service user, with a scratch HOME and pip cache
    local home=$1; shift
    sys_run runuser -u "$SERVICE_USER" -- env HOME="$home" PIP_CACHE_DIR="$home/cache" \
        PIP_CONFIG_FILE=/dev/null "$@"
}

install_packages() {  # the locked versions: fetched and built by the service user
    local venv=$PREFIX/venv build=/var/tmp/pokertable-build.XXXXXX
    [[ -x $venv/bin/python ]] || run python3 -m venv --system-site-packages "$venv"
    if [[ $DRY_RUN == 0 && -z $ROOT ]]; then build=$(mktemp -d /var/tmp/pokertable-build.XXXXXX); fi
    sys_run chown "$SERVICE_USER:" "$build"
    as_service_user "$build" python3 -m venv "$build/venv"
    if [[ $DRY_RUN == 0 && -z $ROOT ]]; then
        lock_subset 'setuptools|wheel' > "$build/build.lock"
    else
        echo "+ the setuptools and wheel entries of $LOCK > $build/build.lock"
    fi
    as_service_user "$build" "$build/venv/bin/pip" install --quiet --require-hashes --no-deps \
        -r "$build/build.lock"
    as_service_user "$build" "$build/venv/bin/pip" download --quiet --require-hashes --no-deps \
        --no-build-isolation -r "$LOCK" -d "$build/dist"
    # phevaluator has no ARM wheel: compiled here, as the service user (docs/install-pi.md)
    local wheel='cd "$1/dist" && for s in *.tar.gz; do [ -e "$s" ] || continue; "$1/venv/bin/pip" wheel --quiet --no-deps --no-index --no-build-isolation -w . "$s" || exit 1; done'
    as_service_user "$build" sh -c "$wheel" sh "$build"
    run "$venv/bin/pip" install --quiet --no-index --no-deps "$build"/dist/*.whl
    run "$venv/bin/pip" install --quiet --no-index --no-deps --no-build-isolation "$PREFIX/src"
    sys_run rm -rf "$build"
}

network_drop_in() {  # the IP traffic the service may have, from its configuration
    local conf=$ETC/pokertable/table.toml
    if [[ $DRY_RUN == 1 ]]; then
        echo "+ $PREFIX/venv/bin/pokertable config network $conf > $DROP_IN (temporary file, fsync, rename)"
        return
    fi
    local text
    text=$("$PREFIX/venv/bin/pokertable" config network "$conf") || {
        echo "install.sh: fix $conf, then: sudo systemd/install.sh network" >&2; return 1; }
    printf '%s\n' "$text" | atomic_write "$DROP_IN"
}

main() {
    case "${1:-}" in
        boot-config) shift; boot_config "${1:?usage: install.sh boot-config FILE}"; return ;;
        source) copy_source; return ;;
        network)
            network_drop_in
            sys_run systemctl daemon-reload
            sys_run systemctl try-restart pokertable.service
            return ;;
        --dry-run) DRY_RUN=1 ;;
        "") ;;
        *) echo "usage: $0 [--dry-run] | boot-config FILE | network | source" >&2; exit 2 ;;
    esac
    if [[ $DRY_RUN == 0 && -z $ROOT && $(id -u) != 0 ]]; then
        echo "install.sh: run as root (sudo)" >&2; exit 2
    fi

    # 1. packages
    sys_run apt-get update
    sys_run apt-get install -y --no-install-recommends python3-venv python3-dev gcc python3-lgpio \
        i2c-tools libsdl2-2.0-0 fonts-dejavu-core espeak-ng rsync

    # 2. groups and the service user
    for g in "${GROUPS_NEEDED[@]}"; do
        getent group "$g" >/dev/null || sys_run groupadd --system "$g"
    done
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        sys_run useradd --system --user-group --home-dir /var/lib/pokertable --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    sys_run usermod -a -G "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"

    # 3. source and venv
    copy_source
    install_packages

    # 4. configuration (never overwrite the venue's file)
    run install -d -m 0755 "$ETC/pokertable"
    if [[ ! -e $ETC/pokertable/table.toml ]]; then
        run install -m 0644 "$SRC_DIR/config/example-table.toml" "$ETC/pokertable/table.toml"
    fi
    run "$PREFIX/venv/bin/pokertable" config check "$ETC/pokertable/table.toml" || {
        echo "install.sh: fix $ETC/pokertable/table.toml, then: systemctl restart pokertable" >&2; }

    # 5. udev rule for the shoe
    run install -d -m 0755 "$ETC/udev/rules.d"
    run install -m 0644 "$SRC_DIR/systemd/99-pokertable-shoe.rules" "$ETC/udev/rules.d/"
    sys_run udevadm control --reload
    sys_run udevadm trigger --subsystem-match=tty

    # 6. overlays and the serial console
    boot_config "$BOOT_CONFIG"
    serial_console_off "$BOOT_CMDLINE"

    # 7. the unit
    run install -d -m 0755 "$ETC/systemd/system"
    run install -m 0644 "$SRC_DIR/systemd/pokertable.service" "$ETC/systemd/system/"
    network_drop_in || true
    sys_run systemctl daemon-reload
    sys_run systemctl disable getty@tty1.service
    sys_run systemctl enable pokertable.service
    if [[ $DRY_RUN == 1 ]]; then
        echo "Dry run: nothing was changed."
    else
        echo "Installed.  Reboot once for the overlays: sudo reboot"
    fi
    echo "Then: systemctl status pokertable; journalctl -u pokertable -f"
}

main "$@"
