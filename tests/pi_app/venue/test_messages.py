"""The venue's messages (pi_app/venue/messages.py): every kind round-trips; hostile bytes,
forged senders and replays change nothing and are refused with a typed error."""

from __future__ import annotations

import doctest
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInputError, PokerTableError
from pi_app.venue import messages
from pi_app.venue.messages import (
    KINDS,
    MAX_BYTES,
    MAX_HELD,
    Applied,
    Clock,
    Envelope,
    Go,
    HandFinished,
    HandStarted,
    Inbox,
    Level,
    MessageError,
    Moved,
    MovePlayer,
    Refused,
    Resumed,
    SeatPlayer,
    Signal,
    TablePublic,
    VenueState,
    check_night,
    check_origin,
    decode,
    encode,
    ends_night,
    joins_night,
)

SAMPLES = [
    SeatPlayer("Ann", 4, 20000, "balance"), MovePlayer("Bob", 3, 2, 7), Signal("break"),
    Signal("hold"), Level(5, 200, 400, 400), Clock(5, True, 59_500), Signal("pause"),
    Signal("resume"), Go(58), HandStarted(57, 3, 4, 6),
    HandFinished(57, (("Ann", 5200), ("Cy", 3100)), (("Bob", 900),), 95_000),
    Moved(12, "Ann", 20000), Applied(12), Refused(12, "hand 57 is over"), Resumed(57),
    VenueState(14, (("Ann", 1, 4), ("Cy", 2, 1)), (("Bob", 1, 2),), (("Dee", 5), ("Eve", 5)),
               ((1, 31), (2, 29)), (3,), 0, False),
    TablePublic(57, 5, (("Ann", 4, 5200), ("Cy", 6, 3100)), ("As", "Td", "2c"),
                (("Ann", "Kh"), ("Ann", "Kd")), 12, (("Bob", 1, 2), ("Dee", 3, 1))),
]
TABLES = {1: "table1", 2: "table2"}
NIGHT = "20261201-0123456789abcdef"
GOOD = {"v": 1, "from": "table2", "seq": 3, "kind": "hand_started", "for_hand": 56,
        "night": NIGHT, "body": {"hand": 57, "button": 3, "small_blind": 4, "big_blind": 6}}


def raw(**changes):
    doc = json.loads(json.dumps(GOOD))
    body = changes.pop("body", None)
    doc.update(changes)
    if body is not None:
        doc["body"].update(body)
    return json.dumps(doc).encode()


def test_the_modules_examples_hold():
    result = doctest.testmod(messages)
    assert result.attempted > 0 and result.failed == 0


def test_every_kind_has_a_sample():
    assert {type(m).KIND for m in SAMPLES} == set(KINDS)


@pytest.mark.parametrize("body", SAMPLES, ids=[type(m).KIND for m in SAMPLES])
def test_every_kind_round_trips(body):
    sender = "director" if body.KIND in messages.DIRECTOR_KINDS else "table2"
    env = Envelope(sender, 9, body, for_hand=57, night=NIGHT)
    data = encode(env)
    assert decode(data) == env
    assert json.loads(data)["kind"] == body.KIND
    assert decode(raw()) == Envelope("table2", 3, HandStarted(57, 3, 4, 6), 56, night=NIGHT)


@pytest.mark.parametrize("data, message", [
    (b"\xff\xfe", "not a JSON message"),
    (b"{", "not a JSON message"),
    (b'{"v": NaN}', "not a JSON message"),
    (b"[" * 10 + b"]" * 10, "not a JSON message"),
    (b" " * (MAX_BYTES + 1), "at most"),
    (b"[]", "exactly the keys"),
    (raw(extra=1), "exactly the keys"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "seq"}).encode(), "exactly the keys"),
    (raw(v=2), "unknown message version"),
    (raw(v=True), "unknown message version"),
    (raw(**{"from": "#"}), "from must be a broker user name"),
    (raw(**{"from": "t" * 33}), "from must be a broker user name"),
    (raw(**{"from": 7}), "from must be a broker user name"),
    (raw(kind="reboot"), "unknown kind"),
    (raw(kind=["seat"]), "unknown kind"),
    (raw(seq=0), "seq must be a whole number"),
    (raw(seq=1.5), "seq must be a whole number"),
    (raw(seq=2**63), "seq must be a whole number"),
    (raw(for_hand=-1), "for_hand must be"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "night"}).encode(), "exactly the keys"),
    (raw(night="a" * 41), "night must be a night id"),
    (raw(night="x" * 5000), "night must be a night id"),
    (raw(night="abc"), "night must be a night id"),
    (raw(night=""), "night must be a night id"),
    (raw(night=None), "night must be a night id"),
    (raw(night=20261201), "night must be a night id"),
    (raw(night=["20261201-ab"]), "night must be a night id"),
    (raw(night="Night-1"), "night must be a night id"),
    (raw(night="-20261201"), "night must be a night id"),
    (raw(night="2026\u202e1201"), "night must be a night id"),
    (raw(night="20261201-ab\n"), "night must be a night id"),
    (raw(body={"hand": True}), "hand_started.hand must be a whole number"),
    (raw(body={"button": 11}), "hand_started.button must be a whole number 1..10"),
    (raw(body={"big_blind": 0}), "hand_started.big_blind"),
    (raw(body={"dealer": 1}), "body has exactly the keys"),
    (raw(body=None, kind="signal"), "signal: body has exactly the keys name"),
    (raw(kind="signal", body=None).replace(b'"hand": 57, ', b"")
     .replace(b'"button": 3, "small_blind": 4, "big_blind": 6', b'"name": "reboot"'),
     "signal.name must be one of break, hold, pause, resume"),
])
def test_a_hostile_message_is_refused(data, message):
    with pytest.raises(MessageError, match=message) as info:
        decode(data)
    assert isinstance(info.value, PokerTableError) and isinstance(info.value, ValueError)
    assert len(str(info.value)) < 200  # one short line, never the whole payload


@pytest.mark.parametrize("body, message", [
    ({"player": "Ann\u202e", "seat": 1, "chips": 1, "reason": "draw"}, "bidirectional"),
    ({"player": "A\x00", "seat": 1, "chips": 1, "reason": "draw"}, "control"),
    ({"player": "x" * 25, "seat": 1, "chips": 1, "reason": "draw"}, "at most 24"),
    ({"player": " Ann", "seat": 1, "chips": 1, "reason": "draw"}, "space"),
    ({"player": "Ann", "seat": 1, "chips": -1, "reason": "draw"}, "chips"),
    ({"player": "Ann", "seat": 1, "chips": 10**13, "reason": "draw"}, "chips"),
    ({"player": "Ann", "seat": 1, "chips": 1.0, "reason": "draw"}, "chips"),
    ({"player": "Ann", "seat": 1, "chips": 1, "reason": "teleport"}, "reason must be one"),
])
def test_a_bad_seat_command_is_refused(body, message):
    data = json.dumps({"v": 1, "from": "director", "seq": 1, "kind": "seat",
                       "for_hand": None, "night": NIGHT, "body": body}).encode()
    with pytest.raises(MessageError, match=message):
        decode(data)


@pytest.mark.parametrize("chips, message", [
    ([["Ann", 1], ["Ann", 2]], "names a player twice"),
    ([["Ann", 1]] * 11, "at most 10"),
    ([["Ann"]], "must be \\[player, chips\\]"),
    ({"Ann": 1}, "must be a list"),
])
def test_bad_stacks_in_a_report_are_refused(chips, message):
    data = json.dumps({"v": 1, "from": "table1", "seq": 1, "kind": "hand_finished",
                       "for_hand": 1, "night": NIGHT, "body": {"hand": 1, "chips": chips, "busted": [],
                                                    "elapsed_ms": 0}})
    with pytest.raises(MessageError, match=message):
        decode(data.encode())


def _latest(kind, body):
    sender = "director" if kind == "venue_state" else "table1"
    return json.dumps({"v": 1, "from": sender, "seq": 1, "kind": kind, "for_hand": None,
                       "night": NIGHT, "body": body}).encode()


STATE = {"round": 1, "seated": [], "pending": [], "places": [], "applied": [],
         "broken": [], "final_table": 0, "finished": False, "planned": []}
PUBLIC = {"hand": 1, "level": 0, "players": [], "board": [], "shown": [], "applied": 0,
          "moves": [], "planned": []}


@pytest.mark.parametrize("kind, base, change, message", [
    ("venue_state", STATE, {"seated": [["Ann", 65, 1]]}, "seated\\[0\\] must be"),
    ("venue_state", STATE, {"seated": [["Ann", 1, 1], ["Ann", 2, 1]]}, "twice"),
    ("venue_state", STATE, {"seated": [["Ann", 1]]}, "a row of 3 values"),
    ("venue_state", STATE, {"places": [["Ann", 0]]}, "places\\[0\\] must be"),
    ("venue_state", STATE, {"applied": [[1, -1]]}, "applied\\[0\\] must be"),
    ("venue_state", STATE, {"broken": [1, 1]}, "twice"),
    ("venue_state", STATE, {"broken": list(range(1, 66))}, "at most 64 rows"),
    ("venue_state", STATE, {"finished": 1}, "true or false"),
    ("venue_state", STATE, {"planned": [[1, 65]]}, "planned\\[0\\] must be"),
    ("venue_state", STATE, {"planned": [[1]]}, "a row of 2 values"),
    ("table_public", PUBLIC, {"board": ["As", "Kd", "Qh", "Jc", "Tc", "9c"]}, "at most 5"),
    ("table_public", PUBLIC, {"board": ["1x"]}, "must be a card"),
    ("table_public", PUBLIC, {"board": ["as"]}, "must be a card"),
    ("table_public", PUBLIC, {"shown": [["Ann", "AsKd"]]}, "must be a card"),
    ("table_public", PUBLIC, {"players": [["Ann", 1, 5]] * 11}, "at most 10"),
    ("table_public", PUBLIC, {"level": 1000}, "level must be"),
    ("table_public", PUBLIC, {"moves": [[f"P{i:02}", 1, 2] for i in range(21)]}, "at most 20"),
    ("table_public", PUBLIC, {"moves": [["Ann", 1, 2], ["Ann", 2, 1]]}, "twice"),
    ("table_public", PUBLIC, {"moves": [["Ann", 1, 65]]}, "moves\\[0\\] must be"),
    ("table_public", PUBLIC, {"moves": [["Ann", 1]]}, "a row of 3 values"),
    ("table_public", PUBLIC, {"moves": [["An\u202en", 1, 2]]}, "moves\\[0\\]"),
    ("table_public", PUBLIC, {"moves": None}, "moves must be a list"),
    ("table_public", PUBLIC, {"planned": [[1, 2]] * 21}, "at most 20"),
    ("table_public", PUBLIC, {"planned": [[0, 2]]}, "planned\\[0\\] must be"),
])
def test_bad_retained_state_is_refused(kind, base, change, message):
    with pytest.raises(MessageError, match=message):
        decode(_latest(kind, base | change))
    assert decode(_latest(kind, base)).kind == kind


def test_a_public_view_without_its_announced_moves_is_refused():
    body = {k: v for k, v in PUBLIC.items() if k != "moves"}
    with pytest.raises(MessageError, match="exactly the keys"):
        decode(_latest("table_public", body))


def test_retained_state_is_latest_value_and_only_the_directors():
    assert messages.LATEST_KINDS == {"clock", "venue_state", "table_public"}
    with pytest.raises(MessageError, match="does not send"):
        check_origin("pokertable/1/table/1/public",
                      Envelope("table1", 1, VenueState(0, (), (), (), (), (), 0, False),
                               night=NIGHT),
                      "director", TABLES)


def test_an_out_of_bounds_message_is_never_encoded():
    with pytest.raises(MessageError, match="seat must be"):
        encode(Envelope("director", 1, SeatPlayer("Ann", 11, 100, "draw"), night=NIGHT))
    with pytest.raises(MessageError, match="from must be"):
        encode(Envelope("dir ector", 1, Go(1), night=NIGHT))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_are_refused_with_a_message_error_only(data):
    with pytest.raises(MessageError):
        decode(data)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(KINDS)), st.dictionaries(st.sampled_from(
    ["hand", "player", "seat", "chips", "reason", "command", "index", "button", "busted",
     "small_blind", "big_blind", "ante", "running", "remaining_ms", "to_table"]), JSON,
    max_size=5), st.integers(-2, 2**64))
def test_random_bodies_decode_to_a_valid_message_or_are_refused(kind, body, seq):
    data = json.dumps({"v": 1, "from": "table1", "seq": seq, "kind": kind,
                       "for_hand": None, "night": NIGHT, "body": body}).encode()
    try:
        env = decode(data)
    except MessageError:
        return
    assert decode(encode(env)) == env  # what is accepted is within every bound


@pytest.mark.parametrize("topic, sender, kind_body", [
    ("pokertable/1/table/2/report", "table1", HandStarted(1, 1, 2, 3)),   # forged table
    ("pokertable/1/table/02/report", "table2", HandStarted(1, 1, 2, 3)),  # not a number
    ("pokertable/1/table/3/report", "table2", HandStarted(1, 1, 2, 3)),   # no such table
    ("pokertable/1/table/2/command", "table2", Go(1)),                    # a table commanding
    ("pokertable/1/table/2/report", "table2", Go(1)),                     # a command as report
    ("pokertable/1/director/state", "table1", Applied(1)),
    ("pokertable/1/table/2/command", "director", Applied(1)),             # director reporting
    ("other/1/table/2/report", "table2", Applied(1)),
    ("pokertable/2/table/2/report", "table2", Applied(1)),
    ("pokertable/1/table/2/report", "table2", TablePublic(1, 0, (), (), (), 0)),  # wrong topic
    ("pokertable/1/director/clock", "director", Go(1)),
    ("pokertable/1/table/2/command", "director", Clock(0, False, 0)),
])
def test_a_message_on_a_topic_not_its_senders_is_refused(topic, sender, kind_body):
    with pytest.raises(MessageError):
        check_origin(topic, Envelope(sender, 1, kind_body, night=NIGHT), "director", TABLES)


def test_the_rightful_senders_pass():
    check_origin("pokertable/1/table/2/report", Envelope("table2", 1, Applied(4), night=NIGHT),
                 "director", TABLES)
    check_origin("pokertable/1/table/1/command", Envelope("director", 1, Go(1), night=NIGHT),
                 "director", TABLES)
    check_origin("pokertable/1/director/clock",
                 Envelope("director", 1, Clock(0, False, 0), night=NIGHT), "director", TABLES)


def env(seq, sender="table1", night=NIGHT):
    return Envelope(sender, seq, Applied(seq), night=night)


def test_the_inbox_applies_each_message_once_and_in_order():
    inbox, topic = Inbox(), "pokertable/1/table/1/report"
    assert inbox.offer(env(1), topic) == [env(1)]
    assert inbox.offer(env(1), topic) == [] and "replay" in inbox.last_reason
    assert inbox.offer(env(3), topic) == [] and "waiting for 2" in inbox.last_reason
    assert inbox.offer(env(3), topic) == [] and "replay" in inbox.last_reason
    assert inbox.offer(env(2), topic) == [env(2), env(3)]
    assert inbox.marks == {(NIGHT, "table1", topic): 3}
    assert inbox.offer(env(1, "table2"), topic) == [env(1, "table2")]  # its own stream
    assert inbox.offer(env(1), "pokertable/1/table/1/public") == [env(1)]


def test_the_inbox_resumes_from_its_journaled_marks_and_holds_a_bounded_number():
    topic = "pokertable/1/table/1/report"
    inbox = Inbox(marks={(NIGHT, "table1", topic): 10})
    assert inbox.offer(env(10), topic) == []
    for seq in range(12, 12 + MAX_HELD):
        inbox.offer(env(seq), topic)
    assert inbox.offer(env(12 + MAX_HELD), topic) == []
    assert "too many" in inbox.last_reason
    assert len(inbox.offer(env(11), topic)) == MAX_HELD + 1


def test_latest_value_topics_skip_gaps_but_never_go_back():
    inbox, topic = Inbox(), "pokertable/1/director/clock"
    assert inbox.offer_latest(env(5, "director"), topic) == [env(5, "director")]
    assert inbox.offer_latest(env(4, "director"), topic) == []
    assert inbox.offer_latest(env(9, "director"), topic) == [env(9, "director")]
    assert issubclass(MessageError, InvalidInputError)


def test_a_message_of_another_night_is_its_own_stream_not_a_replay():
    """The new director numbers from 1 again: once-only marks are per night."""
    inbox, topic = Inbox(), "pokertable/1/table/1/command"
    last, tonight = "20261130-aaaaaaaaaaaaaaaa", NIGHT
    assert inbox.offer(env(1, "director", last), topic) == [env(1, "director", last)]
    assert inbox.offer(env(2, "director", last), topic) == [env(2, "director", last)]
    assert inbox.offer(env(1, "director", tonight), topic) == [env(1, "director", tonight)]
    assert inbox.offer(env(1, "director", tonight), topic) == []  # a replay tonight
    assert "replay" in inbox.last_reason
    assert inbox.marks == {(last, "director", topic): 2, (tonight, "director", topic): 1}
    assert env(1, "director", last).id != env(1, "director", tonight).id


def test_a_bad_night_is_never_encoded():
    for night in ("", "x" * 41, "A-night", None, 7):
        with pytest.raises(MessageError, match="night must be"):
            encode(Envelope("director", 1, Go(1), night=night))
    assert check_night("sim-00ff") == "sim-00ff"


@pytest.mark.parametrize("body, over, joins", [
    (VenueState(9, (), (), (("Ann", 1),), (), (), 1, True), True, False),
    (VenueState(9, (), (), (), (), (), 0, False), False, True),
    (Clock(3, False, 0), False, False),  # paused or over: the state says which
    (Clock(3, True, 1000), False, True),
    (Go(4), False, True),
])
def test_a_table_joins_a_night_from_a_running_message_only(body, over, joins):
    env = Envelope("director", 1, body, night=NIGHT)
    assert ends_night(env) is over and joins_night(env) is joins
