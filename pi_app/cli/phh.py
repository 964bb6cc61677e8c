"""``pokertable phh replay FILE...``: replay PHH hand histories through our hand engine.

Prints one JSON line per hand: ``file``, ``hand`` (the table name in a ``.phhs`` file,
1 for a ``.phh``), ``status`` (``ok`` / ``mismatch`` / ``skipped``), ``reason`` and our
``finishing_stacks`` (file units, by PHH player p1..pN; ``null`` when the hand could not
be judged), then ``N passed, M failed, K skipped``.

Exit status: 0 all judged hands agree, 1 any mismatch, 2 unreadable input (missing file,
broken TOML, bad card or action; nothing is replayed then).  Unknown variants are
skipped, not errors, and so is a file not named ``.phh``/``.phhs`` (one line with
``"hand": null`` and reason ``"not a PHH file (.phh or .phhs)"``; it is not read).  Rules of the judgement: :mod:`engine.history.phh_replay`.
"""

from __future__ import annotations

import argparse
import json
import os

from engine.history.phh import UnknownVariantError
from engine.history.phh_replay import MISMATCH, OK, SKIPPED, replay_hand
from pi_app.sim.phh_files import NOT_PHH, PhhFileError, is_phh_name, load


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("phh", help="PHH hand histories (replay through the engine)")
    sub = p.add_subparsers(dest="phh_command", metavar="SUBCOMMAND", required=True)
    r = sub.add_parser("replay", help="replay every hand of PHH files through our engine",
                       description="Replay every hand of PHH files through our hand engine; one JSON "
                       "line per hand, then a summary.  Exit 1 on a mismatch, 2 on "
                       "unreadable input.")
    r.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files")
    r.set_defaults(func=handle_replay)


def check_phh_files(files: list[str]) -> None:
    """Refuse a folder among ``files``, or files of which none is a PHH file (other files,
    a shell glob picking up SOURCE.md, are reported as skipped, not read).

    Raises:
        PhhFileError: naming the first such file; nothing was replayed.
    """
    for f in files:
        if os.path.isdir(f):
            raise PhhFileError(f"{f}: cannot read: Is a directory (give .phh or .phhs "
                               f"files, e.g. {os.path.join(f, '*.phh')})")
    if not any(is_phh_name(f) for f in files):
        raise PhhFileError(f"{files[0]}: {NOT_PHH}; nothing to replay")


def handle_replay(args: argparse.Namespace) -> int:
    # read every PHH file first: bad input -> exit 2
    check_phh_files(args.files)
    loaded = [(f, load(f) if is_phh_name(f) else None) for f in args.files]
    counts = {OK: 0, MISMATCH: 0, SKIPPED: 0}
    for path, hands in loaded:
        if hands is None:
            counts[SKIPPED] += 1
            print(json.dumps({"file": path, "hand": None, "status": SKIPPED, "reason": NOT_PHH,
                              "finishing_stacks": None}, ensure_ascii=False))
            continue
        for label, h in hands:
            if isinstance(h, UnknownVariantError):
                line = {"file": path, "hand": label, "status": SKIPPED, "reason": str(h),
                        "finishing_stacks": None}
                status = SKIPPED
            else:
                res = replay_hand(h)  # type: ignore[arg-type]
                status = res.status
                line = {"file": path, "hand": label, "status": res.status,
                        "reason": res.reason, "finishing_stacks": res.finishing_units()}
            counts[status] += 1
            print(json.dumps(line, ensure_ascii=False), flush=False)
    print(f"{counts[OK]} passed, {counts[MISMATCH]} failed, {counts[SKIPPED]} skipped")
    return 1 if counts[MISMATCH] else 0
