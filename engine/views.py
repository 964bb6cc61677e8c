"""Views: the immutable data handed to renderers (TV, seat displays, sounds, logs).

Views are derived from state, never stored.  Two kinds exist and must never mix:

* **public** (:class:`TablePublicView`, :class:`ClockView`, :class:`RulingView`,
  :class:`ScreenState`): what the whole room may see.  They never hold an unrevealed
  hole card; a card appears only in ``SeatPublic.shown_cards`` once it was shown at
  showdown or exposed.
* **private to one seat** (:class:`SeatDisplayView`): what that seat's display may show,
  including its own hole cards.

Units: chips are integers; seconds are floats; seats are 1-based as printed on the felt.
Producers: the hand engine (``engine.betting.hand``) makes table and seat views, the clock and
tournament (``engine.tournament.clock`` / ``engine.tournament.tournament``) make :class:`ClockView`, the dealing
procedure (``engine.dealing.irregularities``) makes :class:`RulingView`.  Consumers: ``hardware.tv``,
``hardware.seat_display``, ``pi_app.screens``, ``hardware.sounds``.

Changes to this file must be additive (new fields with defaults) so every producer and
consumer keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from engine.cards import Card

STREETS = ("preflop", "flop", "turn", "river", "showdown", "complete")


@dataclass(frozen=True)
class SeatPublic:
    """One seat as the room sees it.

    ``status``: ``"active"``, ``"folded"``, ``"all_in"``, ``"out"`` (not dealt in),
    ``"empty"`` (no player).  ``shown_cards`` is empty until the cards are revealed.
    """

    seat: int
    name: str = ""
    stack: int = 0
    bet: int = 0
    status: str = "active"
    has_cards: bool = False
    shown_cards: tuple[Card, ...] = ()
    is_button: bool = False
    is_small_blind: bool = False
    is_big_blind: bool = False
    display_online: bool = True


@dataclass(frozen=True)
class PotView:
    """A pot: ``label`` ("Main pot", "Side pot 1"), ``amount`` in chips, the seats eligible,
    and once awarded the winners and what each received."""

    label: str
    amount: int
    eligible: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    awarded: tuple[tuple[int, int], ...] = ()  # (seat, chips)


@dataclass(frozen=True)
class ShowdownLine:
    """A hand tabled at showdown with its description ("Two Pair, Kings and Fours")."""

    seat: int
    cards: tuple[Card, ...]
    description: str
    won: int = 0


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the seat to act may do: the one type the hand engine answers with
    (:meth:`engine.betting.hand.Hand.legal_actions`), the views carry, and the seat keys
    and the bots read.  ``call_amount`` is the chips a call adds (0: check);
    ``min_raise_to``/``max_raise_to`` are bet-or-raise *to* totals in chips, or None when
    a bet or raise is not allowed.  When the stack cannot make a full raise,
    ``min_raise_to == max_raise_to`` (all-in)."""

    can_fold: bool = False
    can_check: bool = False
    can_call: bool = False
    call_amount: int = 0
    min_raise_to: int | None = None
    max_raise_to: int | None = None


@dataclass(frozen=True)
class TablePublicView:
    """The table as the room sees it (TV table screen)."""

    hand_number: int = 0
    street: str = "preflop"
    seats: tuple[SeatPublic, ...] = ()
    board: tuple[Card, ...] = ()
    pots: tuple[PotView, ...] = ()
    actor: int | None = None
    to_call: int = 0
    legal: LegalActions | None = None
    showdown: tuple[ShowdownLine, ...] = ()
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    message: str = ""


@dataclass(frozen=True)
class SeatDisplayView:
    """What one seat's 128x64 display shows.  Private to that seat."""

    seat: int
    name: str = ""
    stack: int = 0
    bet: int = 0
    to_call: int = 0
    hole_cards: tuple[Card, ...] = ()
    is_turn: bool = False
    legal: LegalActions | None = None
    pending_raise_to: int | None = None
    is_button: bool = False
    is_small_blind: bool = False
    is_big_blind: bool = False
    status: str = "active"
    result: int | None = None  # after the hand: net chips won (+) or lost (-)
    message: str = ""


@dataclass(frozen=True)
class RulingView:
    """A dealing ruling as shown on the banner: the code in words, the rule reference,
    what the dealer must do now, and whether the floor has confirmed it."""

    code: str
    words: str
    rule: str
    instruction: str
    profile: str = "tda2024"
    status: str = "advisory"  # advisory | confirmed | overridden
    # all optional:
    ruling_id: int = 0
    row: str = ""          # the rules-table row, e.g. "D2", "B4"
    next_words: str = ""   # what the shoe must deliver next, in words


@dataclass(frozen=True)
class ClockView:
    """The blind clock as the room sees it.

    ``remaining_seconds`` is None on a hand-based level (then ``hands_remaining`` is set).
    """

    level_number: int = 1
    is_break: bool = False
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: int = 0
    remaining_seconds: float | None = None
    hands_remaining: int | None = None
    running: bool = False
    next_small_blind: int | None = None
    next_big_blind: int | None = None
    next_ante: int | None = None
    next_is_break: bool = False
    seconds_to_break: float | None = None
    players_left: int = 0
    entrants: int = 0
    average_stack: int = 0
    chips_in_play: int = 0
    prize_pool: int = 0
    notices: tuple[str, ...] = ()
    tournament_name: str = ""
    # all optional:
    next_big_blind_ante: int | None = None
    estimated_end_seconds: float | None = None  # seconds from now until the estimated end
    min_bet: int | None = None  # no-blind games (seed 002): the smallest opening bet
    late_registration_open: bool = False
    started: bool = True  # False until the first hand starts the clock
    structure_name: str = ""  # the structure's display name ("Phat Ace bounty")


@dataclass(frozen=True)
class WheelView:
    """The bonus wheel: the segments and the amount the tournament model chose."""

    segments: tuple[int, ...]
    chosen: int
    started_at: float = 0.0
    name: str = ""  # the wheel's own name in the structure ("Party Pop")


@dataclass(frozen=True)
class PlaceLine:
    """One finishing place as the room sees it: ``place`` (1 = the winner), the player's
    ``name``, the ``payout`` in whole currency units (0 outside the money) and tonight's
    league ``points`` as a two-decimal string ("" when the structure has no points)."""

    place: int
    name: str
    payout: int = 0
    points: str = ""


@dataclass(frozen=True)
class RoomView:
    """The tournament as the room's screen shows it beside the clock and the table.

    ``currency``: the symbol put before money (the structure's ``currency``).  ``payouts``:
    (place, amount in currency units) for tonight's field; ``points``: (place, league points
    as a two-decimal string) for the paid places.  ``stacks``: (name, chips) of the players
    still in, the chip leader first.  ``eliminated``: the players out, best place first.
    ``bounty_holder``: who holds the bounty chip ("" when the structure has none).
    ``late_entry_stack``: the chips a late entry would get now, None unless late
    registration is open; ``starting_stack``: the chips an entry gets before the start (the
    structure's starting stack; 0 when not known).  ``wheel_name``: the bonus wheel's own
    name ("Party Pop").
    ``finished``: one player is left; then ``places`` lists every place, the winner first,
    and ``decided`` says how the end came when it was not the last chip (e.g. the heads-up
    hand limit)."""

    currency: str = "$"
    payouts: tuple[tuple[int, int], ...] = ()
    points: tuple[tuple[int, str], ...] = ()
    stacks: tuple[tuple[str, int], ...] = ()
    eliminated: tuple[PlaceLine, ...] = ()
    bounty_holder: str = ""
    late_entry_stack: int | None = None
    wheel_name: str = ""
    finished: bool = False
    places: tuple[PlaceLine, ...] = ()
    decided: str = ""
    starting_stack: int = 0


@dataclass(frozen=True)
class OddsHand:
    """One live hand of an all-in: ``seat`` (1-based), its tabled ``cards`` and its chance
    to win the main pot outright and to tie for it (exact fractions from 0 to 1)."""

    seat: int
    name: str
    cards: tuple[Card, ...]
    win: Fraction
    tie: Fraction


@dataclass(frozen=True)
class OddsPot:
    """One pot's odds: its ``seats`` eligible (1-based) and, in that order, each one's chance
    to win it outright and to tie for it."""

    label: str
    amount: int
    seats: tuple[int, ...]
    win: tuple[Fraction, ...]
    tie: tuple[Fraction, ...]


@dataclass(frozen=True)
class OddsView:
    """The live all-in odds (:mod:`engine.betting.odds_view`): only while no player can act.
    ``exact``: every runout enumerated (from the flop on), else a seeded Monte Carlo.
    ``pending``: the figures are still being worked out (the hands face up, every win and
    tie 0, no pot): the TV says so and shows the figures when they come."""

    street: str
    hands: tuple[OddsHand, ...]
    pots: tuple[OddsPot, ...]
    exact: bool
    pending: bool = False

    def __hash__(self) -> int:
        """The fields' hash, worked out once (the TV keys its panel by the view each frame,
        and a Fraction's hash is slow)."""
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.street, self.hands, self.pots, self.exact, self.pending))
            object.__setattr__(self, "_hash", cached)
        return cached


@dataclass(frozen=True)
class ScreenState:
    """Everything the TV draws in one frame (all public)."""

    clock: ClockView | None = None
    table: TablePublicView | None = None
    ruling: RulingView | None = None
    wheel: WheelView | None = None
    offline: tuple[str, ...] = ()
    alarms: tuple[str, ...] = ()  # every alarm standing now, most urgent first
    layout: str = "split"  # clock | table | split
    now: float = 0.0
    extra: dict[str, str] = field(default_factory=dict)
    room: RoomView | None = None  # the room's panels and the winner screen
    odds: OddsView | None = None  # live all-in odds, only once betting is closed
    #: the table's public notices standing now (:class:`engine.effects.Notice` texts:
    #: names and chips only), newest first; the service keeps them for a few seconds
    notices: tuple[str, ...] = ()

    @property
    def alarm(self) -> str | None:
        """The alarms in one line (None when there is none)."""
        return "; ".join(self.alarms) if self.alarms else None
