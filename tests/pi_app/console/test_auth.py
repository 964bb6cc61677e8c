"""ctl's own token file (``<state>/console-ctl.token``): a valid token is kept; one that
holds no valid token (binary, too long, garbage text) is replaced; a file that is not a
regular file is refused naming it; no ``.new`` is ever left beside it.  ctl makes neither
the state folder nor the token store: the running table made them (the fixture below, as
the service does when it starts its console)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.errors import PokerTableError
from pi_app.console.auth import CTL_TOKEN, CtlTokenError, TokenStore, ctl_token


@pytest.fixture(autouse=True)
def _the_table_made_its_token_store(tmp_path: Path) -> None:
    TokenStore(tmp_path).close()


def _valid(state: Path, token: str) -> bool:
    store = TokenStore(state)
    try:
        return store.check(token) is not None
    finally:
        store.close()


def test_a_valid_token_is_kept(tmp_path: Path) -> None:
    first = ctl_token(tmp_path)
    assert ctl_token(tmp_path) == first and _valid(tmp_path, first)
    assert (tmp_path / CTL_TOKEN).read_text() == first + "\n"


@pytest.mark.parametrize("damage", [os.urandom(10 << 20), b"not a token at all\n",
                                    b"x" * 5000, b""])
def test_a_damaged_token_file_is_replaced(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / CTL_TOKEN
    path.write_bytes(damage)
    token = ctl_token(tmp_path)
    assert _valid(tmp_path, token) and path.read_text() == token + "\n"
    assert path.stat().st_mode & 0o077 == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(CTL_TOKEN)) == [
        CTL_TOKEN]


@pytest.mark.parametrize("kind", ["symbolic link", "directory", "named pipe"])
def test_a_token_file_that_is_not_a_regular_file_is_refused_naming_it(
        tmp_path: Path, kind: str) -> None:
    path = tmp_path / CTL_TOKEN
    if kind == "symbolic link":
        (tmp_path / "elsewhere").write_text("x\n")
        path.symlink_to(tmp_path / "elsewhere")
    elif kind == "directory":
        path.mkdir()
    else:
        os.mkfifo(path, 0o600)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(CtlTokenError, match=str(path)) as err:
        ctl_token(tmp_path)
    assert isinstance(err.value, PokerTableError) and isinstance(err.value, ValueError)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    if kind == "symbolic link":
        assert (tmp_path / "elsewhere").read_text() == "x\n"


def test_a_failed_write_leaves_no_new_file(tmp_path: Path, monkeypatch) -> None:
    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space"):
        ctl_token(tmp_path)
    assert not (tmp_path / (CTL_TOKEN + ".new")).exists()
    assert not (tmp_path / CTL_TOKEN).exists()


@pytest.mark.parametrize("where", ["missing folder", "folder without a store"])
def test_no_token_store_there_is_refused_and_nothing_is_made(tmp_path: Path, where: str) -> None:
    state = tmp_path / "elsewhere" / "deep" if where == "missing folder" else tmp_path / "empty"
    if where != "missing folder":
        state.mkdir()
    with pytest.raises(FileNotFoundError):
        ctl_token(state)
    if where == "missing folder":
        assert not (tmp_path / "elsewhere").exists()
    else:
        assert list(state.iterdir()) == []
