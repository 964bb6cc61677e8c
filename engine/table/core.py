"""The whole table as one pure state machine: tournament clock + current hand + dealing.

This is the core the service loop drives (:mod:`pi_app.service.core_protocol`).  It takes input
events (:mod:`engine.events`) with their monotonic timestamps and returns effects
(:mod:`engine.effects`); it performs no I/O, reads no clock and starts no thread, so the
journal replays it exactly.

What it combines:

* :class:`engine.tournament.tournament.Tournament`: entrants, levels, the blind clock, eliminations,
  color-ups, the bonus wheel, the heads-up limit.
* :class:`engine.dealing.procedure.DealingProcedure`: the hand being played, fed by the card
  shoe, with rulings on dealing irregularities.
* the seat keys (:mod:`engine.betting.seat_input`): FOLD, CHECK/CALL, BET/RAISE per seat.
* the dealer button box: NEXT HAND (also: "deck reloaded" after a misdeal, "stub
  reshuffled" when a ruling asks for it), PAUSE/RESUME (hold: mute), EXPOSED CARD,
  MISDEAL, CONFIRM RULING (hold: override), UNDO (the last player action of the hand,
  until a card is drawn after it).

Positions follow the dead-button rule used in tournaments (TDA 32; :mod:`engine.table.positions`).
The views handed to the TV and the seat displays are made in :mod:`engine.table.views`; the
operator's commands are in :mod:`engine.table.dealer_commands`, what happens between hands
in :mod:`engine.table.between_hands`, the clock's words in :mod:`engine.table.announce` and the
set-up in :mod:`engine.table.settings`.

>>> core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"},
...                                     structure="gunpowder", seed=1))
>>> from engine.events import DealerButton
>>> _ = core.apply(DealerButton(t=0.0, button="next_hand"))
>>> core.summary()["hands_played"], sorted(core.summary()["final_stacks"])
(0, ['1', '2', '3'])
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Mapping
from functools import partial
from typing import Any

from engine.betting.hand import Hand, HandConfig
from engine.betting.odds_view import OddsProvider
from engine.betting.seat_input import IDLE, SeatInput, apply_seat_button
from engine.dealing.outcomes import HandComplete, HandVoided, Outcome, RulingIssued
from engine.dealing.procedure import DealingProcedure
from engine.dealing.registry import DeckRegistry, make_test_deck
from engine.effects import (
    Alert,
    Effect,
    HandHistory,
    LazyHandHistory,
    LazyLogLine,
    LogLine,
    Notice,
    ShoeCommand,
)
from engine.errors import InvalidInputError
from engine.events import (
    CardDrawn,
    ClockTick,
    ConsoleCommand,
    DealerButton,
    DealerCommand,
    Declaration,
    DeviceStatus,
    Event,
    PlayerAction,
    SeatButton,
    ShoeReloaded,
    ShoeStatus,
    StubReshuffled,
    VenueCommand,
)
from engine.history.phh_export import hand_parts
from engine.table import venue as venue_mode
from engine.table import views as table_views
from engine.table.announce import clock_effects, public_line
from engine.table.atomic import Guard, copy_tournament
from engine.table.between_hands import color_up_if_due, hand_seed, smallest_chip
from engine.table.console import ConsoleState, apply_command, needs_guard, precheck
from engine.table.console import after_event as console_after_event
from engine.table.console_clock import apply_level_length
from engine.table.dealer_commands import TableStateError, dealer_command
from engine.table.positions import Positions, next_positions, waiting_seats
from engine.table.settings import TableSettings
from engine.table.undo import UndoRecord, apply_action
from engine.table.venue_state import VenueState
from engine.table.verify import (
    check_shoe_event,
    need_proc,
    verify_next_hand,
    verify_time,
    verify_undo,
)
from engine.tournament.clock import ClockAlert
from engine.tournament.structure_file import load_structure, parse_structure, structure_source
from engine.tournament.tournament import Tournament
from engine.views import ScreenState, SeatDisplayView

__all__ = ["SNAPSHOT_VERSION", "TableCore", "TableSettings", "TableStateError"]

SNAPSHOT_VERSION = 1


class TableCore:
    """The table's pure core; see the module docstring.  Build with :meth:`new` (a fresh
    table) or :meth:`restore` (from :meth:`snapshot`)."""

    def __init__(self, settings: TableSettings, tournament: Tournament,
                 registry: DeckRegistry) -> None:
        self.settings = settings
        self.tournament = tournament
        self.registry = registry
        self.proc: DealingProcedure | None = None
        self.hand_number = 0
        self.pos = Positions()
        self.seat_inputs: dict[int, SeatInput] = {}
        self.results: dict[int, int] = {}
        self.offline: set[str] = set()
        self.muted = False
        self.history_digest = ""
        self.last_t = 0.0
        # time of the last input from the people at the table (not a clock tick, not a
        # device coming online or going offline: a restarted service's devices say hello
        # again, and that must not move the table's timing)
        self.last_input_t = 0.0
        self.undo: UndoRecord | None = None  # the procedure before the last action
        self.shoe_draws = 0  # cards drawn since the shoe was last loaded
        self.load_count = 0  # shoe loads in this hand (1 + redeals)
        self.free_hand = False  # the current hand was set up by hand, outside the tournament
        self.reshuffles = 0  # mid-hand reshuffles of the stub since the shoe was loaded
        self.console = ConsoleState()  # the director's console (engine.table.console)
        # the structure's TOML as read when the tournament started: snapshots (the journal's
        # genesis first) carry it, so a resume plays that copy whatever the file says now
        self.structure_toml = ""
        # replaying a journal: of the effects, only the hand histories are made (the rest,
        # log lines, sounds, notices, shoe commands, a replay drops); not a state
        self.replaying = False
        self.venue: VenueState | None = (
            VenueState(settings.venue_table, settings.venue_director,
                       ledger=sum(tournament.stacks().values()))
            if settings.venue_table else None)

    # ------------------------------------------------------------------ building
    @classmethod
    def new(cls, settings: TableSettings) -> TableCore:
        """A fresh table: the players of ``settings`` registered, nothing started.

        Raises:
            StructureError, RegistrationError: a bad structure or seating.
        """
        text, where = structure_source(settings.structure)
        t = Tournament(parse_structure(text, where), seed=settings.seed, name=settings.name)
        for seat, name in sorted(settings.players.items()):
            t.register(name, seat)
        core = cls(settings, t, make_test_deck(settings.deck_seed))
        core.structure_toml = text
        return core

    @classmethod
    def from_config(cls, config: Any) -> TableCore:
        """A fresh table from a :class:`pi_app.service.config.TableConfig` (its ``table_settings``)."""
        return cls.new(config.table_settings())

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand | None:
        """The :class:`engine.betting.hand.Hand` being played, or None between hands."""
        return self.proc.hand if self.proc is not None else None

    @property
    def in_hand(self) -> bool:
        return self.proc is not None and not self.proc.hand.is_complete

    @property
    def finished(self) -> bool:
        return bool(self.tournament.finished)

    def names(self) -> dict[int, str]:
        if self.free_hand and self.proc is not None:
            return dict(self.proc.hand.config.names)
        return {e.seat: e.name for e in self.tournament.active() if e.seat is not None}

    def tick_changes(self, t: float) -> bool:
        """Whether a :class:`ClockTick` at ``t`` (seconds) would change the table beyond
        its time: a level, break or qualifier round ending, a time warning or the end of
        late registration (each an alert of :meth:`Tournament.tick`).  A tick that would
        not need not be journaled: the clock is derived from the events' times."""
        tour = self.tournament
        if not tour.clock.started:
            return False
        twin = copy_tournament(tour)
        return bool(twin.tick(t)) or twin.round_over != tour.round_over

    def precheck(self, event: Event) -> str | None:
        """Why a console command would be refused now, or None
        (:func:`engine.table.console.precheck`; changes nothing)."""
        return precheck(self, event)

    def starts_new_hand(self, event: Event) -> bool:
        return (isinstance(event, DealerButton) and event.button == "next_hand"
                and not self.in_hand)

    # ------------------------------------------------------------------ apply
    def apply(self, event: Event) -> list[Effect]:
        """Apply one input event; return the effects.  A rejected input raises a
        :class:`engine.errors.PokerTableError` and changes nothing: the hot inputs are
        verified before anything changes, the rare operator inputs run under a
        :class:`engine.table.atomic.Guard` (no snapshot of the table per event)."""
        if event.t < self.last_t:
            verify_time(self, event.t)
        if type(event) not in _NEVER_GUARDED and _guarded(event, self):
            guard = Guard(self)
            try:
                effects = self._effects_of(event)
            except Exception:
                guard.restore()
                raise
        else:
            effects = self._effects_of(event)
        self.last_t = event.t
        if not isinstance(event, (ClockTick, ShoeStatus, DeviceStatus)):
            self.last_input_t = event.t
        if self.tournament.clock.started:
            alerts = self.tournament.tick(event.t)
            if alerts:
                effects += self._clock_effects(alerts)
        return effects

    def _effects_of(self, event: Event) -> list[Effect]:
        if self.venue is None:
            return self._dispatch(event) + console_after_event(self, event.t)
        return venue_mode.run(self, event, lambda: self._dispatch(event)
                              + console_after_event(self, event.t))

    def _dispatch(self, event: Event) -> list[Effect]:
        if type(event) is SeatButton:  # the hot inputs first, by their exact type
            return self._seat_button(event)
        if type(event) is CardDrawn:
            return self._shoe_event(event)
        if isinstance(event, ClockTick):
            return []
        if isinstance(event, DealerButton):
            return self._dealer_button(event)
        if isinstance(event, SeatButton):
            return self._seat_button(event)
        if isinstance(event, PlayerAction):
            return self._player_action(event)
        if isinstance(event, (CardDrawn, Declaration, ShoeReloaded, StubReshuffled)):
            return self._shoe_event(event)
        if isinstance(event, ShoeStatus):
            self._set_online("shoe", event.online)
            return [LogLine("WARNING" if not event.online else "INFO",
                            f"card shoe {'online' if event.online else 'offline'}: "
                            f"{event.reason}")]
        if isinstance(event, DeviceStatus):
            self._set_online(event.device, event.online)
            return [LogLine("WARNING" if not event.online else "INFO",
                            f"{event.device} {'online' if event.online else 'offline'}: "
                            f"{event.detail}")]
        if isinstance(event, DealerCommand):
            return self._command(event)
        if isinstance(event, ConsoleCommand):
            return apply_command(self, event)
        if isinstance(event, VenueCommand):
            return venue_mode.apply_command(self, event)
        raise InvalidInputError(f"the table does not take {type(event).__name__} events")

    def _set_online(self, device: str, online: bool) -> None:
        if online:
            self.offline.discard(device)
        else:
            self.offline.add(device)

    # ------------------------------------------------------------------ the dealer box
    def _dealer_button(self, ev: DealerButton) -> list[Effect]:
        b, hold = ev.button, ev.press == "hold"
        if b == "next_hand":
            if self.proc is not None and self.proc.stopped:
                # after a misdeal or a fouled deck: the dealer has reshuffled and loaded the
                # shoe, and NEXT HAND deals the hand again (TDA 35-C)
                return self._shoe_event(ShoeReloaded(t=ev.t))
            if self.in_hand and self.proc is not None and \
                    self.proc.expected_next()[:1] == ["stub_reshuffled"]:
                return self._shoe_event(StubReshuffled(t=ev.t))  # the ruling's reshuffle
            return self._next_hand(ev.t)
        if b == "pause_resume":
            if hold:
                self.muted = not self.muted
                return [Notice("Sound off" if self.muted else "Sound on")]
            c = self.tournament.clock
            if not c.started:
                raise TableStateError("the clock has not started: press NEXT HAND to start")
            paused = c.paused_at is not None
            alerts = self.tournament.resume(ev.t) if paused else self.tournament.pause(ev.t)
            return self._clock_effects(alerts) + [Alert("resumed" if paused else "paused")]
        if b == "undo":
            return self._undo()
        proc = self._need_proc()
        if b == "exposed_card":
            if not proc.draws:
                raise TableStateError("no card has been drawn in this hand")
            return self._shoe_event(Declaration(t=ev.t, kind="exposed_card"))
        if b == "misdeal":
            return self._shoe_event(Declaration(t=ev.t, kind="floor_misdeal"))
        if b == "confirm_ruling":
            kind = "override_ruling" if hold else "confirm_ruling"
            return self._shoe_event(Declaration(t=ev.t, kind=kind,
                                                note="overridden at the table" if hold else ""))
        raise TableStateError(f"unknown dealer button {b!r}")  # pragma: no cover

    def _need_proc(self) -> DealingProcedure:
        return need_proc(self)

    def _undo(self) -> list[Effect]:
        verify_undo(self)
        assert self.undo is not None  # verified
        self.proc = self.undo.procedure()
        self.seat_inputs = {}
        self.undo = None
        return [Notice("Last action undone")]

    # ------------------------------------------------------------------ hands
    def _next_hand(self, t: float) -> list[Effect]:
        verify_next_hand(self, t)
        effects: list[Effect] = []
        tour = self.tournament
        if not tour.clock.started:
            effects += self._clock_effects(tour.start(t))
        elif tour.round_over and tour.structure.qualifiers is not None:
            effects += self._clock_effects(tour.start(t))  # the next qualifier, or the final
            self.pos = Positions()  # a new round draws for the button again
        else:
            effects += self._clock_effects(tour.tick(t))
        effects += color_up_if_due(tour)
        setup = tour.next_hand(t)
        stacks = tour.stacks()
        active = sorted(stacks)
        if len(active) < 2:
            raise TableStateError("fewer than two players are left")
        rng = random.Random(f"{self.settings.seed}:button:{self.hand_number + 1}")
        pos = next_positions(self.pos, active, rng, self.settings.heads_up)
        # a new round draws for the button again: nobody in it is a new player
        previous = (sorted(self.proc.hand.config.stacks)
                    if self.proc is not None and self.pos.button is not None else [])
        if self.venue is not None:  # a seat filled since then holds a newcomer
            previous = [s for s in previous if s not in self.venue.fresh]
        waiting = waiting_seats(pos, active, previous, self.settings.new_player)
        if len(active) - len(waiting) < 2:  # a hand needs two: nobody waits
            waiting = set()
        stacks = {s: c for s, c in stacks.items() if s not in waiting}
        self.hand_number += 1
        cfg = HandConfig(
            stacks=stacks, button=pos.button or active[0],
            small_blind=setup.small_blind, big_blind=setup.big_blind, ante=setup.ante,
            big_blind_ante=setup.big_blind_ante, min_bet=setup.min_bet,
            raise_rule=setup.raise_rule, bonus=setup.bonus,
            small_blind_seat=pos.small_blind if setup.big_blind else None,
            big_blind_seat=pos.big_blind if setup.big_blind else None,
            names=self.names(), hand_number=self.hand_number,
            odd_chip=smallest_chip(tour), burn_cards=False,  # the procedure tracks the burns
        )
        effects += self._clock_effects(tour.hand_started(t))
        self.proc = DealingProcedure(cfg, self.registry, self.settings.house_profile(),
                                     seed=hand_seed(self.settings.seed, self.hand_number))
        self.pos = pos
        self.seat_inputs = {}
        self.results = {}
        self.undo = None
        self.shoe_draws = 0
        self.load_count = 1
        self.reshuffles = 0
        self.free_hand = False
        effects.append(ShoeCommand("mode", "deal"))
        if setup.bonus:
            effects.append(Notice(f"Bonus {setup.bonus:,} in this pot"))
        effects.append(LogLine("INFO", f"hand {self.hand_number}: button {cfg.button}, blinds "
                                       f"{setup.small_blind}/{setup.big_blind}"
                                       f"{f' ante {setup.ante}' if setup.ante else ''}"))
        return effects

    def _start_free_hand(self, cfg: HandConfig, t: float) -> list[Effect]:
        """A hand outside the tournament (a recorded hand, a training deal): its seats,
        stacks and blinds come from ``cfg``; the clock and standings are not touched."""
        if self.in_hand or (self.proc is not None and self.proc.stopped):
            raise TableStateError("a hand is in progress: finish it first")
        self.hand_number += 1
        cfg = dataclasses.replace(cfg, hand_number=self.hand_number)
        self.proc = DealingProcedure(cfg, self.registry, self.settings.house_profile(),
                                     seed=hand_seed(self.settings.seed, self.hand_number))
        self.free_hand = True
        self.seat_inputs, self.results, self.undo = {}, {}, None
        self.shoe_draws, self.load_count, self.reshuffles = 0, 1, 0
        return [ShoeCommand("mode", "deal"),
                LogLine("INFO", f"hand {self.hand_number} (set up by hand): button "
                                f"{cfg.button}, seats {sorted(cfg.stacks)}")]

    def _after_outcomes(self, outcomes: list[Outcome], t: float) -> list[Effect]:
        effects: list[Effect] = []
        complete = False
        for o in outcomes:
            if isinstance(o, RulingIssued):
                r = o.ruling
                effects.append(Alert("ruling", f"{r.words} {r.instruction}".strip()))
                if r.misdeal:
                    effects.append(ShoeCommand("lock"))
            elif isinstance(o, HandVoided):
                self.seat_inputs = {}
            complete = complete or isinstance(o, HandComplete)
            if not self.replaying:
                effects.append(LazyLogLine("INFO", partial(public_line, o)))
        if complete:
            effects += self._finish_hand(t)
        return effects

    def _finish_hand(self, t: float) -> list[Effect]:
        assert self.proc is not None
        hand = self.proc.hand
        self.results = dict(hand.results)
        self.seat_inputs = {}
        self.undo = None
        effects: list[Effect] = []
        if not hand.is_void:
            parts = hand_parts(hand, extra={"hand": self.hand_number,
                                            "event": self.settings.name})
            private = parts.private_text()
            self.history_digest = hashlib.sha256(
                (self.history_digest + private).encode()).hexdigest()
            effects.append(HandHistory(self.hand_number, private, private=True))
            effects.append(LazyHandHistory(self.hand_number, parts.public_text,
                                           private=False))
        if not self.free_hand:
            effects += self._clock_effects(self.tournament.hand_finished(t, hand.stacks))
        return effects

    # ------------------------------------------------------------------ players
    def _seat_button(self, ev: SeatButton) -> list[Effect]:
        proc = self._need_proc()
        hand = proc.hand
        if hand.street == "showdown" and ev.seat in hand.showdown_pending:
            act = "show" if ev.button == "check_call" else "muck" if ev.button == "fold" else None
            if act is None:
                raise TableStateError(f"seat {ev.seat}: at showdown CALL shows, FOLD mucks")
            return self._player_action(PlayerAction(t=ev.t, seat=ev.seat, action=act))
        legal = hand.legal_actions() if hand.actor == ev.seat else None
        state = self.seat_inputs.get(ev.seat, IDLE)
        bet = hand.bet(ev.seat) if legal is not None else 0  # the actor's; else unused
        new_state, decision = apply_seat_button(state, legal, ev, bet=bet)
        if decision is None:
            self.seat_inputs[ev.seat] = new_state
            return []
        # _player_action, on the procedure found above (nothing changed it since)
        outcomes, self.undo = apply_action(proc, PlayerAction(
            t=ev.t, seat=ev.seat, action=decision.action, amount=decision.amount), self.undo)
        effects = self._after_outcomes(outcomes, ev.t)
        self.seat_inputs.pop(ev.seat, None)  # only once taken: a refusal keeps the raise keyed
        return effects

    def _player_action(self, ev: PlayerAction) -> list[Effect]:
        # atomic: a refused action changes nothing; the UNDO's record: engine.table.undo
        outcomes, self.undo = apply_action(self._need_proc(), ev, self.undo)
        return self._after_outcomes(outcomes, ev.t)

    def _shoe_event(self, ev: Event) -> list[Effect]:
        proc = check_shoe_event(self, ev)
        outcomes = proc.apply(ev)  # atomic: a refused event changes nothing
        if isinstance(ev, ShoeReloaded):
            self.shoe_draws = 0
            self.load_count += 1
            self.reshuffles = 0
        elif isinstance(ev, StubReshuffled):
            self.reshuffles += 1
        if isinstance(ev, CardDrawn):
            self.shoe_draws += 1
            self.undo = None
        effects = self._after_outcomes(outcomes, ev.t)
        if isinstance(ev, ShoeReloaded):
            effects.append(ShoeCommand("unlock"))
        return effects

    # ------------------------------------------------------------------ operator commands
    def _command(self, ev: DealerCommand) -> list[Effect]:
        return dealer_command(self, ev)

    # ------------------------------------------------------------------ effects
    def _clock_effects(self, alerts: list[ClockAlert]) -> list[Effect]:
        return [] if self.replaying else clock_effects(alerts, self.tournament.clock, self.muted)

    # ------------------------------------------------------------------ views
    def screen_state(self, alarms: tuple[str, ...] = (),
                     odds_provider: OddsProvider | None = None) -> ScreenState:
        """What the TV shows now, with the service's ``alarms`` first; ``odds_provider``
        works out the all-in odds (public; :func:`engine.table.views.screen_state`)."""
        return table_views.screen_state(self, alarms, odds_provider)

    def seat_views(self) -> dict[int, SeatDisplayView]:
        """Seat -> what its display shows (:func:`engine.table.views.seat_views`)."""
        return table_views.seat_views(self)

    def summary(self) -> dict[str, Any]:
        """``hands_played``, ``final_stacks``, ``places``, ``history_sha256``, ``finished``
        (:func:`engine.table.views.summary`)."""
        return table_views.summary(self)

    # ------------------------------------------------------------------ snapshot
    def snapshot(self) -> dict[str, Any]:
        """Exact JSON-able state (private: hole cards included; for the journal only)."""
        return {
            "version": SNAPSHOT_VERSION,
            "settings": self.settings.to_dict(),
            "tournament": self.tournament.to_dict(self.last_t),
            "registry": self.registry.to_dict(),
            "proc": self.proc.to_dict() if self.proc is not None else None,
            "hand_number": self.hand_number,
            "pos": dataclasses.asdict(self.pos),
            "seat_inputs": {str(s): [i.pending_raise_to, i.note]
                            for s, i in self.seat_inputs.items()},
            "results": {str(s): v for s, v in self.results.items()},
            "offline": sorted(self.offline),
            "muted": self.muted,
            "history_digest": self.history_digest,
            "last_t": self.last_t,
            "last_input_t": self.last_input_t,
            "undo": {"proc": self.undo.to_dict()} if self.undo is not None else None,
            "shoe_draws": self.shoe_draws,
            "load_count": self.load_count,
            "free_hand": self.free_hand,
            "reshuffles": self.reshuffles,
            "console": self.console.to_dict(),
            "structure_toml": self.structure_toml,
            **({"venue": self.venue.to_dict()} if self.venue is not None else {}),
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> TableCore:
        """Inverse of :meth:`snapshot` (the clock comes back exactly as it was)."""
        if data.get("version") != SNAPSHOT_VERSION:
            raise InvalidInputError(f"table snapshot version {data.get('version')!r} is not "
                                    f"{SNAPSHOT_VERSION}")
        settings = TableSettings.from_dict(data["settings"])
        text = data.get("structure_toml") or ""
        structure = (parse_structure(text, f"{settings.structure} (as recorded when the "
                                           "tournament started)")
                     if text else load_structure(settings.structure))
        core = cls(settings, Tournament(structure), DeckRegistry.from_dict(data["registry"]))
        core.structure_toml = text
        core._load(data)
        return core

    def _load(self, d: Mapping[str, Any]) -> None:
        structure = self.tournament.structure
        self.last_t = float(d["last_t"])
        self.last_input_t = float(d["last_input_t"])
        self.tournament = Tournament.from_dict(d["tournament"], structure, now=self.last_t,
                                               policy="catch_up")
        self.proc = DealingProcedure.from_dict(d["proc"]) if d["proc"] is not None else None
        self.hand_number = int(d["hand_number"])
        self.pos = Positions(**d["pos"])
        self.seat_inputs = {int(s): SeatInput(v[0], v[1]) for s, v in d["seat_inputs"].items()}
        self.results = {int(s): v for s, v in d["results"].items()}
        self.offline = set(d["offline"])
        self.muted = bool(d["muted"])
        self.history_digest = d["history_digest"]
        self.undo = (UndoRecord(DealingProcedure.from_dict(d["undo"]["proc"]))
                     if d["undo"] is not None else None)
        self.shoe_draws = int(d["shoe_draws"])
        self.load_count = int(d["load_count"])
        self.free_hand = bool(d["free_hand"])
        self.reshuffles = int(d["reshuffles"])
        self.console = ConsoleState.from_dict(d.get("console"))
        self.venue = VenueState.from_dict(d.get("venue"))
        apply_level_length(self)


#: the hot inputs, verified before they change anything (the exact types, not subclasses)
_NEVER_GUARDED = frozenset({SeatButton, CardDrawn, PlayerAction, ClockTick})


def _guarded(event: Event, core: TableCore) -> bool:
    """The rare inputs that change the tournament in several steps (see
    :mod:`engine.table.atomic`): NEXT HAND starting a hand, PAUSE/RESUME, the operator's
    and the venue's commands, and the console's commands that change the tournament in
    several steps (:func:`engine.table.console.needs_guard`)."""
    if type(event) in _NEVER_GUARDED:  # nearly every event: no test below can hold
        return False
    if isinstance(event, (DealerCommand, VenueCommand)):
        return True
    if isinstance(event, ConsoleCommand):
        return needs_guard(event)
    if isinstance(event, DealerButton) and event.button == "pause_resume":
        return True
    if isinstance(event, DealerButton) and event.button == "next_hand":
        # after a misdeal or mid-hand, NEXT HAND goes to the (atomic) dealing procedure
        return not (core.proc is not None and (core.proc.stopped or core.in_hand))
    return False

