"""The census of issue 11's hostile inputs: every bad input, every kind of journal damage
and every hostile shoe frame the tests know, tried through the real command line (in
process) or the real shoe client, and counted.

    .venv/bin/python -m tests.pi_app.census          # prints the tables (a few minutes)

Bad inputs: each broken config (``tests/data/config/broken``) by ``config check``, each
broken structure (``tests/data/tournament``) by ``structure check``, each hostile file kind
by each command that reads a file (:mod:`tests.pi_app.cli.test_input_files`) and each case
of ``tests/data/hostile/arguments.toml``.  One is *clear* when it gives exit status 2 and
exactly one line ``pokertable: error: ...`` on stderr, no traceback (``structure check``:
each problem on a line naming the file, then their count).

Journal damage: :mod:`tests.pi_app.journal_damage`.  Hostile frames: each hostile field
alone in a frame (:data:`tests.hardware.shoe.test_fuzz.SWEEP`) and a seeded random mix.
``tests/pi_app/test_census.py`` checks every case one by one.
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pi_app.cli.main import main
from tests.data_paths import DATA, REPO

ARGUMENTS = DATA / "hostile" / "arguments.toml"


@dataclass(frozen=True)
class Outcome:
    rc: int
    out: str
    err: str

    @property
    def clear(self) -> bool:
        """Exit 2 and one ``pokertable: error:`` line, no traceback."""
        lines = self.err.splitlines()
        return (self.rc == 2 and len(lines) == 1 and lines[0].startswith("pokertable: error: ")
                and "Traceback" not in self.err)

    def listed(self, path: str) -> bool:
        """A checker's report (``structure check``): exit 2, each problem on a line of its
        own naming the file, then the count, no traceback."""
        lines = self.err.splitlines()
        return (self.rc == 2 and bool(lines) and all(ln.startswith(path + ": ") for ln in lines)
                and "Traceback" not in self.err and lines[-1].endswith(("problem)", "problems)")))


class _Hung(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Hung("the command blocked")


def run(argv: list[str], timeout: int = 60) -> Outcome:
    """``pokertable argv`` in this process, its output captured; a command that blocks
    longer than ``timeout`` seconds counts as exit 124."""
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:
                rc = exc.code if isinstance(exc.code, int) else 1
            except _Hung:
                rc = 124
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return Outcome(rc, out.getvalue(), err.getvalue())


# --- bad inputs ------------------------------------------------------------------------
@dataclass(frozen=True)
class BadInput:
    group: str
    name: str
    prepare: Callable[[Path], list[str]]  # writes what it needs in the folder; the argv


def _argument_case(case: dict) -> Callable[[Path], list[str]]:
    def prepare(tmp: Path) -> list[str]:
        def fill(text: str) -> str:
            return text.replace("{tmp}", str(tmp)).replace("{data}", str(DATA))

        for name, spec in case.get("files", {}).items():
            target = tmp / name
            if isinstance(spec, str):
                target.write_text(fill(spec), encoding="utf-8")
            elif "hex" in spec:
                target.write_bytes(bytes.fromhex(spec["hex"]))
            else:
                old, new = spec["replace"]
                text = (DATA / spec["from"]).read_text(encoding="utf-8")
                assert old in text, (case["name"], old)
                target.write_text(text.replace(old, new, 1), encoding="utf-8")
        return [fill(a) for a in case["argv"]]
    return prepare


def bad_inputs() -> list[BadInput]:
    """Every bad input of the census, in a stable order."""
    from tests.pi_app.cli.test_input_files import COMMANDS, KINDS, make_input

    cases: list[BadInput] = []
    for f in sorted((DATA / "config" / "broken").glob("*.toml")):
        cases.append(BadInput("broken config", f.stem,
                              lambda _t, f=f: ["config", "check", str(f)]))
    for f in sorted((DATA / "tournament").glob("*.toml")):
        if f.stem != "valid_mixed":
            cases.append(BadInput("broken structure", f.stem,
                                  lambda _t, f=f: ["structure", "check", str(f)]))
    for command in sorted(COMMANDS):
        suffix, argv = COMMANDS[command]
        for kind in KINDS:
            cases.append(BadInput("hostile input file", f"{command} <- {kind}",
                                  lambda t, s=suffix, a=argv, k=kind: a(make_input(t, k, s))))
    for case in tomllib.loads(ARGUMENTS.read_text(encoding="utf-8"))["case"]:
        cases.append(BadInput("command line and small files", case["name"],
                              _argument_case(case)))
    return cases


def try_bad_input(case: BadInput) -> tuple[Outcome, bool]:
    """The outcome, and whether it was clear: one line and exit 2, or for ``structure
    check`` its list of problems (each line naming the file) and exit 2."""
    with tempfile.TemporaryDirectory(prefix="census-") as tmp:
        argv = case.prepare(Path(tmp))
        got = run(argv)
    if argv[:2] == ["structure", "check"] and not got.clear:
        return got, got.listed(argv[2])
    return got, got.clear


# --- hostile frames --------------------------------------------------------------------
@dataclass
class FrameCount:
    frames: int = 0
    refused: int = 0
    raised: int = 0
    cards_lost_silently: int = 0


def hostile_frames(mixes: int = 200, seed: int = 11) -> dict[str, FrameCount]:
    """Each hostile field alone, then ``mixes`` seeded random mixes of good cards, hostile
    frames, line noise, quiet time and new power-ups through the real client."""
    from tests.hardware.shoe import test_fuzz as fz

    alone = FrameCount()
    for mtype, field, value in fz.SWEEP:
        h = fz.Harness()
        h.hello(boot=fz.BOOT)
        h.card(1, fz.DECK[0], 1, boot=fz.BOOT)
        alone.frames += 1
        try:
            h.line(fz.hostile_frame((mtype, fz.BOOT, None, field, value), 2))
        except Exception:  # noqa: BLE001 - counted: the loop would have died
            alone.raised += 1
            continue
        stats = h.client.stats
        alone.refused += int(stats["corrupt_rejected"] + stats["violations"] == 1)
    mixed = FrameCount()
    rng = random.Random(seed)
    for _ in range(mixes):
        _one_mix(rng, mixed, fz)
    return {"each hostile field alone": alone, f"{mixes} random mixes": mixed}


def _one_mix(rng: random.Random, count: FrameCount, fz) -> None:
    h = fz.Harness()
    h.hello(boot=fz.BOOT)
    sent = 0
    try:
        for _ in range(rng.randint(1, 60)):
            step = rng.random()
            if step < 0.35:
                sent += 1
                h.card(sent, fz.DECK[(sent - 1) % 52], sent, boot=fz.BOOT)
            elif step < 0.8:
                count.frames += 1
                mtype = rng.choice(sorted(fz.TEMPLATES))
                fields = [f for f in fz.FIELD_VALUES if f in fz.TEMPLATES[mtype]
                          or f in ("seq", "ms", "boot", "type")]
                field = rng.choice(fields)
                spec = (mtype, rng.choice([fz.BOOT, fz.BOOT, "FEEDC0DE"]),
                        rng.choice([None, None, 1, 5, 40]), field,
                        rng.choice(fz.FIELD_VALUES[field]))
                before = h.client.stats["corrupt_rejected"] + h.client.stats["violations"]
                h.line(fz.hostile_frame(spec, sent + 1))
                after = h.client.stats["corrupt_rejected"] + h.client.stats["violations"]
                count.refused += int(after > before)
            elif step < 0.9:
                h.line(bytes(rng.randrange(256) for _ in range(rng.randint(0, 80))) + b"\n")
            else:
                h.clock.advance(rng.uniform(0, 5))
                h.line(b"")
    except Exception:  # noqa: BLE001 - counted
        count.raised += 1
        return
    from engine.events import CardDrawn, ShoeStatus

    cards = [i for i, e in enumerate(h.events) if isinstance(e, CardDrawn)]
    if len(cards) < sent:
        last = cards[-1] if cards else -1
        if not any(isinstance(e, ShoeStatus) and not e.online for e in h.events[last + 1:]):
            count.cards_lost_silently += 1


# --- the unit's score ------------------------------------------------------------------
def systemd_score() -> str:
    """The last line of ``systemd-analyze security --offline=true`` on the unit file."""
    exe = shutil.which("systemd-analyze")
    if exe is None:
        return "systemd-analyze not installed"
    r = subprocess.run([exe, "security", "--offline=true",
                        str(REPO / "systemd" / "pokertable.service")],
                       capture_output=True, text=True, timeout=120, check=False)
    lines = [ln for ln in r.stdout.splitlines() if "Overall exposure" in ln]
    return lines[-1].strip() if lines else (r.stderr.strip() or "no score")


# --- the tables ------------------------------------------------------------------------
def _table(head: list[str], rows: Iterator[list[object]]) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def main_census() -> int:
    from tests.pi_app import journal_damage

    groups: dict[str, list[bool]] = {}
    unclear: list[str] = []
    for case in bad_inputs():
        got, clear = try_bad_input(case)
        groups.setdefault(case.group, []).append(clear)
        if not clear:
            unclear.append(f"{case.group}: {case.name}: exit {got.rc}: {got.err[-300:]!r}")
    print("Bad inputs\n")
    print(_table(["inputs", "tried", "clear, exit 2"],
                 ([g, len(v), sum(v)] for g, v in groups.items())))
    total = [ok for v in groups.values() for ok in v]
    print(f"| all | {len(total)} | {sum(total)} |\n")
    for line in unclear:
        print("  not clear:", line)
    print("\nJournal damage\n")
    print(journal_damage.census_table())
    print("\nHostile shoe frames (valid CRC)\n")
    frames = hostile_frames()
    print(_table(["frames", "hostile frames", "refused", "client raised",
                  "runs with a card lost silently"],
                 ([k, v.frames, v.refused, v.raised, v.cards_lost_silently]
                  for k, v in frames.items())))
    print(f"\nsystemd: {systemd_score()}")
    return 1 if unclear else 0


if __name__ == "__main__":
    sys.exit(main_census())
