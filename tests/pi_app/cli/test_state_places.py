"""``pokertable state`` keeps every player's place when a seat is filled again: a late
entry into the seat of a player who is out does not replace that player (places are keyed
by entry, as the console's results are)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.events import ConsoleCommand
from engine.table.console_players import late_entry_preview
from engine.table.core import TableCore, TableSettings
from pi_app.service.core_identity import core_name
from pi_app.service.journal import Journal
from tests.pi_app.cli.helpers import run_main


def _command(t: float, command: str, **args: object) -> ConsoleCommand:
    return ConsoleCommand(t=t, command=command, args=args, role="director", token="t0k3n",
                          at="2026-12-01T20:00:00Z")


def _night(path: Path) -> tuple[int, str]:
    """Four players at a four-seat table; one is out, Hal takes the only free seat (that
    player's), then Hal is out too.  Returns the seat and the name of its first player."""
    core = TableCore.new(TableSettings(players={}, seats=(1, 2, 3, 4), structure="gunpowder",
                                       profile="gunpowder"))
    t = 0.0
    with Journal.create(path, core.snapshot(), meta={"core": core_name(TableCore)}) as j:
        def do(command: str, **args: object) -> None:
            nonlocal t
            t += 1.0
            event = _command(t, command, **args)
            j.append(event)
            core.apply(event)
        for name in ("Ann", "Bob", "Cyd", "Dee"):
            do("register", name=name)
        do("seat_draw")
        do("start")
        seat = next(e.seat for e in core.tournament.active() if e.name == "Bob")
        do("eliminate", seat=seat)
        do("late_entry", name="Hal", chips=late_entry_preview(core)["chips"])
        assert next(e.seat for e in core.tournament.active() if e.name == "Hal") == seat
        do("eliminate", seat=seat)
    return seat, "Bob"


def test_a_refilled_seat_keeps_both_players_places(tmp_path: Path, capsys) -> None:
    path = tmp_path / "journal.db"
    seat, _ = _night(path)
    rc, out, err = run_main(["state", "--journal", str(path), "--json"], capsys)
    assert rc == 0, err
    places = json.loads(out)["summary"]["places"]
    by_name = {row["name"]: row for row in places.values()}
    assert set(by_name) == {"Bob", "Hal"}
    assert by_name["Bob"]["seat"] == by_name["Hal"]["seat"] == seat
    assert (by_name["Hal"]["place"], by_name["Bob"]["place"]) == (4, 5)
    assert len(set(places)) == 2  # two entries, two keys
    rc, out, err = run_main(["state", "--journal", str(path)], capsys)
    assert rc == 0 and '"Bob"' in out and '"Hal"' in out
