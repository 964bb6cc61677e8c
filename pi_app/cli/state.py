"""``pokertable state --journal FILE [--json] [--private]``.

Prints the state recovered from a journal without starting anything and without writing
to the journal (a torn last record is reported, not dropped).  The output holds the
journal facts, the core's ``summary()`` (its ``places`` keyed by entry, as the console's
results are: :func:`places_by_entry`) and the public screen; ``--private`` adds the full
snapshot, which contains hole cards.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sqlite3
from typing import Any

from engine.table.core import TableCore
from pi_app.service.core_identity import check_core, core_name
from pi_app.service.journal import Journal
from pi_app.service.recovery import recover
from pi_app.service.wiring import history_dir_for, warn_if_structure_changed


def _jsonable(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    return str(obj)  # Card -> "As"


def places_by_entry(core: Any) -> dict[str, dict[str, Any]] | None:
    """The places decided so far, keyed by entry id (a string) as the console's results
    are: ``{"name", "seat" (1-based), "place" (1-based)}`` in the order of the places.
    A seat filled again by a late entry after its player was out keeps both.  None for a
    core without a tournament (the core's own ``summary()["places"]`` is kept then)."""
    tour = getattr(core, "tournament", None)
    if tour is None:
        return None
    return {str(e.entry_id): {"name": e.name, "seat": e.seat, "place": place}
            for place, e in tour.standings()
            if place is not None and (not e.active or tour.finished)}


#: The table core ``pokertable state`` restores a journal with.
CORE_CLASS: type[Any] = TableCore


def recovered_state(journal_path: str, private: bool = False,
                    core_class: type[Any] | None = None,
                    accept_loss: bool = False, warn_structure: bool = False) -> dict[str, Any]:
    """The JSON-able report ``pokertable state`` prints.  With ``warn_structure``, a
    structure file that changed or is gone since the tournament started is a warning
    (logged; the report is of the copy in the journal).

    Raises:
        FileNotFoundError, JournalSchemaError, JournalCorruptError, CoreMismatchError
        (the journal was written by another core than ``core_class``, default
        :data:`CORE_CLASS`); JournalLossError (a JournalCorruptError): records were lost,
        unless ``accept_loss``.
    """
    cls = core_class or CORE_CLASS
    with Journal.open_readonly(journal_path, accept_loss=accept_loss) as journal:
        check_core(journal.meta, cls, journal_path)
        rec = recover(journal, cls, history_dir_for(journal_path))
        if warn_structure:
            warn_if_structure_changed(rec.core)
        summary = _jsonable(rec.core.summary())
        places = places_by_entry(rec.core)
        if places is not None:  # not by seat: a seat filled again keeps its first player
            summary["places"] = places
        out: dict[str, Any] = {
            "journal": str(journal.path),
            "schema_version": journal.schema_version(),
            "core": core_name(cls),
            "recovery": rec.describe(),
            "summary": summary,
            "screen": _jsonable(rec.core.screen_state()),
        }
        if private:
            out["snapshot"] = rec.core.snapshot()
    return out


def _handler(args: argparse.Namespace) -> int:
    from engine.errors import InvalidInputError
    from pi_app.service.journal import JournalCorruptError
    from pi_app.service.journal_files import damaged_hint

    try:
        report = recovered_state(args.journal, args.private,
                                 accept_loss=args.accept_journal_loss, warn_structure=True)
    except FileNotFoundError:
        raise InvalidInputError(f"{args.journal}: no such journal") from None
    except IsADirectoryError:
        raise InvalidInputError(f"{args.journal}: is a directory, not a journal file") from None
    except PermissionError:
        raise InvalidInputError(f"{args.journal}: permission denied") from None
    except OSError as exc:
        raise InvalidInputError(
            f"{args.journal}: cannot read the journal: {exc.strerror or exc}") from None
    except sqlite3.DatabaseError as exc:  # truncated or overwritten file
        raise JournalCorruptError(
            f"{args.journal}: journal is unreadable ({exc}); the file was not changed"
            f"{damaged_hint(exc)}") from None
    if args.json:
        print(json.dumps(report, sort_keys=True))
        return 0
    rec = report["recovery"]
    print(f"journal   {report['journal']} (schema {report['schema_version']}, "
          f"core {report['core']})")
    print(f"records   {rec['last_seq']} (snapshot {rec['snapshot_seq']} + "
          f"{rec['replayed']} replayed, {rec['rejected']} rejected)")
    if rec["loss"]:
        print(f"loss      {rec['loss']['text']}")
    if rec["torn_record"]:
        print(f"torn      record {rec['torn_record']['seq']} ({rec['torn_record']['reason']}) "
              "would be dropped on resume")
    for key, value in report["summary"].items():
        print(f"{key:<9} {json.dumps(value, sort_keys=True)}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("state", help="print the state recovered from a journal")
    p.add_argument("--journal", required=True, metavar="FILE", help="the journal (journal.db)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--private", action="store_true",
                   help="include the full snapshot (contains hole cards)")
    p.add_argument("--accept-journal-loss", action="store_true",
                   help="show what a journal that lost records still holds")
    p.set_defaults(func=_handler)
