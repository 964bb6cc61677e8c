"""The table's side of the venue (pi_app/venue/table_node.py) without a broker: commands
into journaled events, reports into messages, the public view holding no unshown hole card,
the director's clock on the TV, acknowledgements."""

from __future__ import annotations

import pytest

from engine.events import DealerButton, event_from_dict, event_to_dict
from engine.table.core import TableCore, TableSettings
from engine.views import ClockView, ScreenState
from pi_app.sim.policy import next_step, step_event
from pi_app.venue.messages import (
    Clock,
    Envelope,
    Go,
    SeatPlayer,
    VenueState,
    decode,
    encode,
)
from pi_app.venue.node import report_topic
from pi_app.venue.table_node import (
    DirectorClock,
    TableNode,
    command_event,
    public_body,
    report_body,
)

SEED = 4
NIGHT = "20261201-0123456789abcdef"


class FakeNode:
    """Records what the table node hands to the node (its real one is tested on a broker
    in tests/pi_app/sim/test_venue_table.py)."""

    director = "director"

    def __init__(self, night: str | None = NIGHT) -> None:
        self.night = night
        self.sent: list[tuple[str, int, object, int | None]] = []
        self.acks: list[tuple[str, int]] = []

    def send(self, topic, seq, body, for_hand=None):
        encode(Envelope("table1", seq, body, for_hand, night=self.night))  # within bounds
        self.sent.append((topic, seq, body, for_hand))

    def acknowledge(self, topic, seq):
        self.acks.append((topic, seq))


def _core() -> TableCore:
    return TableCore.new(TableSettings(players={}, seed=SEED, seats=(1, 2, 3, 4, 5, 6),
                                       venue_table=1))


def _apply(core, env: Envelope) -> list:
    ev = command_event(env, core.last_t + 1)
    assert event_from_dict(event_to_dict(ev)) == ev  # journaled as it is
    return core.apply(ev)


def _seated(core) -> int:
    seq = 0
    for seq, (name, chips) in enumerate((("Ann", 9000), ("Bob", 8000), ("Cy", 7000)), 1):
        _apply(core, Envelope("director", seq, SeatPlayer(name, seq, chips, "draw"), 0,
                              night=NIGHT))
    return seq


def test_commands_become_events_and_every_report_is_a_valid_message():
    core = _core()
    seq = _seated(core)
    _apply(core, Envelope("director", seq + 1, Go(1), 0, night=NIGHT))
    core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
    while core.in_hand:
        core.apply(step_event(next_step(core, seed=SEED), core))
    kinds = [r["kind"] for r in core.venue.outbox]
    assert kinds == ["applied"] * 4 + ["hand_started", "hand_finished"]
    for rep in core.venue.outbox:
        data = encode(Envelope("table1", rep["seq"], report_body(rep), rep["for_hand"],
                               night=NIGHT))
        assert decode(data).body.KIND == rep["kind"]


def test_flush_hands_each_report_once_and_skips_what_the_director_acknowledged():
    core, node = _core(), FakeNode()
    _seated(core)
    table = TableNode(node, 1)
    table.on_state(VenueState(1, (), (), (), ((1, 2),), (), 0, False))
    assert node.acks == [(report_topic(1), 2)]
    assert table.flush(core.venue.outbox) == 1  # reports 1 and 2 are acknowledged
    assert [s[1] for s in node.sent] == [3]
    assert table.flush(core.venue.outbox) == 0
    assert table.unacknowledged(core.venue.outbox) == 1
    table.on_state(VenueState(2, (), (), (), ((1, 3),), (), 0, True))
    assert table.unacknowledged(core.venue.outbox) == 0 and table.finished


def test_the_public_view_never_holds_a_hole_card_not_shown():
    core = _core()
    seq = _seated(core)
    dealt: set[str] = set()
    shown_ever: set[str] = set()
    for hand in range(1, 6):
        seq += 1
        _apply(core, Envelope("director", seq, Go(hand), hand - 1, night=NIGHT))
        core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
        while core.in_hand:
            core.apply(step_event(next_step(core, seed=SEED), core))
            hand_state = core.proc.hand
            holes = {str(c) for seat in hand_state.config.stacks
                     for c in hand_state.hole_cards(seat)}
            dealt |= holes
            body = public_body(core.screen_state(), level=0, applied=seq)
            encode(Envelope("table1", 1, body, night=NIGHT))
            revealed = {str(c) for s in core.screen_state().table.seats
                        for c in s.shown_cards}
            for _player, card in body.shown:
                assert card in revealed  # only what the TV shows face up
            shown_ever |= {c for _p, c in body.shown}
            assert set(body.board) == {str(c) for c in hand_state.board}
    assert dealt and shown_ever < dealt  # some cards were mucked, and never published


def test_the_director_clock_counts_down_on_the_table_clock_and_shows_on_the_tv():
    clock = DirectorClock()
    screen = ScreenState(clock=ClockView(remaining_seconds=999.0, running=False))
    now = [100.0]
    overlay = clock.overlay(lambda: now[0])
    assert overlay(screen) is screen  # no sync yet: the table's own view
    clock.sync(Clock(3, True, 60_000), 100.0)
    now[0] = 112.5
    shown = overlay(screen).clock
    assert shown.remaining_seconds == 47.5 and shown.running
    clock.sync(Clock(3, False, 30_000), 113.0)  # the director paused its clock
    now[0] = 200.0
    assert overlay(screen).clock.remaining_seconds == 30.0
    from pi_app.screens.clock import notices_of

    playing = ScreenState(clock=ClockView(remaining_seconds=999.0, running=True))
    paused = overlay(playing).clock
    assert not paused.running and notices_of(paused)[0] == "PAUSED"  # the TV says so


def test_the_public_view_leaves_out_a_seat_left_since_the_last_hand_and_names_no_one_twice():
    from engine.views import SeatPublic, TablePublicView

    seats = (SeatPublic(3, "Ann", 500), SeatPublic(5, "Bob", 700), SeatPublic(6, "Ann", 900))
    screen = ScreenState(table=TablePublicView(hand_number=7, seats=seats))
    body = public_body(screen, level=2, applied=9, seated={5: "Bob", 6: "Ann"})
    assert body.players == (("Bob", 5, 700), ("Ann", 6, 900))
    encode(Envelope("table1", 1, body, night=NIGHT))
    assert [p for p, _s, _c in public_body(screen, level=2, applied=9).players] == ["Ann", "Bob"]


def test_the_tv_says_it_waits_for_the_director_and_says_final_table():
    import pygame

    from pi_app.screens.render import draw_screen
    from pi_app.screens.theme import record_texts
    from pi_app.screens.venue_banner import venue_banner_of

    core = _core()
    table = TableNode(FakeNode(), 1)
    overlay = table.banner(lambda: core)
    seq = _seated(core)
    assert table.banner_words(core) == "Waiting for the director"
    _apply(core, Envelope("director", seq + 1, Go(1), 0, night=NIGHT))
    assert table.banner_words(core) is None  # the go has come: NEXT HAND deals
    core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
    assert table.banner_words(core) is None  # a hand in play
    table.on_state(VenueState(3, (), (), (), ((1, 0),), (2,), 1, False))
    assert table.banner_words(core) == "Final table"
    while core.in_hand or (core.proc is not None and core.proc.stopped):
        core.apply(step_event(next_step(core, seed=SEED), core))
    screen = overlay(core.screen_state())
    assert venue_banner_of(screen) == "Final table: waiting for the director"
    surface = pygame.Surface((1920, 1080))
    with record_texts() as drawn:
        draw_screen(surface, screen)
    assert "Final table: waiting for the director" in [t.text for t in drawn]
    table.on_state(VenueState(9, (), (), (("Ann", 1),), ((1, 0),), (2,), 1, True))
    assert venue_banner_of(overlay(core.screen_state())) is None  # the venue is over


def test_the_tvs_announce_a_move_the_moment_the_director_decides_it_until_it_is_seated():
    core, node = _core(), FakeNode()
    seq = _seated(core)  # Ann, Bob and Cy at table 1
    giver, taker = TableNode(node, 1), TableNode(FakeNode(), 2)
    state = VenueState(4, (), (("Bob", 1, 2), ("Dee", 3, 1), ("Eve", 2, 3)), (), ((1, 0),),
                       (), 0, False)
    for table in (giver, taker):
        table.on_state(state)
    assert giver.banner_words(core) == ("Waiting for the director\n"
                                        "Bob moves to table 2 after this hand\n"
                                        "Dee joins from table 3")
    view = giver.public_view(core)
    assert view.moves == (("Bob", 1, 2), ("Dee", 3, 1))
    giver.publish_public(1, view)  # within the messages' bounds
    assert node.sent[-1][2].moves == view.moves
    assert taker.announced(set()) == (("Bob", 1, 2), ("Eve", 2, 3))
    assert taker.announced({"Bob"}) == (("Eve", 2, 3),)  # seated on its TV: no more news
    _apply(core, Envelope("director", seq + 1, SeatPlayer("Dee", 4, 5000, "balance"), 0,
                          night=NIGHT))
    assert "Dee" in core.names().values()
    assert ("Dee", 3, 1) in giver.public_view(core).moves  # seated, not on the TV yet
    from engine.views import SeatPublic, TablePublicView

    seats = tuple(SeatPublic(n, name, 5000) for n, name in core.names().items())
    tv = ScreenState(table=TablePublicView(hand_number=2, seats=seats))
    assert "Dee" not in giver.banner_words(core, tv)  # the TV shows her seated
    assert "Bob moves to table 2" in giver.banner_words(core, tv)
    giver.on_state(VenueState(5, (), (), (), ((1, 0),), (), 0, False))
    assert giver.banner_words(core) == "Waiting for the director"  # the moves are done
    assert giver.public_view(core).moves == ()
    giver.on_state(VenueState(9, (), state.pending, (("Ann", 1),), ((1, 0),), (), 0, True))
    assert giver.announced(set()) == () and giver.banner_words(core) is None


def test_the_band_grows_a_line_for_each_announced_move_and_draws_them_all():
    import pygame

    from pi_app.screens.render import draw_screen
    from pi_app.screens.theme import ACCENT, Canvas, record_texts
    from pi_app.screens.venue_banner import draw_venue_banner, venue_banner_of

    core = _core()
    _seated(core)
    table = TableNode(FakeNode(), 1)
    table.on_state(VenueState(4, (), (("Bob", 1, 2), ("Dee", 3, 1)), (), ((1, 0),), (), 0,
                              False))
    screen = table.banner(lambda: core)(core.screen_state())
    surface = pygame.Surface((1920, 1080))
    with record_texts() as drawn:
        draw_screen(surface, screen)
    texts = [t.text for t in drawn]
    for line in ("Waiting for the director", "Bob moves to table 2 after this hand",
                 "Dee joins from table 3"):
        assert line in texts
    one = draw_venue_banner(Canvas(pygame.Surface((1920, 1080))), "Waiting for the director")
    band = draw_venue_banner(Canvas(surface), venue_banner_of(screen))
    assert band.bottom == one.bottom and band.height > one.height + 100
    assert surface.get_at((band.centerx, band.top + 1))[:3] == tuple(ACCENT)[:3]


def test_a_move_decided_at_a_bust_is_announced_on_both_tvs_before_the_player_is_named():
    core, node = _core(), FakeNode()
    _seated(core)  # Ann, Bob and Cy at table 1
    giver, taker, other = TableNode(node, 1), TableNode(FakeNode(), 2), TableNode(FakeNode(), 3)
    state = VenueState(4, (), (), (), ((1, 0),), (), 0, False, ((1, 2), (1, 2), (3, 1)))
    for table in (giver, taker, other):
        table.on_state(state)
    assert giver.banner_words(core) == ("Waiting for the director\n"
                                        "2 players move to table 2 after this hand\n"
                                        "A player joins from table 3 after its hand")
    assert "A player moves to table 1 after this hand" in other.banner_words(core)
    assert taker.planned() == ((1, 2), (1, 2))
    view = giver.public_view(core)
    assert view.planned == ((1, 2), (1, 2), (3, 1)) and view.moves == ()
    giver.publish_public(1, view)  # within the messages' bounds
    assert node.sent[-1][2].planned == view.planned
    named = VenueState(5, (), (("Bob", 1, 2),), (), ((1, 0),), (), 0, False, ((1, 2),))
    giver.on_state(named)  # table 1's boundary named one of them
    assert giver.banner_words(core) == ("Waiting for the director\n"
                                        "Bob moves to table 2 after this hand\n"
                                        "A player moves to table 2 after this hand")
    giver.on_state(VenueState(6, (), (), (), ((1, 0),), (), 0, False))  # withdrawn
    assert giver.banner_words(core) == "Waiting for the director"
    assert giver.public_view(core).planned == ()


def test_the_night_joined_is_journaled_kept_by_a_restart_and_another_nights_command_refused():
    from engine.table.venue_state import VenueCommandError
    from pi_app.venue.node import Joined

    core = _core()
    table = TableNode(FakeNode(), 1)
    join = table.join_event(Joined(NIGHT), core.last_t + 1)
    assert event_from_dict(event_to_dict(join)) == join  # journaled as it is
    core.apply(join)
    assert core.venue.night == NIGHT
    _seated(core)
    restarted = TableCore.restore(core.snapshot())
    assert restarted.venue.night == NIGHT and restarted.venue.mark == 3
    last = Envelope("director", 4, Go(1), 0, night="20261130-ffffffffffffffff")
    with pytest.raises(VenueCommandError, match="of night 20261130-ffffffffffffffff"):
        restarted.apply(command_event(last, restarted.last_t + 1))
    assert restarted.venue.mark == 3 and restarted.venue.go_hand == 0  # nothing changed
    with pytest.raises(VenueCommandError, match="new journal"):
        restarted.apply(table.join_event(Joined("20261130-ffffffffffffffff"),
                                         restarted.last_t + 1))
    assert restarted.venue.night == NIGHT
    restarted.apply(table.join_event(Joined(NIGHT), restarted.last_t + 1))  # the same: no-op
    assert restarted.venue.night == NIGHT


def test_a_bad_join_is_refused_and_changes_nothing():
    from engine.events import VenueCommand
    from engine.table.venue_state import VenueCommandError

    core = _core()
    for night in ("", "x" * 41, "Tonight", 7):
        bad = VenueCommand(t=core.last_t + 1, sender="director", seq=0, kind="join",
                           body={"night": night})
        with pytest.raises(VenueCommandError):
            core.apply(bad)
    forged = VenueCommand(t=core.last_t + 1, sender="table2", seq=0, kind="join",
                          body={"night": NIGHT})
    with pytest.raises(VenueCommandError, match="not from the director"):
        core.apply(forged)
    assert core.venue.night == ""


def test_a_table_sends_nothing_before_it_joins_a_night():
    core, node = _core(), FakeNode(night=None)
    _seated(core)
    table = TableNode(node, 1)
    assert table.flush(core.venue.outbox) == 0
    table.publish_public(1, table.public_view(core))
    assert node.sent == []
    node.night = NIGHT
    assert table.flush(core.venue.outbox) == 3


def test_a_journal_of_another_night_says_so_in_one_line_on_the_tv_too():
    from pi_app.venue.node import OtherNight

    core = _core()
    core.venue.over = True  # its night is over (journaled: see the test below)
    table = TableNode(FakeNode(), 1)
    line = table.on_other_night(OtherNight("20261202-aaaaaaaaaaaaaaaa", NIGHT), core)
    assert line is not None and "\n" not in line and NIGHT in line and "new state folder" in line
    assert table.banner_words(core) == line


def test_the_end_of_the_tables_night_is_journaled_and_decides_what_another_night_means():
    """The first state with this night's winner makes a journaled ``over`` (once); a
    table restarted on that journal is told to start anew when another night runs, one
    whose night still runs is not (it stays with its night)."""
    from engine.table.venue_state import VenueCommandError
    from pi_app.venue.node import STATE_TOPIC, Delivered, Joined, OtherNight

    core = _core()
    table = TableNode(FakeNode(), 1)
    core.apply(table.join_event(Joined(NIGHT), core.last_t + 1))
    _seated(core)
    other = OtherNight("20261202-00000000000000bb", NIGHT)
    assert table.on_other_night(other, core) is None and table.conflict is None  # runs
    running = Envelope("director", 2, VenueState(1, (), (), (), ((1, 0),), (), 0, False),
                       night=NIGHT)
    assert table.on_delivered(Delivered(STATE_TOPIC, running, True), core.last_t, 0.0) is None
    won = Envelope("director", 3, VenueState(2, (), (), (("Bob", 1),), ((1, 0),), (), 0, True),
                   night=NIGHT)
    over = table.on_delivered(Delivered(STATE_TOPIC, won, False), core.last_t + 1, 0.0)
    assert over is not None and over.kind == "over" and over.seq == 0
    assert event_from_dict(event_to_dict(over)) == over  # journaled as it is
    assert table.on_delivered(Delivered(STATE_TOPIC, won, True), core.last_t, 0.0) is None
    core.apply(over)
    restarted = TableCore.restore(core.snapshot())
    assert restarted.venue.over and restarted.venue.mark == 3  # no command applied
    fresh = TableNode(FakeNode(), 1)  # the node of the restarted table: nothing seen yet
    line = fresh.on_other_night(other, restarted)
    assert line is not None and "new state folder" in line and fresh.conflict == line
    wrong = _over(restarted, "20261130-ffffffffffffffff")
    with pytest.raises(VenueCommandError, match="not this table's"):
        restarted.apply(wrong)


def _over(core, night):
    from engine.events import VenueCommand

    return VenueCommand(t=core.last_t + 1, sender="director", seq=0, kind="over",
                        body={"night": night}, night=night)
