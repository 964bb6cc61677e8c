"""The systemd unit, the udev rule and the install script."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

from pi_app.service.config import load_config
from tests.pi_app.service.helpers import REPO

UNIT = REPO / "systemd" / "pokertable.service"
RULES = REPO / "systemd" / "99-pokertable-shoe.rules"
INSTALL = REPO / "systemd" / "install.sh"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def unit_entries(path: Path) -> dict[str, list[str]]:
    """``"Section.Key" -> [values]`` (repeated keys keep every value)."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return out


def test_unit_has_what_the_table_needs() -> None:
    u = unit_entries(UNIT)
    one = {k: v[-1] for k, v in u.items()}
    assert one["Service.Type"] == "notify" and one["Service.Restart"] == "on-failure"
    assert int(one["Service.WatchdogSec"]) > 0
    assert one["Service.User"] == "pokertable"
    groups = set(one["Service.SupplementaryGroups"].split())
    assert {"gpio", "i2c", "spi", "dialout", "video", "render"} <= groups
    assert "input" not in groups          # the keys are GPIO lines, the TV needs no keyboard
    assert one["Service.StateDirectory"] == "pokertable"
    assert one["Service.StateDirectoryMode"] == "0700"
    assert one["Service.ConfigurationDirectory"] == "pokertable"
    assert "/etc/pokertable/table.toml" in one["Service.ExecStart"]
    # hardening keeps the devices reachable
    assert "Service.PrivateDevices" not in u
    assert one["Service.DevicePolicy"] == "closed"
    allowed = " ".join(u["Service.DeviceAllow"])
    for cls in ("char-drm", "char-i2c", "char-gpiochip", "char-ttyACM", "char-ttyAMA"):
        assert cls in allowed
    assert "char-input" not in allowed and "char-rtc" not in allowed
    for key, value in (("PrivateUsers", "yes"), ("RemoveIPC", "yes"), ("PrivateMounts", "yes"),
                       ("MemoryDenyWriteExecute", "yes"), ("IPAddressDeny", "any")):
        assert one[f"Service.{key}"] == value, key
    assert "~@privileged @resources" in u["Service.SystemCallFilter"]
    assert "AF_INET" not in one["Service.RestrictAddressFamilies"]  # only via the drop-in
    assert "AF_UNIX" in one["Service.RestrictAddressFamilies"]  # the notify socket
    # the console handover for the TV
    assert one["Unit.Conflicts"] == "getty@tty1.service"
    assert one["Service.TTYPath"] == "/dev/tty1"
    assert one["Install.WantedBy"] == "multi-user.target"


def verify(unit_text: str, tmp_path: Path, name: str = "pokertable.service"
           ) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` against a temporary root holding the system's units, a
    stand-in for the installed program and our unit."""
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    exe = root / "opt/pokertable/venv/bin/pokertable"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    unit_dir = root / "etc/systemd/system"
    unit_dir.mkdir(parents=True)
    (unit_dir / name).write_text(unit_text)
    return subprocess.run(["systemd-analyze", "verify", f"--root={root}",
                           f"/etc/systemd/system/{name}"], capture_output=True, text=True,
                          timeout=120)


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    proc = verify(UNIT.read_text(), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "" and proc.stderr.strip() == "", proc.stderr


def test_systemd_analyze_catches_a_broken_unit(tmp_path: Path) -> None:
    """The check above can fail: a misspelt key and a bad value are reported."""
    bad = UNIT.read_text().replace("WatchdogSec=", "WatchdogSecs=").replace(
        "Type=notify", "Type=notifyy")
    proc = verify(bad, tmp_path, "broken.service")
    assert "WatchdogSecs" in proc.stderr and "notifyy" in proc.stderr


def test_udev_rule_is_well_formed_and_matches_the_example_config() -> None:
    item = re.compile(r'^\s*([A-Z_]+(\{[^}]+\})?)\s*(==|!=|\+=|=|:=)\s*"[^"]*"\s*$')
    rules = [ln for ln in RULES.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    assert rules
    for line in rules:
        for part in line.split(","):
            assert item.match(part), f"bad udev item: {part!r}"
    assert sum('SYMLINK+="pokertable-shoe"' in ln for ln in rules) >= 1
    example = load_config(REPO / "config" / "example-table.toml")
    assert example.shoe_port == "/dev/pokertable-shoe"


def test_install_script_syntax_and_mode() -> None:
    assert os.stat(INSTALL).st_mode & stat.S_IXUSR
    assert subprocess.run(["bash", "-n", str(INSTALL)]).returncode == 0


def test_boot_config_is_idempotent_and_keeps_other_lines(tmp_path: Path) -> None:
    cfg = tmp_path / "config.txt"
    cfg.write_text("dtparam=audio=on\n[pi4]\narm_boost=1\n")
    for _ in range(2):
        proc = subprocess.run(["bash", str(INSTALL), "boot-config", str(cfg)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    text = cfg.read_text()
    assert text.startswith("dtparam=audio=on\n[pi4]\narm_boost=1\n")
    assert text.count("dtoverlay=i2c-mux,pca9548,addr=0x70") == 1
    assert text.count("enable_uart=1") == 1 and "dtparam=i2c_arm=on" in text
    # our block starts with [all], so it is not swallowed by the [pi4] section above it
    block = text[text.index("# >>> pokertable"):]
    assert block.splitlines()[1] == "[all]"


def test_install_dry_run_lists_the_steps() -> None:
    proc = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for step in ("python3 -m venv --system-site-packages /opt/pokertable/venv",
                 "99-pokertable-shoe.rules /etc/udev/rules.d/",
                 "pokertable.service /etc/systemd/system/",
                 "systemctl enable pokertable.service", "usermod -a -G"):
        assert step in out
