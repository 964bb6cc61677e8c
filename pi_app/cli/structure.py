"""``pokertable structure show NAME_OR_FILE [--json]`` and ``pokertable structure check FILE``.

``show`` prints the level table of a preset (``gunpowder``, ``phat-ace``, ``mini``) or a
structure file; ``--json`` prints :func:`show_json` (:meth:`Structure.to_json` plus
``min_bet`` per level, ``buy_in`` and ``raise_rule``).
``--json --entrants N`` adds ``payouts``: ``[[place, amount], ...]`` in whole units for N
entrants, the pool being N times ``buy_in`` (exact arithmetic, remainder to first place).
``check`` validates a file: exit 0 when valid, 2 with one reason per line when not.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import InvalidInputError
from engine.text import safe_text
from engine.tournament.report import payouts_for
from engine.tournament.structure import Structure, StructureError, StructureFileError
from engine.tournament.structure_file import load_structure


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("structure", help="show or check a tournament structure")
    sub = p.add_subparsers(dest="structure_command", metavar="ACTION", required=True)
    show = sub.add_parser("show", help="print the level table of a preset or file")
    show.add_argument("name_or_file", metavar="NAME_OR_FILE")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.add_argument("--entrants", type=int, default=None, metavar="N",
                      help="with --json: the payouts for N entrants (pool = N x buy_in)")
    show.set_defaults(func=_show)
    check = sub.add_parser("check", help="validate a structure file (exit 0 valid, 2 invalid)")
    check.add_argument("file", metavar="FILE")
    check.set_defaults(func=_check)


def show_json(s: Structure) -> dict:
    """The JSON ``structure show --json`` prints: :meth:`Structure.to_json` plus, per level,
    ``min_bet`` (the minimum bet of a no-blind level; None otherwise) and, at the top,
    ``buy_in`` and ``raise_rule`` (``"standard"`` or ``"double"``)."""
    out = s.to_json()
    for d, lv in zip(out["levels"], s.levels, strict=True):
        d.setdefault("min_bet", lv.min_bet if not lv.is_break and not lv.big_blind else None)
    out.setdefault("buy_in", s.buy_in)
    out.setdefault("raise_rule", s.raise_rule)
    return out


def _show(args: argparse.Namespace) -> int:
    if args.entrants is not None and not 1 <= args.entrants <= 100_000:
        raise InvalidInputError(f"--entrants must be 1..100000, got {args.entrants}")
    s = load_structure(args.name_or_file)
    if args.json:
        out = show_json(s)
        if args.entrants is not None:
            pool = args.entrants * s.buy_in
            out["entrants"] = args.entrants
            out["prize_pool"] = pool
            out["payouts"] = [[k, a] for k, a in payouts_for(s, args.entrants, pool)]
        print(json.dumps(out, indent=2))  # JSON escapes control characters
    else:
        print(format_table(s))
    return 0


def _check(args: argparse.Namespace) -> int:
    try:
        s = load_structure(args.file)
    except StructureFileError:
        raise  # not read at all: one line, exit 2
    except StructureError as exc:
        for line in exc.problems:
            print(safe_text(" ".join(line.split()), 2000), file=sys.stderr)
        print(f"{args.file}: invalid ({len(exc.problems)} problem"
              f"{'s' if len(exc.problems) != 1 else ''})", file=sys.stderr)
        return 2
    print(safe_text(f"{args.file}: valid ({s.name}: {len(s.blind_levels)} levels, "
                    f"starting stack {s.starting_stack})", 2000))
    return 0


def format_table(s: Structure) -> str:
    """The level table as plain text."""
    chips = ", ".join(f"{n} x {d} ({s.color(d)})" for d, n in
                      sorted(s.starting_chips.items(), reverse=True))
    lines = [f"{s.name}" + (f"  [{s.source}]" if s.source else ""),
             f"Starting stack {s.starting_stack}: {chips}"]
    lr = s.late_registration
    if lr.last_level:
        ded = ", ".join(f"level {k}: -{v}" for k, v in lr.deduction_by_level.items())
        lines.append(f"Late registration until the end of level {lr.last_level}"
                     + (f" ({ded})" if ded else ""))
    if s.bounty:
        lines.append(f"Bounty chip: {s.bounty.chips}")
    if s.bonus_wheel:
        w = s.bonus_wheel
        lines.append(f"{w.name}: a hand between {w.first_hand} and {w.last_hand}, "
                     f"bonus one of {', '.join(map(str, w.segments))}")
    if s.heads_up_hand_limit:
        lines.append(f"Heads-up hand limit: {s.heads_up_hand_limit}")
    if s.qualifiers:
        q = s.qualifiers
        lines.append(f"{q.rounds} qualifiers of {q.minutes:g} min, top {q.advance} of each to "
                     f"a final of {q.final_minutes:g} min")
    lines.append("")
    lines.append(f"{'Level':>6}  {'Blinds':>16}  {'Ante':>6}  {'BB ante':>7}  "
                 f"{'Length':>8}  Color-up")
    for lv in s.levels:
        length = f"{lv.minutes:g} min" if lv.minutes is not None else f"{lv.hands} hands"
        cu = ", ".join(f"{d} ({s.color(d)})" for d in lv.color_up)
        if lv.is_break:
            lines.append(f"{'break':>6}  {'':>16}  {'':>6}  {'':>7}  {length:>8}  {cu}")
            continue
        blinds = (f"{lv.small_blind}/{lv.big_blind}" if lv.big_blind
                  else f"min bet {lv.min_bet}")
        lines.append(f"{lv.number:>6}  {blinds:>16}  {lv.ante:>6}  {lv.big_blind_ante:>7}  "
                     f"{length:>8}  {cu}")
    return "\n".join(lines)
