"""The venue console's documents (pi_app/console/venue_state.py): money comes with the
structure's currency, as in the table console's public document, in whole units (ints)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from engine.tournament.structure_file import load_structure
from engine.tournament.venue_prizes import payouts, prize_pool
from pi_app.console.venue_state import registration_document
from pi_app.venue.desk import Desk
from pi_app.venue.director_journal import DirectorJournal


def test_the_registration_document_gives_money_with_the_structures_currency(tmp_path):
    structure = replace(load_structure("gunpowder"), currency="\u20ac")
    desk = Desk(DirectorJournal(tmp_path / "director.sqlite3"), structure, 8)
    try:
        for name in ("Ann", "Bo", "Cy"):
            desk.register(name)
        venue = SimpleNamespace(name="Club", tables=[
            SimpleNamespace(number=1, name="Table 1", seats=8)])
        doc = registration_document(desk, venue)
    finally:
        desk.journal.close()
    assert doc["currency"] == "\u20ac"
    assert doc["prize_pool"] == prize_pool(structure, 3) == 3 * structure.buy_in > 0
    assert doc["payouts"] == [list(p) for p in payouts(structure, 3)]
    assert all(isinstance(amount, int) for _place, amount in doc["payouts"])
