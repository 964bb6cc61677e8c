"""systemd/install.sh in a temporary root (issue 11, item 14): config.txt replaced
atomically, the program owned by root, packages from the hashed lock built by the service
user."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.data_paths import REPO

INSTALL = REPO / "systemd" / "install.sh"
LOCK = REPO / "systemd" / "requirements.lock"


def _sh(*args: str, root: Path | None = None, **kw) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if root is not None:
        env["POKERTABLE_ROOT"] = str(root)
    return subprocess.run(["bash", *args], capture_output=True, text=True, env=env,
                          timeout=120, **kw)


def test_boot_config_is_replaced_by_a_rename_not_rewritten(tmp_path):
    cfg = tmp_path / "boot" / "config.txt"
    cfg.parent.mkdir()
    cfg.write_text("dtparam=audio=on\n")
    before = cfg.stat().st_ino
    proc = _sh(str(INSTALL), "boot-config", str(cfg))
    assert proc.returncode == 0, proc.stderr
    assert cfg.stat().st_ino != before, "config.txt was rewritten in place"
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70" in cfg.read_text()
    assert sorted(p.name for p in cfg.parent.iterdir()) == ["config.txt"]  # no temp left
    text = INSTALL.read_text()
    body = text[text.index("atomic_write() {"):text.index("boot_config() {")]
    assert 'sync "$tmp"' in body and 'mv -f "$tmp" "$file"' in body


def test_the_serial_console_is_removed_by_a_rename_too(tmp_path):
    root = tmp_path / "root"
    cmdline = root / "boot" / "firmware" / "cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait\n")
    before = cmdline.stat().st_ino
    proc = _sh("-c", f'source <(sed "s/^main \\"\\$@\\"$//" {INSTALL}); '
                     f'serial_console_off "$BOOT_CMDLINE"', root=root)
    assert proc.returncode == 0, proc.stderr
    assert cmdline.read_text() == "console=tty1 root=PARTUUID=1 rootwait\n"
    assert cmdline.stat().st_ino != before


def test_the_program_is_copied_owned_by_root_not_by_the_checkout_owner(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("giving files another owner needs root (CI runs as root)")
    checkout = tmp_path / "checkout"
    (checkout / "systemd").mkdir(parents=True)
    shutil.copy2(INSTALL, checkout / "systemd" / "install.sh")
    (checkout / "engine").mkdir()
    (checkout / "engine" / "x.py").write_text("X = 1\n")
    (checkout / "engine" / "x.py").chmod(0o666)
    (checkout / ".git").mkdir()
    for p in [checkout, *checkout.rglob("*")]:
        os.chown(p, 1234, 1234)
    root = tmp_path / "root"
    proc = _sh(str(checkout / "systemd" / "install.sh"), "source", root=root)
    assert proc.returncode == 0, proc.stderr
    src = root / "opt" / "pokertable" / "src"
    copied = [src, *src.rglob("*")]
    assert (src / "engine" / "x.py").read_text() == "X = 1\n" and not (src / ".git").exists()
    assert {(p.stat().st_uid, p.stat().st_gid) for p in copied} == {(0, 0)}
    assert not any(p.stat().st_mode & 0o022 for p in copied)   # nobody else may write
    assert os.access(src / "systemd" / "install.sh", os.X_OK)


def test_dry_run_builds_from_the_lock_as_the_service_user(tmp_path):
    proc = _sh(str(INSTALL), "--dry-run", root=tmp_path / "root")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    as_user = [ln for ln in out.splitlines() if "runuser -u pokertable --" in ln]
    assert any("pip download" in ln and "--require-hashes" in ln and str(LOCK) in ln
               for ln in as_user)
    assert any(re.search(r"pip\"? wheel", ln) and "--no-build-isolation" in ln for ln in as_user)
    root_pip = [ln for ln in out.splitlines() if "/opt/pokertable/venv/bin/pip install" in ln]
    assert root_pip and all("--no-index" in ln and "runuser" not in ln for ln in root_pip)
    assert "--upgrade pip" not in out          # nothing is fetched unchecked
    assert "rsync -rlpt --delete --no-owner --no-group" in out
    assert "config network" in out and "pokertable.service.d/network.conf" in out
    assert "Dry run: nothing was changed." in out


def _lock() -> dict[str, tuple[str, int]]:
    """name -> (pinned version, number of hashes)."""
    out: dict[str, tuple[str, int]] = {}
    name = ""
    for line in LOCK.read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line)
        if m:
            name = m.group(1).lower().replace("_", "-").replace(".", "-")
            out[name] = (m.group(2), 0)
        elif "--hash=sha256:" in line and name:
            out[name] = (out[name][0], out[name][1] + 1)
    return out


def test_the_lock_pins_every_dependency_with_hashes_and_ci_runs_those_versions():
    lock = _lock()
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    for dep in map(Requirement, deps):
        key = dep.name.lower().replace("_", "-").replace(".", "-")
        assert key in lock, (f"{dep.name} is not in {LOCK.name}: regenerate it with the "
                             "command in its header")
        version, hashes = lock[key]
        assert dep.specifier.contains(version), f"{dep.name}=={version} vs {dep.specifier}"
        assert hashes >= 1
        installed = metadata.version(dep.name)
        assert installed == version, f"CI runs {dep.name} {installed}, the Pi gets {version}"
    assert {"setuptools", "wheel"} <= set(lock)   # the build backend, hashed too
