"""Validation of structure files: builds a :class:`engine.tournament.structure.Structure` from parsed
TOML, collecting every problem (file, level or table, and what is wrong) before raising
:class:`engine.tournament.structure.StructureError`.  The format is documented in docs/tournament.md."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeGuard

from engine.text import UnsafeTextError, check_text
from engine.tournament.structure import (
    COLOR_UP_RULES,
    RAISE_RULES,
    BonusWheel,
    Bounty,
    Chip,
    LateRegistration,
    Level,
    PayoutBracket,
    PointsConfig,
    Qualifiers,
    Structure,
    StructureError,
)

#: the largest starting stack accepted, in chips (a real one is 10^3..10^6)
MAX_STARTING_STACK = 10**12

# --------------------------------------------------------------------------- validation
_TOP_KEYS = {"tournament", "chips", "levels", "late_registration", "bounty", "bonus_wheel",
             "qualifiers", "payouts", "points"}
_LEVEL_KEYS = {"small_blind", "big_blind", "ante", "big_blind_ante", "minutes", "hands",
               "break", "color_up", "min_bet"}


#: Longest level or break a structure may give: one day (a longer one is a typo, and a
#: 1e308-minute level would break the TV's clock).
MAX_LEVEL_MINUTES = 24 * 60
#: Most hands a hand-counted level may last.
MAX_LEVEL_HANDS = 1000


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)



def can_make(amount: int, chips: Sequence[int]) -> bool:
    """Whether ``amount`` can be paid exactly with chips of the ``chips`` denominations
    (any number of each).  10/25/100/250 makes 25 and 35, not 15.

    Exact: amounts not a multiple of the chips' greatest common divisor never can; above
    the Frobenius bound (Schur: (smallest - 1) x (largest - 1), in units of that divisor)
    every multiple can; below it a small table of reachable amounts decides.

    >>> can_make(25, (10, 25, 100, 250)), can_make(15, (10, 25, 100, 250))
    (True, False)
    """
    ds = sorted({d for d in chips if d > 0})
    if amount < 0 or not ds:
        return amount == 0
    g = 0
    for d in ds:
        g = math.gcd(g, d)
    if amount % g:
        return False
    r, units = amount // g, [d // g for d in ds]
    if r >= (units[0] - 1) * (units[-1] - 1):
        return True
    reach = [True] + [False] * r
    for v in range(1, r + 1):
        reach[v] = any(v >= u and reach[v - u] for u in units)
    return reach[r]

class Validator:
    """Builds a :class:`Structure` from parsed TOML, collecting every problem."""

    def __init__(self, filename: str):
        self.f = filename
        self.problems: list[str] = []

    def bad(self, where: str, what: str) -> None:
        self.problems.append(f"{self.f}: {where}: {what}" if where else f"{self.f}: {what}")

    def text(self, value: Any, where: str, what: str, max_len: int, *,
             empty: bool = False) -> str:
        """``value`` if it is safe text (:func:`engine.text.check_text`), else reported."""
        try:
            return check_text(value, what, max_len=max_len, allow_empty=empty)
        except UnsafeTextError as exc:
            self.bad(where, str(exc))
            return "?"

    def table(self, raw: dict[str, Any], key: str) -> dict[str, Any]:
        v = raw.get(key, {})
        if not isinstance(v, dict):
            self.bad(f"[{key}]", "must be a table")
            return {}
        return v

    def unknown(self, d: dict[str, Any], allowed: set[str], where: str) -> None:
        for k in sorted(set(d) - allowed):
            self.bad(where, f"unknown key {k!r} (expected one of {', '.join(sorted(allowed))})")

    def int_field(self, d: dict[str, Any], key: str, where: str, *, default: int | None = None,
                  minimum: int = 0) -> int | None:
        if key not in d:
            return default
        v = d[key]
        if not _is_int(v) or v < minimum:
            self.bad(where, f"{key} must be a whole number >= {minimum}, got {v!r}")
            return default
        return v

    def build(self, raw: dict[str, Any]) -> Structure:
        self.unknown(raw, _TOP_KEYS, "")
        t = self.table(raw, "tournament")
        self.unknown(t, {"name", "source", "buy_in", "raise_rule", "heads_up_hand_limit",
                         "house_profile", "currency"}, "[tournament]")
        name = self.text(t.get("name", Path(self.f).stem), "[tournament]", "name", 60)
        source = self.text(t.get("source", ""), "[tournament]", "source", 200, empty=True)
        buy_in = self.int_field(t, "buy_in", "[tournament]", default=0) or 0
        currency = self.text(t.get("currency", "$"), "[tournament]", "currency", 4)
        raise_rule = t.get("raise_rule", "standard")
        if raise_rule not in RAISE_RULES:
            self.bad("[tournament]", f"raise_rule must be one of {RAISE_RULES}, got {raise_rule!r}")
        hu = self.int_field(t, "heads_up_hand_limit", "[tournament]", minimum=1)
        profile = t.get("house_profile", "tda2024")
        from engine.dealing.irregularities import PROFILES

        if profile not in PROFILES:
            self.bad("[tournament]", f"house_profile must be one of {', '.join(PROFILES)}, "
                                     f"got {profile!r}")

        chips, starting, rule = self.chips(self.table(raw, "chips"))
        levels = self.levels(raw.get("levels"), chips)
        last_number = max((lv.number for lv in levels if not lv.is_break), default=0)
        late = self.late(self.table(raw, "late_registration"), last_number, starting)
        bounty = self.bounty(raw, chips)
        wheel = self.wheel(raw, chips)
        quals = self.qualifiers(raw)
        if quals is not None and len(levels) != 1:
            self.bad("[qualifiers]", "a structure with qualifying rounds has exactly one level "
                                     "(each round's time limit replaces its minutes)")
        payouts = self.payouts(raw)
        points = self.points(raw)
        if self.problems:
            raise StructureError(self.problems)
        return Structure(
            name=name, source=source, chips=chips, starting_chips=starting, levels=levels,
            color_up_rule=rule, raise_rule=str(raise_rule), buy_in=buy_in, currency=currency,
            late_registration=late, bounty=bounty, bonus_wheel=wheel,
            heads_up_hand_limit=hu, qualifiers=quals, payouts=payouts, points=points,
            path=self.f, house_profile=str(profile))

    # -- chips
    def chips(self, c: dict[str, Any]) -> tuple[tuple[Chip, ...], dict[int, int], str]:
        self.unknown(c, {"set", "starting", "starting_stack", "color_up_rule"}, "[chips]")
        rule = c.get("color_up_rule", "round_up")
        if rule not in COLOR_UP_RULES:
            self.bad("[chips]", f"color_up_rule must be one of {COLOR_UP_RULES}, got {rule!r}")
        chips = self.chip_set(c)
        raw_start = c.get("starting", {})
        starting = self.starting(raw_start, {x.denomination for x in chips})
        total = sum(d * n for d, n in starting.items())
        if isinstance(raw_start, dict) and raw_start and total <= 0:
            self.bad("[chips.starting]", "the starting stack is empty")
        if total > MAX_STARTING_STACK:
            self.bad("[chips.starting]", f"the starting stack of {total} chips is more than "
                                         f"{MAX_STARTING_STACK} (10^12)")
        if "starting_stack" in c and c["starting_stack"] != total:
            self.bad("[chips]", f"starting_stack {c['starting_stack']!r} does not match the "
                                f"starting chips, which add up to {total}")
        return tuple(chips), dict(sorted(starting.items())), str(rule)

    def chip_set(self, c: dict[str, Any]) -> list[Chip]:
        """``[[chips.set]]``: the chips in play, lowest denomination first."""
        chips: list[Chip] = []
        raw_set = c.get("set", [])
        if not isinstance(raw_set, list) or not raw_set:
            self.bad("[chips]", "set must list at least one chip ([[chips.set]])")
            raw_set = []
        for i, ch in enumerate(raw_set, 1):
            where = f"chip {i}"
            if not isinstance(ch, dict):
                self.bad(where, "must be a table with denomination and color")
                continue
            self.unknown(ch, {"denomination", "color"}, where)
            d: Any = ch.get("denomination")
            if not _is_int(d) or d <= 0:
                self.bad(where, f"denomination must be a positive whole number, got {d!r}")
                continue
            color = ch.get("color")
            if not isinstance(color, str) or not color.strip():
                self.bad(where, f"the {d} chip needs a color name")
                color = "?"
            color = self.text(color, where, f"the {d} chip's color", 24)
            if any(x.denomination == d for x in chips):
                self.bad(where, f"denomination {d} is listed twice")
                continue
            chips.append(Chip(d, color))
        chips.sort(key=lambda x: x.denomination)
        return chips

    def starting(self, raw_start: Any, denoms: set[int]) -> dict[int, int]:
        """``[chips.starting]``: denomination -> count of a player's starting chips."""
        starting: dict[int, int] = {}
        if not isinstance(raw_start, dict) or not raw_start:
            self.bad("[chips.starting]", "give each player's starting chips by denomination")
            raw_start = {}
        for k, v in raw_start.items():
            try:
                d = int(k)
            except ValueError:
                self.bad("[chips.starting]", f"{k!r} is not a denomination")
                continue
            if str(k) != str(d):
                self.bad("[chips.starting]", f"write the denomination {k!r} as {d}, without "
                                             "leading zeros or spaces")
                continue
            if d not in denoms:
                self.bad("[chips.starting]", f"denomination {d} is not in the chip set")
            if not _is_int(v) or v < 0:
                self.bad("[chips.starting]", f"count of {d} chips must be >= 0, got {v!r}")
                continue
            starting[d] = v
        return starting

    # -- levels
    def levels(self, raw_levels: Any, chips: tuple[Chip, ...]) -> tuple[Level, ...]:
        if not isinstance(raw_levels, list) or not raw_levels:
            self.bad("[[levels]]", "at least one level is required")
            return ()
        out: list[Level] = []
        in_play = sorted(c.denomination for c in chips)
        number = 0
        prev_bb = 0
        for index, raw in enumerate(raw_levels):
            if not isinstance(raw, dict):
                self.bad(f"entry {index + 1}", "must be a table")
                continue
            is_break = raw.get("break", False)
            if not isinstance(is_break, bool):
                self.bad(f"entry {index + 1}", "break must be true or false")
                is_break = False
            if not is_break:
                number += 1
            where = f"break after level {number}" if is_break else f"level {number}"
            self.unknown(raw, _LEVEL_KEYS, where)
            sb = self.int_field(raw, "small_blind", where, default=0) or 0
            bb = self.int_field(raw, "big_blind", where, default=0) or 0
            ante = self.int_field(raw, "ante", where, default=0) or 0
            bba = self.int_field(raw, "big_blind_ante", where, default=0) or 0
            min_bet = self.int_field(raw, "min_bet", where, minimum=1)
            minutes, hands = self.duration(raw, where)
            if is_break:
                if hands is not None:
                    self.bad(where, "a break lasts a number of minutes, not hands")
                if sb or bb or ante or bba:
                    self.bad(where, "a break has no blinds or antes")
            else:
                if bb < sb:
                    self.bad(where, f"big blind {bb} is smaller than the small blind {sb}")
                if bb == 0 and sb == 0 and not min_bet:
                    self.bad(where, "a level without blinds needs a min_bet")
                if bb and bb < prev_bb:
                    self.bad(where, f"big blind {bb} is lower than the previous level's {prev_bb}")
                prev_bb = max(prev_bb, bb)
            before = list(in_play)
            color_up = self.color_up(raw, where, in_play)
            if in_play:
                self.makeable(where, in_play, before, (
                    ("small blind", sb), ("big blind", bb), ("ante", ante),
                    ("big blind ante", bba), ("min bet", min_bet or 0)))
            out.append(Level(index=len(out), number=number, small_blind=sb, big_blind=bb,
                             ante=ante, big_blind_ante=bba,
                             minutes=float(minutes) if minutes is not None else None,
                             hands=hands, is_break=is_break, color_up=tuple(color_up),
                             min_bet=min_bet))
        if out and out[0].is_break:
            self.bad("break after level 0", "the structure cannot start with a break")
        return tuple(out)

    def duration(self, raw: dict[str, Any], where: str) -> tuple[Any, Any]:
        """``(minutes, hands)`` of one level or break, exactly one given (else None)."""
        minutes = raw.get("minutes")
        hands = raw.get("hands")
        if minutes is not None and (not _is_num(minutes) or minutes <= 0):
            self.bad(where, f"minutes must be a positive number, got {minutes!r}")
            minutes = None
        elif minutes is not None and not 1 <= minutes <= MAX_LEVEL_MINUTES:
            self.bad(where, f"minutes must be 1..{MAX_LEVEL_MINUTES}, got {minutes!r}")
            minutes = None
        if hands is not None and (not _is_int(hands) or hands <= 0):
            self.bad(where, f"hands must be a positive whole number, got {hands!r}")
            hands = None
        elif hands is not None and hands > MAX_LEVEL_HANDS:
            self.bad(where, f"hands must be 1..{MAX_LEVEL_HANDS}, got {hands!r}")
            hands = None
        if ("minutes" in raw) == ("hands" in raw):
            self.bad(where, "give exactly one of minutes or hands")
        return minutes, hands

    def color_up(self, raw: dict[str, Any], where: str, in_play: list[int]) -> list[int]:
        """The level's ``color_up`` denominations, removed from ``in_play`` (in place)."""
        color_up = raw.get("color_up", [])
        if _is_int(color_up):
            color_up = [color_up]
        if not isinstance(color_up, list) or not all(_is_int(d) for d in color_up):
            self.bad(where, f"color_up must list denominations, got {color_up!r}")
            color_up = []
        for d in color_up:
            if d not in in_play:
                self.bad(where, f"color-up of {d}: that denomination is not in play")
            else:
                in_play.remove(d)
        if color_up and not in_play:
            self.bad(where, "the color-up removes every denomination")
        return list(color_up)

    def makeable(self, where: str, in_play: list[int], before: list[int],
                 amounts: tuple[tuple[str, int], ...]) -> None:
        """Each forced bet of a level can be made from the chips still in play."""
        for label, amount in amounts:
            if amount and not can_make(amount, in_play):
                need = [d for d in before if d not in in_play and amount % d == 0]
                if need:
                    self.bad(where, f"color-up of {need[0]} but the {label} {amount} "
                                    f"still needs those chips")
                else:
                    self.bad(where, f"{label} {amount} cannot be made from the chips in "
                                    f"play ({', '.join(map(str, in_play))})")

    # -- entries
    def late(self, lr: dict[str, Any], last_number: int, starting: dict[int, int]) -> LateRegistration:
        where = "[late_registration]"
        self.unknown(lr, {"last_level", "deductions", "close_at_first_raise"}, where)
        first_raise = lr.get("close_at_first_raise", False)
        if not isinstance(first_raise, bool):
            self.bad(where, "close_at_first_raise must be true or false")
            first_raise = False
        last = self.int_field(lr, "last_level", where, default=1 if first_raise else 0) or 0
        if first_raise and last != 1:
            self.bad(where, f"close_at_first_raise means the last level is 1, not {last}")
        if last > last_number:
            self.bad(where, f"last_level {last} is beyond the last level {last_number}")
        deductions: dict[int, int] = {}
        raw_d = lr.get("deductions", {})
        if not isinstance(raw_d, dict):
            self.bad(where, "deductions must map level numbers to chips")
            raw_d = {}
        stack = sum(d * n for d, n in starting.items())
        for k, v in raw_d.items():
            try:
                lvl = int(k)
            except ValueError:
                self.bad(where, f"deductions: {k!r} is not a level number")
                continue
            if not 1 <= lvl <= last:
                self.bad(f"level {lvl}", f"a late-entry deduction is given but late "
                                         f"registration ends after level {last}")
            if not _is_int(v) or v < 0:
                self.bad(f"level {lvl}", f"late-entry deduction must be >= 0, got {v!r}")
                continue
            if stack and v >= stack:
                self.bad(f"level {lvl}", f"late-entry deduction {v} leaves no starting stack")
            deductions[lvl] = v
        return LateRegistration(last, dict(sorted(deductions.items())), first_raise)

    # -- extras
    def bounty(self, raw: dict[str, Any], chips: tuple[Chip, ...]) -> Bounty | None:
        if "bounty" not in raw:
            return None
        b = self.table(raw, "bounty")
        self.unknown(b, {"chips"}, "[bounty]")
        v = self.int_field(b, "chips", "[bounty]", minimum=1)
        if v is None:
            self.bad("[bounty]", "chips (the bounty chip's value) is required")
            return None
        if chips and not can_make(v, [c.denomination for c in chips]):
            self.bad("[bounty]", f"a bounty of {v} cannot be made from the chip set")
        return Bounty(v)

    def wheel(self, raw: dict[str, Any], chips: tuple[Chip, ...] = ()) -> BonusWheel | None:
        if "bonus_wheel" not in raw:
            return None
        w = self.table(raw, "bonus_wheel")
        where = "[bonus_wheel]"
        self.unknown(w, {"name", "first_hand", "last_hand", "segments"}, where)
        first = self.int_field(w, "first_hand", where, minimum=1)
        last = self.int_field(w, "last_hand", where, minimum=1)
        if first is None or last is None:
            self.bad(where, "first_hand and last_hand (the window of hands) are required")
            return None
        if last < first:
            self.bad(where, f"last_hand {last} is before first_hand {first}")
        seg = w.get("segments")
        if not isinstance(seg, list) or not seg or not all(_is_int(s) and s > 0 for s in seg):
            self.bad(where, f"segments must list positive chip amounts, got {seg!r}")
            return None
        if chips:  # a bonus is paid in chips: it must be made of the set's chips
            denoms = [c.denomination for c in chips]
            odd = [s for s in seg if not can_make(s, denoms)]
            if odd:
                self.bad(where, f"segments {odd} cannot be paid in the chip set "
                                f"({', '.join(map(str, sorted(denoms)))})")
        name = self.text(w.get("name", "Bonus wheel"), where, "name", 40)
        return BonusWheel(name, first, last, tuple(seg))

    def qualifiers(self, raw: dict[str, Any]) -> Qualifiers | None:
        if "qualifiers" not in raw:
            return None
        q = self.table(raw, "qualifiers")
        where = "[qualifiers]"
        self.unknown(q, {"rounds", "minutes", "advance", "final_minutes"}, where)
        rounds = self.int_field(q, "rounds", where, minimum=1)
        advance = self.int_field(q, "advance", where, minimum=1)
        minutes: Any = q.get("minutes")
        final: Any = q.get("final_minutes")
        for key, v in (("minutes", minutes), ("final_minutes", final)):
            if not _is_num(v) or v <= 0:
                self.bad(where, f"{key} must be a positive number, got {v!r}")
        if rounds is None or advance is None:
            self.bad(where, "rounds and advance are required")
            return None
        if not (_is_num(minutes) and _is_num(final)):
            return None
        return Qualifiers(rounds, float(minutes), advance, float(final))

    def payouts(self, raw: dict[str, Any]) -> tuple[PayoutBracket, ...]:
        if "payouts" not in raw:
            return ()
        p = self.table(raw, "payouts")
        self.unknown(p, {"table"}, "[payouts]")
        out: list[PayoutBracket] = []
        rows = p.get("table", [])
        if not isinstance(rows, list):
            self.bad("[payouts]", "table must be a list of brackets")
            return ()
        for i, row in enumerate(rows, 1):
            where = f"payout bracket {i}"
            if not isinstance(row, dict):
                self.bad(where, "must be a table")
                continue
            self.unknown(row, {"min_entrants", "max_entrants", "percentages"}, where)
            lo = self.int_field(row, "min_entrants", where, minimum=1)
            hi = self.int_field(row, "max_entrants", where, minimum=1)
            pct = row.get("percentages")
            if lo is None or hi is None or hi < lo:
                self.bad(where, "needs min_entrants <= max_entrants")
                continue
            if not isinstance(pct, list) or not pct or not all(_is_num(x) and x > 0 for x in pct):
                self.bad(where, f"percentages must list positive numbers, got {pct!r}")
                continue
            if abs(sum(pct) - 100) > 1e-6:
                self.bad(where, f"percentages add up to {sum(pct)}, not 100")
            if list(pct) != sorted(pct, reverse=True):
                self.bad(where, "a lower place cannot pay more than a higher one")
            if len(pct) > lo:
                self.bad(where, f"pays {len(pct)} places but may have only {lo} entrants")
            if out and lo <= out[-1].max_entrants:
                self.bad(where, "overlaps the previous bracket")
            out.append(PayoutBracket(lo, hi, tuple(float(x) for x in pct)))
        return tuple(out)

    def points(self, raw: dict[str, Any]) -> PointsConfig | None:
        if "points" not in raw:
            return None
        from engine.tournament.points import FORMULA_PRESETS, FormulaError, check_formula

        p = self.table(raw, "points")
        where = "[points]"
        self.unknown(p, {"kind", "formula", "paid_fraction", "table", "multipliers",
                         "knockout_bonus", "high_hand_bonus"}, where)
        kind = p.get("kind", "formula")
        if kind == "formula":
            text = FORMULA_PRESETS.get(p.get("formula", ""), p.get("formula", ""))
            try:
                check_formula(str(text))
            except FormulaError as exc:
                self.bad(where, str(exc))
            frac = p.get("paid_fraction")
            if frac is not None and (not _is_num(frac) or not 0 < frac <= 1):
                self.bad(where, f"paid_fraction must be in (0, 1], got {frac!r}")
                frac = None
            return PointsConfig("formula", formula=str(text), paid_fraction=frac)
        if kind == "table":
            table = p.get("table")
            if not isinstance(table, list) or not table or not all(_is_num(x) for x in table):
                self.bad(where, "table must list the points by place")
                table = []
            mults: list[tuple[int, float]] = []
            for m in p.get("multipliers", []):
                if (not isinstance(m, dict) or not _is_int(m.get("min_entrants"))
                        or not _is_num(m.get("factor"))):
                    self.bad(where, f"multiplier {m!r} needs min_entrants and factor")
                    continue
                mults.append((m["min_entrants"], float(m["factor"])))
            bonuses = []
            for key in ("knockout_bonus", "high_hand_bonus"):
                v = p.get(key, 0)
                if not _is_num(v):
                    self.bad(where, f"{key} must be a number")
                    v = 0
                bonuses.append(float(v))
            return PointsConfig("table", table=tuple(float(x) for x in table),
                                multipliers=tuple(sorted(mults)),
                                knockout_bonus=bonuses[0], high_hand_bonus=bonuses[1])
        self.bad(where, f"kind must be 'formula' or 'table', got {kind!r}")
        return None
