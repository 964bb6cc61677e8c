"""A tiny deterministic table core for the service tests (not poker, just stateful).

It honours the :class:`pi_app.service.core_protocol.TableCore` contract: ``apply`` is pure and
deterministic, a rejected event raises ``IllegalActionError`` and changes nothing, the
snapshot is exact JSON.  Its "hand": every live seat pays an ante of 5 x level into the
pot, players may bet (chips into the pot) or fold, cards are drawn until 2 per seat plus 5
have come, and the best hash of (seat, cards) among the unfolded seats takes the pot.
The clock advances levels every ``level_seconds`` of running time (ClockTick ``t``).
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from engine.effects import Alert, Effect, HandHistory, LogLine
from engine.errors import IllegalActionError
from engine.events import CardDrawn, ClockTick, DealerButton, Event, PlayerAction
from engine.views import ClockView, ScreenState, SeatDisplayView, SeatPublic, TablePublicView


class FakeCore:
    def __init__(self, stacks: dict[int, int] | None = None, level_seconds: float = 20.0
                 ) -> None:
        stacks = stacks or dict.fromkeys(range(1, 7), 1000)
        self.s: dict[str, Any] = {
            "stacks": {str(k): v for k, v in sorted(stacks.items())},
            "hand": None, "hands_played": 0, "places": {}, "level": 1, "elapsed": 0.0,
            "level_seconds": level_seconds, "running": True, "last_tick": None,
            "digest": hashlib.sha256(b"").hexdigest(), "applied": 0, "now": 0.0,
        }

    @classmethod
    def from_config(cls, config: Any) -> FakeCore:
        """A long game (deep stacks) for benchmarks."""
        return cls(dict.fromkeys(range(1, 7), 10 ** 9))

    # --- protocol -----------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.s)

    @classmethod
    def restore(cls, data: dict[str, Any]) -> FakeCore:
        core = cls.__new__(cls)
        core.s = copy.deepcopy(data)
        return core

    def live(self) -> list[int]:
        return [int(k) for k, v in self.s["stacks"].items() if v > 0]

    def finished(self) -> bool:
        return len(self.live()) <= 1

    def starts_new_hand(self, event: Event) -> bool:
        return (isinstance(event, DealerButton) and event.button == "next_hand"
                and self.s["hand"] is None)

    def apply(self, event: Event) -> list[Effect]:
        s = self.s
        fx: list[Effect] = []
        if isinstance(event, ClockTick):
            if s["running"] and s["last_tick"] is not None:
                s["elapsed"] += event.t - s["last_tick"]
                while s["elapsed"] >= s["level_seconds"]:
                    s["elapsed"] -= s["level_seconds"]
                    s["level"] += 1
                    fx.append(Alert("level_start", f"level {s['level']}"))
            s["last_tick"] = event.t
        elif isinstance(event, DealerButton) and event.button == "pause_resume":
            s["running"] = not s["running"]
            fx.append(Alert("resumed" if s["running"] else "paused"))
        elif isinstance(event, DealerButton) and event.button == "next_hand":
            fx.extend(self._start_hand())
        elif isinstance(event, CardDrawn):
            hand = s["hand"]
            if hand is None:
                raise IllegalActionError("no hand in progress: no card is due")
            hand["cards"].append(event.uid)
            if len(hand["cards"]) >= 2 * len(hand["in"]) + 5:
                fx.extend(self._showdown())
        elif isinstance(event, PlayerAction):
            fx.extend(self._action(event))
        s["applied"] += 1
        s["now"] = event.t
        return fx

    def _start_hand(self) -> list[Effect]:
        s = self.s
        if s["hand"] is not None:
            raise IllegalActionError("a hand is in progress")
        live = self.live()
        if len(live) < 2:
            raise IllegalActionError("fewer than two players have chips")
        ante = 5 * s["level"]
        pot = 0
        for seat in live:
            paid = min(ante, s["stacks"][str(seat)])
            s["stacks"][str(seat)] -= paid
            pot += paid
        s["hand"] = {"number": s["hands_played"] + 1, "in": live, "folded": [], "pot": pot,
                     "cards": [], "log": [f"ante {ante}"]}
        return [LogLine("INFO", f"hand {s['hand']['number']} started")]

    def _action(self, ev: PlayerAction) -> list[Effect]:
        hand = self.s["hand"]
        if hand is None or ev.seat not in hand["in"] or ev.seat in hand["folded"]:
            raise IllegalActionError(f"seat {ev.seat} is not in the hand")
        if ev.action == "fold":
            hand["folded"].append(ev.seat)
            hand["log"].append(f"{ev.seat} folds")
            if len(hand["in"]) - len(hand["folded"]) == 1:
                return self._showdown()
        elif ev.action == "bet_or_raise_to":
            if not ev.amount or ev.amount <= 0:
                raise IllegalActionError("a bet needs a positive amount")
            paid = min(ev.amount, self.s["stacks"][str(ev.seat)])
            self.s["stacks"][str(ev.seat)] -= paid
            hand["pot"] += paid
            hand["log"].append(f"{ev.seat} bets {paid}")
        else:
            hand["log"].append(f"{ev.seat} checks")
        return []

    def _showdown(self) -> list[Effect]:
        s = self.s
        hand = s["hand"]
        contenders = [x for x in hand["in"] if x not in hand["folded"]]

        def score(seat: int) -> str:
            return hashlib.sha256(f"{seat}|{'|'.join(hand['cards'])}".encode()).hexdigest()

        winner = max(contenders, key=score)
        s["stacks"][str(winner)] += hand["pot"]
        text = (f"hand {hand['number']}\n" + "\n".join(hand["log"]) +
                f"\ncards {' '.join(hand['cards'])}\nwinner {winner} pot {hand['pot']}\n")
        s["digest"] = hashlib.sha256((s["digest"] + text).encode()).hexdigest()
        s["hands_played"] += 1
        s["hand"] = None
        busted = [x for x in hand["in"] if s["stacks"][str(x)] == 0]
        remaining = len(self.live())
        for i, seat in enumerate(sorted(busted, reverse=True)):
            s["places"][str(seat)] = remaining + len(busted) - i
        if remaining == 1:
            s["places"][str(self.live()[0])] = 1
        return [HandHistory(hand["number"], text, private=True),
                HandHistory(hand["number"], f"hand {hand['number']} winner {winner}\n",
                            private=False)]

    def screen_state(self, alarms: tuple[str, ...] = (),
                     odds_provider: object = None) -> ScreenState:
        s = self.s
        hand = s["hand"]
        seats = tuple(SeatPublic(seat=int(k), stack=v,
                                 status="active" if v > 0 else "out")
                      for k, v in s["stacks"].items())
        clock = ClockView(level_number=s["level"], running=s["running"],
                          remaining_seconds=s["level_seconds"] - s["elapsed"],
                          players_left=len(self.live()))
        table = TablePublicView(hand_number=hand["number"] if hand else s["hands_played"],
                                seats=seats)
        return ScreenState(clock=clock, table=table, alarms=alarms, now=s["now"])

    def seat_views(self) -> dict[int, SeatDisplayView]:
        return {int(k): SeatDisplayView(seat=int(k), stack=v) for k, v in self.s["stacks"].items()}

    def summary(self) -> dict[str, Any]:
        s = self.s
        return {"hands_played": s["hands_played"], "final_stacks": dict(s["stacks"]),
                "places": dict(sorted(s["places"].items())), "history_sha256": s["digest"],
                "level": s["level"], "events_applied": s["applied"]}


def bot_event(core: FakeCore, rng: Any, t: float) -> Event:
    """The next input a scripted table would produce (deterministic given ``rng``)."""
    hand = core.s["hand"]
    if hand is None:
        if not core.s["running"] and rng.random() < 0.5:
            return DealerButton(t=t, button="pause_resume")
        if rng.random() < 0.03:
            return DealerButton(t=t, button="pause_resume")
        return DealerButton(t=t, button="next_hand")
    r = rng.random()
    if r < 0.03:
        return PlayerAction(t=t, seat=99, action="check_call")  # rejected by the core
    if r < 0.60:
        return CardDrawn(t=t, uid=f"{rng.getrandbits(56):014X}", draw=len(hand["cards"]) + 1)
    seats = [x for x in hand["in"] if x not in hand["folded"]]
    seat = rng.choice(seats)
    r = rng.random()
    if r < 0.15:
        return PlayerAction(t=t, seat=seat, action="fold")
    if r < 0.6:
        return PlayerAction(t=t, seat=seat, action="bet_raise", amount=rng.randint(10, 400))
    return PlayerAction(t=t, seat=seat, action="check_call")
