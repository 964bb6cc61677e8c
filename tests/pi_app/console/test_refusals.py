"""Refusals a director meets on a real 9-seat table service (config/mock-table.toml), over
the API and through ``pokertable ctl``: each is one line that says why (ctl: exit status 2,
no traceback), and the journal is unchanged.  The late-entry preview checks the name it
echoes; seats are this table's; who asks is checked before what is sent; a path under
/api/ that does not exist answers JSON; time added and removed are audited by name; an
undo of an elimination during a hand says why in plain words."""

from __future__ import annotations

import urllib.parse

import pytest

from tests.pi_app.console.director import console_commands
from tests.pi_app.console.table_process import Table
from tests.pi_app.console.test_bad_requests import journal_records


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    t = Table(tmp_path_factory.mktemp("refusals")).start()
    t.director = t.ctl("token", "--role", "director").stdout.strip()
    t.dealer = t.ctl("token", "--role", "dealer").stdout.strip()
    for name in ("Ann", "Bob", "Cyd"):
        assert t.ctl("register", name).returncode == 0
    assert t.ctl("seat-draw").returncode == 0
    # before the start, the preview says why no late entry yet, in the entry's words
    ctl_refused(t, "the tournament has not started: register the player", "late-entry", "Gus")
    assert t.ctl("start").returncode == 0
    t.seats = sorted(p["seat"] for p in t.get("/api/status")[1]["players"])
    yield t
    t.close()


def ctl_refused(table: Table, words: str, *args: str) -> str:
    """``ctl ARGS`` refused: exit 2, one line naming ``words``, nothing journaled."""
    before = journal_records(table)
    done = table.ctl(*args)
    assert done.returncode == 2, (args, done.stdout, done.stderr)
    assert done.stdout == "" and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], (args, done.stderr)
    assert journal_records(table) == before
    return lines[0]


def api_refused(table: Table, status: int, words: str, method: str, path: str,
                body=None, **kw) -> str:
    before = journal_records(table)
    got, doc = table.request(method, path, body, **kw)
    assert got == status, (method, path, body, got, doc)
    assert isinstance(doc, dict) and list(doc) == ["error"], doc
    assert words in doc["error"] and "\n" not in doc["error"], doc
    assert journal_records(table) == before
    return doc["error"]


@pytest.mark.parametrize("name,words", [
    ("Ev\u202ee", "control or direction characters"),
    ("Ev\nil", "control or direction characters"),
    ("Tab\there", "control or direction characters"),
    ("x" * 25, "at most 24 characters"),
    ("   ", "a player needs a name"),
    ("ann", "ann is already registered"),
])
def test_the_late_entry_preview_refuses_a_name_the_entry_would_refuse(table, name, words):
    line = ctl_refused(table, words, "late-entry", name)
    if name.strip() and name != "ann":
        assert name not in line  # the bad name is not echoed
    status = 409 if name == "ann" else 400
    api_refused(table, status, words, "GET",
                "/api/late-entry?" + urllib.parse.urlencode({"name": name}),
                token=table.director)


def test_the_late_entry_preview_refuses_a_name_that_is_not_utf8(table):
    """A Latin-1 terminal's byte (ctl late-entry $'M\\xfcller') reaches ctl as a lone
    surrogate, which no URL can carry: one line, exit 2, not a traceback."""
    ctl_refused(table, "not valid Unicode", "late-entry", "M\udcfcller")


def test_the_late_entry_preview_shows_the_name_as_it_will_be_registered(table):
    before = journal_records(table)
    done = table.ctl("late-entry", "  Gus   Lee ")
    assert done.returncode == 0, done.stderr
    preview = table.get("/api/late-entry", token=table.director)[1]
    assert done.stdout == (f"Gus Lee would start with {preview['chips']} chips (level "
                           f"{preview['level']}, deduction {preview['deduction']}); "
                           f"confirm with --chips {preview['chips']}\n")
    assert journal_records(table) == before
    assert "Gus Lee" not in [p["name"] for p in table.get("/api/status")[1]["players"]]


@pytest.mark.parametrize("args", [
    ("bet", "10", "500"), ("stack", "10", "500", "count"), ("away", "0"),
    ("eliminate", "SEAT", "--by", "10"), ("award", "SEAT", "10"),
    ("declare", "wrong_seat", "--seat", "10"), ("show", "12"),
])
def test_a_seat_off_this_table_is_named_with_the_tables_seats(table, args):
    args = tuple(str(table.seats[0]) if a == "SEAT" else a for a in args)
    seat = "0" if args[0] == "away" else "12" if args[0] == "show" else "10"
    ctl_refused(table, f"no seat {seat} at this 9-seat table (seats 1..9)", *args)


def test_who_asks_is_checked_before_what_is_sent(table):
    api_refused(table, 401, "Authorization: Bearer", "POST", "/api/register",
                raw=b"name=Zed", headers={"Content-Type": "text/plain"})
    api_refused(table, 401, "unknown, expired or revoked", "POST", "/api/stack",
                raw=b"x" * 5000, token="not-a-token")
    api_refused(table, 401, "Authorization: Bearer", "POST", "/api/tokens", raw=b"role",
                headers={"Content-Type": "text/plain"})
    api_refused(table, 403, "the dealer may not register", "POST", "/api/register",
                raw=b"name=Zed", token=table.dealer, headers={"Content-Type": "text/plain"})
    api_refused(table, 403, "director only", "POST", "/api/tokens/revoke", raw=b"id",
                token=table.dealer, headers={"Content-Type": "text/plain"})
    api_refused(table, 415, "application/json", "POST", "/api/register", raw=b"name=Zed",
                token=table.director, headers={"Content-Type": "text/plain"})


@pytest.mark.parametrize("method,path,status,words", [
    ("GET", "/api/no-such-read", 404, "no such path under /api/"),
    ("POST", "/api/no-such-command", 404, "no such path under /api/"),
    ("GET", "/api/register", 405, "GET is not used here: send POST"),
    ("POST", "/api/results", 405, "POST is not used here: send GET"),
])
def test_a_path_the_api_does_not_have_answers_json(table, method, path, status, words):
    api_refused(table, status, words, method, path, {} if method == "POST" else None,
                token=table.director)


def test_time_added_and_removed_are_journaled_and_audited_by_name(table):
    seq = journal_records(table)
    ctl_refused(table, "to take time off the level, remove time", "add-time", "-30")
    assert table.ctl("remove-time", "60").stdout == "removed 1:00\n"
    assert table.ctl("add-time", "90").stdout == "added 1:30\n"
    audit = table.ctl("audit").stdout.strip().splitlines()[-2:]
    assert audit[0].endswith(" remove time: removed 1:00")
    assert audit[1].endswith(" add time: added 1:30")
    journaled = console_commands(table.state / "journal.db")
    assert [(ev.command, ev.args) for _, ev in journaled][-2:] == [
        ("remove_time", {"seconds": 60}), ("add_time", {"seconds": 90})]
    assert journal_records(table) == seq + 2


def test_undo_of_an_elimination_during_a_hand_says_why_in_one_plain_line(table):
    """Last in this module: it leaves a hand being played."""
    assert table.ctl("eliminate", str(table.seats[2])).returncode == 0
    assert table.post("/api/next-hand", {}, token=table.dealer)[0] == 200
    assert table.get("/api/state", token=table.director)[1]["console"]["in_hand"]
    line = ctl_refused(table, "finish the hand first", "undo-elimination")
    assert "bad arguments" not in line and "{" not in line
    error = api_refused(table, 409, "finish the hand first", "POST", "/api/undo-elimination",
                        {}, token=table.director)
    assert error == "finish the hand first"
