"""PHH hand histories (Poker Hand History, TOML; the format pokerkit reads): the model and
the reader.  The writer is :mod:`engine.history.phh_write`.

A ``.phh`` file holds one hand with its fields at the top level; a ``.phhs`` file holds
many, each a top-level table ``[1]``, ``[2]``, ...  Source of the format: the PHH
standard (Kim, 2024, uoftcprg/phh-std) and the data notes in ../shared/data/phh/SOURCE.md.

Amounts are parsed as :class:`decimal.Decimal` (``tomllib.loads(s, parse_float=Decimal)``)
and scaled to integer chips: a hand whose amounts have at most ``k`` decimals gets
``chips_per_unit = 10**k`` (``22.50`` -> 2250 chips), and is scaled back on export.
An ``inf`` starting stack (stack unknown) is kept as ``None``.

Player indices p1..pN are kept as in the file (1-based); mapping them to seats is the
replay's job (:mod:`engine.history.phh_replay`).

>>> h = loads_hand('''variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 22.50, inf]
... actions = ['d dh p1 AsKs', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 6', 'p2 f']
... ''')
>>> h.chips_per_unit, h.starting_stacks, h.actions[4].amount
(100, (10000, 2250, None), 600)
>>> str(h.actions[4]), str(h.actions[0])
('p1 cbr 6', 'd dh p1 AsKs')
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.cards import Card
from engine.errors import InvalidCardError, InvalidInputError
from engine.input_file import InputFileError, loads_toml

SUPPORTED_VARIANTS = ("NT",)  # No-Limit Texas Hold'em
#: Fields this module interprets; every other field is kept verbatim in ``PhhHand.extra``.
KNOWN_FIELDS = (
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "min_bet",
    "starting_stacks", "actions", "players", "seats", "winnings", "finishing_stacks",
)
_AMOUNT_LISTS = ("antes", "blinds_or_straddles", "starting_stacks", "winnings",
                 "finishing_stacks")
_MAX_DECIMALS = 6
#: The largest amount, in chips, a hand may hold (a quadrillion: far beyond any real
#: stack, small enough for exact arithmetic everywhere).  ``inf`` stays "unknown".
MAX_CHIPS = 10**15


class PhhError(InvalidInputError):
    """A PHH file or hand that cannot be read (broken TOML, missing field, bad action)."""


class PhhCardError(PhhError, InvalidCardError):
    """A card in a PHH action is not a valid card (``????`` / ``??`` mean unknown)."""


class UnknownVariantError(PhhError):
    """The hand is of a variant other than No-Limit Texas Hold'em (``variant = 'NT'``)."""

    def __init__(self, variant: object):
        super().__init__(f"unknown PHH variant {variant!r}: only {SUPPORTED_VARIANTS} "
                         "(No-Limit Texas Hold'em) is supported")
        self.variant = variant


# --------------------------------------------------------------------------- actions

KINDS = ("deal_hole", "deal_board", "fold", "check_or_call", "bet_or_raise_to", "show_or_muck")


@dataclass(frozen=True)
class PhhAction:
    """One entry of ``actions``.

    Attributes:
        kind: one of :data:`KINDS`.
        player: PHH player index (1-based) or ``None`` for board dealing.
        cards: for deal_hole / deal_board / show_or_muck: the cards, ``None`` for an
            unknown card (``??``).  Empty for a muck.
        amount: for bet_or_raise_to: the total to bet or raise to, in chips.
        show: for show_or_muck: ``True`` shows, ``False`` mucks (``pN sm``).
        comment: the text after ``#``, if any.
    """

    kind: str
    player: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: int | None = None
    show: bool | None = None
    comment: str | None = None
    chips_per_unit: int = field(default=1, compare=False, repr=False)

    @property
    def known_cards(self) -> bool:
        """True when every card of the action is known."""
        return all(c is not None for c in self.cards)

    def format(self, chips_per_unit: int | None = None) -> str:
        """The PHH action text, amounts in the file's units."""
        text = format_action(self.kind, self.player, self.cards, self.amount, self.show,
                             chips_per_unit or self.chips_per_unit)
        return f"{text} # {self.comment}" if self.comment is not None else text

    def __str__(self) -> str:
        return self.format()


def format_action(kind: str, player: int | None, cards: tuple[Card | None, ...] = (),
                  amount: int | None = None, show: bool | None = None,
                  chips_per_unit: int = 1) -> str:
    """The text of the action ``PhhAction(kind, player, cards, amount, show)`` with no
    comment (``'p2 cbr 60'``, ``'d dh p1 AsKs'``), amounts in the file's units."""
    p = f"p{player}"
    if kind == "deal_hole":
        return f"d dh {p} {_fmt_cards(cards)}"
    if kind == "deal_board":
        return f"d db {_fmt_cards(cards)}"
    if kind == "fold":
        return f"{p} f"
    if kind == "check_or_call":
        return f"{p} cc"
    if kind == "bet_or_raise_to":
        return f"{p} cbr {format_amount(amount or 0, chips_per_unit)}"
    if not show:
        return f"{p} sm"
    if not cards:
        return f"{p} sm -"
    return f"{p} sm {_fmt_cards(cards)}"


def _fmt_cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _parse_cards(text: str, where: str) -> tuple[Card | None, ...]:
    if len(text) % 2:
        raise PhhCardError(f"{where}: bad cards {text!r} (two characters per card, ?? unknown)")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i:i + 2]
        if chunk == "??":
            out.append(None)
            continue
        try:
            out.append(Card.parse(chunk))
        except InvalidCardError as exc:
            raise PhhCardError(f"{where}: {exc}") from None
    return tuple(out)


def _parse_player(word: str, where: str, n_players: int) -> int:
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit():
        raise PhhError(f"{where}: bad player {word!r} (expected p1..p{n_players})")
    idx = int(word[1:])
    if not 1 <= idx <= n_players:
        raise PhhError(f"{where}: player {word!r} out of range p1..p{n_players}")
    return idx


def parse_action(text: str, n_players: int, chips_per_unit: int = 1,
                 where: str = "action") -> PhhAction:
    """Parse one PHH action string (``'p3 cbr 20'``, ``'d db 9dKhAd'``, ...).

    Raises:
        PhhError: unknown action or bad player; PhhCardError: a bad card.
    """
    if not isinstance(text, str):
        raise PhhError(f"{where}: action {text!r} is not a string")
    comment = None
    body = text
    if "#" in text:
        body, _, comment = text.partition("#")
        comment = comment.removeprefix(" ")
    w = body.split()
    where = f"{where} {text!r}"
    match w:
        case ["d", "dh", player, cards]:
            return PhhAction("deal_hole", _parse_player(player, where, n_players),
                             _parse_cards(cards, where), comment=comment)
        case ["d", "db", cards]:
            return PhhAction("deal_board", None, _parse_cards(cards, where), comment=comment)
        case [player, "f"]:
            return PhhAction("fold", _parse_player(player, where, n_players), comment=comment)
        case [player, "cc"]:
            return PhhAction("check_or_call", _parse_player(player, where, n_players),
                             comment=comment)
        case [player, "cbr", amount]:
            return PhhAction("bet_or_raise_to", _parse_player(player, where, n_players),
                             amount=_scale(_decimal(amount, where), chips_per_unit, where),
                             comment=comment, chips_per_unit=chips_per_unit)
        case [player, "sm"]:
            return PhhAction("show_or_muck", _parse_player(player, where, n_players),
                             show=False, comment=comment)
        case [player, "sm", "-"]:
            return PhhAction("show_or_muck", _parse_player(player, where, n_players),
                             show=True, comment=comment)
        case [player, "sm", cards]:
            return PhhAction("show_or_muck", _parse_player(player, where, n_players),
                             _parse_cards(cards, where), show=True, comment=comment)
    raise PhhError(f"{where}: not a No-Limit Hold'em PHH action "
                   "(d dh, d db, f, cc, cbr, sm)")


# --------------------------------------------------------------------------- amounts

def _decimal(value: object, where: str) -> Decimal:
    if isinstance(value, bool):
        raise PhhError(f"{where}: {value!r} is not an amount")
    if isinstance(value, (int, Decimal)):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, str):
        try:
            return Decimal(value)
        except InvalidOperation:
            pass
    raise PhhError(f"{where}: {value!r} is not an amount")


def _decimals(d: Decimal) -> int:
    if not d.is_finite():
        return 0
    exp = d.as_tuple().exponent  # as written: 22.50 has two places (cents)
    return max(0, -int(exp))


def _amount_text(d: Decimal) -> str:
    text = str(d)
    return text if len(text) <= 24 else f"{d:.3e}"


def _scale(d: Decimal, chips_per_unit: int, where: str) -> int:
    if not d.is_finite():
        raise PhhError(f"{where}: amount {_amount_text(d)} is not finite")
    if d.adjusted() > 15 or abs(d) * chips_per_unit > MAX_CHIPS:
        raise PhhError(f"{where}: amount {_amount_text(d)} is too large (more than "
                       f"{MAX_CHIPS:.0e} chips); write inf for an unknown stack")
    chips = d * chips_per_unit
    if chips != chips.to_integral_value():
        raise PhhError(f"{where}: amount {_amount_text(d)} is finer than 1/{chips_per_unit}")
    return int(chips)


def format_amount(chips: int, chips_per_unit: int) -> str:
    """Chips back in the file's units: ``format_amount(2250, 100) == '22.50'``,
    ``format_amount(47500, 100) == '475'``."""
    if chips_per_unit == 1 or chips % chips_per_unit == 0:
        return str(chips // chips_per_unit)
    places = round(math.log10(chips_per_unit))
    return f"{Decimal(chips) / chips_per_unit:.{places}f}"


def amount_to_decimal(chips: int | None, chips_per_unit: int) -> Decimal | None:
    """Chips as a Decimal amount in the file's units (``None`` stays ``None``)."""
    return None if chips is None else Decimal(format_amount(chips, chips_per_unit))


# --------------------------------------------------------------------------- hands

@dataclass(frozen=True)
class PhhHand:
    """One hand history, amounts in integer chips (``chips_per_unit`` chips per file unit).

    Lists are indexed by PHH player p1..pN.  ``starting_stacks`` entries are ``None``
    where the file says ``inf`` (unknown).  ``winnings`` / ``finishing_stacks`` are
    ``None`` when the file has no such field.  ``extra`` keeps every other field
    (venue, time, hand id, ...) verbatim, ``field_order`` the order of all fields,
    ``label`` the table name in a ``.phhs`` file (``None`` for a ``.phh``).
    """

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    starting_stacks: tuple[int | None, ...]
    actions: tuple[PhhAction, ...]
    ante_trimming_status: bool | None = None
    players: tuple[str, ...] | None = None
    seats: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    chips_per_unit: int = 1
    extra: Mapping[str, Any] = field(default_factory=dict)
    field_order: tuple[str, ...] = field(default=(), compare=False)
    label: str | None = field(default=None, compare=False)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def to_units(self, chips: int | None) -> Decimal | None:
        """Chips as an amount in the file's units."""
        return amount_to_decimal(chips, self.chips_per_unit)

    def public(self) -> PhhHand:
        """This hand with every hole card not shown at the table replaced by ``??``.

        A player's hole cards count as revealed when an ``sm`` action of theirs
        names cards, or when they showed with ``sm -`` (the dealt cards).
        """
        revealed: set[int] = set()
        for a in self.actions:
            if a.kind == "show_or_muck" and a.show and (a.cards == () or a.known_cards):
                revealed.add(a.player or 0)
        acts = tuple(
            replace(a, cards=tuple(None for _ in a.cards))
            if a.kind == "deal_hole" and a.player not in revealed else a
            for a in self.actions
        )
        return replace(self, actions=acts)


def _need(table: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise PhhError(f"{where}: missing field {key!r}")
    return table[key]


def _list(table: Mapping[str, Any], key: str, where: str, n: int | None) -> list[Any]:
    v = _need(table, key, where)
    if not isinstance(v, list):
        raise PhhError(f"{where}: field {key!r} must be a list")
    if n is not None and len(v) != n:
        raise PhhError(f"{where}: field {key!r} has {len(v)} entries for {n} players")
    return v


def hand_from_table(table: Mapping[str, Any], label: str | None = None,
                    where: str = "hand") -> PhhHand:
    """Build a :class:`PhhHand` from one parsed TOML table (amounts Decimal or int).

    Raises:
        UnknownVariantError: variant other than ``'NT'``.
        PhhError / PhhCardError: missing or malformed fields, bad actions or cards.
    """
    if not isinstance(table, Mapping):
        raise PhhError(f"{where}: not a TOML table")
    variant = _need(table, "variant", where)
    if variant not in SUPPORTED_VARIANTS:
        raise UnknownVariantError(variant)
    stacks_raw = _list(table, "starting_stacks", where, None)
    n = len(stacks_raw)
    if not 2 <= n <= 10:
        raise PhhError(f"{where}: {n} players; a hand needs 2 to 10")
    lists = _amount_lists(table, where, n)
    stacks_dec = lists["starting_stacks"]
    min_bet_dec = _decimal(_need(table, "min_bet", where), f"{where} min_bet")
    raw_actions = _list(table, "actions", where, None)
    cpu = _chips_per_unit(lists, min_bet_dec, raw_actions, where)

    def scaled(key: str) -> tuple[int, ...]:
        return tuple(_scale(v, cpu, f"{where} {key}") for v in lists[key])  # type: ignore[arg-type]

    stacks = tuple(None if v is None or v.is_infinite()
                   else _scale(v, cpu, f"{where} starting_stacks") for v in stacks_dec)
    if any(s is not None and s < 0 for s in stacks):
        raise PhhError(f"{where}: negative starting stack")
    actions = tuple(parse_action(t, n, cpu, f"{where} action {i + 1}")
                    for i, t in enumerate(raw_actions))
    ats, players, seats = _table_fields(table, where, n)
    extra = {k: v for k, v in table.items() if k not in KNOWN_FIELDS}
    return PhhHand(
        variant=variant,
        antes=scaled("antes"),
        blinds_or_straddles=scaled("blinds_or_straddles"),
        min_bet=_scale(min_bet_dec, cpu, f"{where} min_bet"),
        starting_stacks=stacks,
        actions=actions,
        ante_trimming_status=ats,
        players=players,
        seats=seats,
        winnings=scaled("winnings") if "winnings" in lists else None,
        finishing_stacks=scaled("finishing_stacks") if "finishing_stacks" in lists else None,
        chips_per_unit=cpu,
        extra=extra,
        field_order=tuple(table.keys()),
        label=label,
    )


def _amount_lists(table: Mapping[str, Any], where: str, n: int
                  ) -> dict[str, list[Decimal | None]]:
    """The hand's per-player amount lists as Decimals (antes, blinds and starting stacks
    default to zeros); an infinite or NaN amount is refused except an unknown stack."""
    lists: dict[str, list[Decimal | None]] = {}
    for key in _AMOUNT_LISTS:
        if key in table or key in ("antes", "blinds_or_straddles", "starting_stacks"):
            vals = _list(table, key, where, n) if key in table else [Decimal(0)] * n
            lists[key] = [_decimal(v, f"{where} {key}") for v in vals]
    for key, vals in lists.items():
        for v in vals:
            if v is not None and v.is_infinite() and (key != "starting_stacks" or v < 0):
                raise PhhError(f"{where}: {key} entry {v} is not a finite amount")
            if v is not None and v.is_nan():
                raise PhhError(f"{where}: {key} entry is NaN")
    return lists


def _chips_per_unit(lists: Mapping[str, list[Decimal | None]], min_bet: Decimal,
                    raw_actions: list[Any], where: str) -> int:
    """10 ** the decimal places over every amount of the hand, bet amounts included."""
    amounts: list[Decimal] = [min_bet]
    for vals in lists.values():
        amounts += [v for v in vals if v is not None and v.is_finite()]
    for text in raw_actions:
        w = str(text).split("#")[0].split()
        if len(w) == 3 and w[1] == "cbr":
            amounts.append(_decimal(w[2], f"{where} action {text!r}"))
    places = max(_decimals(a) for a in amounts)
    if places > _MAX_DECIMALS:
        raise PhhError(f"{where}: amounts with more than {_MAX_DECIMALS} decimals")
    return int(10 ** places)


def _table_fields(table: Mapping[str, Any], where: str, n: int
                  ) -> tuple[bool | None, tuple[str, ...] | None, tuple[int, ...] | None]:
    """``(ante_trimming_status, players, seats)``, each None when the hand omits it."""
    ats = table.get("ante_trimming_status")
    if ats is not None and not isinstance(ats, bool):
        raise PhhError(f"{where}: ante_trimming_status must be true or false")
    players = None
    if table.get("players") is not None:
        players = tuple(str(p) for p in _list(table, "players", where, n))
    seats = None
    if table.get("seats") is not None:
        seats_l = _list(table, "seats", where, n)
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in seats_l):
            raise PhhError(f"{where}: seats must be integers")
        seats = tuple(seats_l)
    return ats, players, seats


def _toml(text: str, where: str) -> dict[str, Any]:
    try:
        return loads_toml(text, where, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{where}: broken TOML: {exc}") from None
    except InputFileError as exc:
        raise PhhError(str(exc)) from None


def load_tables(text: str, where: str = "PHH") -> list[tuple[str | None, dict[str, Any]]]:
    """Split PHH text into ``(label, table)`` pairs without interpreting the hands.

    A text with a top-level ``variant`` is one hand (label ``None``); otherwise every
    top-level value must be a table (a ``.phhs`` file).

    Raises:
        PhhError: broken TOML, or a file that is neither form.
    """
    doc = _toml(text, where)
    if "variant" in doc:
        return [(None, doc)]
    if not doc:
        raise PhhError(f"{where}: no hands")
    out: list[tuple[str | None, dict[str, Any]]] = []
    for key, value in doc.items():
        if not isinstance(value, dict):
            raise PhhError(f"{where}: top-level field {key!r} is neither a hand table "
                           "nor part of a single hand (no 'variant')")
        out.append((key, value))
    return out


def loads_hands(text: str, where: str = "PHH") -> list[PhhHand]:
    """Every hand of a ``.phh`` or ``.phhs`` text.

    Raises:
        PhhError (broken TOML, bad field), PhhCardError, UnknownVariantError.
    """
    return [hand_from_table(t, label, f"{where} hand {label}" if label else where)
            for label, t in load_tables(text, where)]


def loads_hand(text: str, where: str = "PHH") -> PhhHand:
    """The single hand of a ``.phh`` text (errors as :func:`loads_hands`)."""
    hands = loads_hands(text, where)
    if len(hands) != 1:
        raise PhhError(f"{where}: expected one hand, found {len(hands)}")
    return hands[0]
