"""``pokertable ctl``: exactly one verb for each command of the console's API (issue 10's
"Commands"), the verbs the issue names, and the reads."""

from __future__ import annotations

import json
import subprocess
import sys

from pi_app.cli.ctl import READS, VERBS, _result_line
from pi_app.console.routes import COMMAND_PATHS
from tests.pi_app.cli.helpers import run_main


def test_one_verb_for_each_command_of_the_api():
    paths = [path for path, *_ in VERBS.values()]
    assert sorted(paths) == sorted(COMMAND_PATHS)  # each API command once, none more
    named = {"register", "seat-draw", "start", "add-time"}  # the issue's own words
    assert named <= set(VERBS)
    assert {"status", "results", "audit", "pair", "token", "revoke"} == set(READS)
    assert not set(VERBS) & set(READS)


def test_the_help_lists_every_verb_with_what_it_does(capsys):
    rc, out, _err = run_main(["ctl", "--config", "x.toml", "--help"], capsys)
    text = " ".join(out.split())
    assert rc == 0
    for verb, (*_rest, words) in VERBS.items():
        assert f"{verb} {words}" in text, verb


def test_results_write_money_after_the_structures_currency():
    row = {"place": 1, "name": "Ann Lee", "seat": 4, "payout": 1250, "points": 12}
    assert _result_line(row, "\u20ac").split() == ["1", "Ann", "Lee", "seat", "4",
                                                   "\u20ac1,250", "12"]
    out = _result_line({**row, "place": None, "payout": 0, "points": None}, "\u20ac")
    assert out.split() == ["-", "Ann", "Lee", "seat", "4"]


def test_ctl_drives_the_venue_console_pair_token_revoke(capsys, tmp_path):
    """``ctl --venue``: a new pairing code that pairs once, a dealer's token, and its
    revocation, on a venue console listening on loopback; ctl's own token is kept in the
    director's state folder.  A verb the venue has not, or no --console: one line, exit 2,
    nothing changed."""
    from pi_app.console.venue import VenueConsole
    from tests.data_paths import data
    from tests.ports import free_port

    state = tmp_path / "director-state"
    console = VenueConsole(host="127.0.0.1", port=free_port(), state_dir=state,
                           submit=lambda _request: None)
    console.start()
    try:
        venue = ["ctl", "--venue", str(data("venue", "valid", "three_tables.toml")),
                 "--state-dir", str(state)]
        where = ["--console", f"127.0.0.1:{console.port}"]
        for argv in ([*venue, *where, "start"], [*venue, "pair"]):
            rc, out, err = run_main(argv, capsys)
            assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert console.gate.tokens.tokens() == []  # nothing minted, not even ctl's
        rc, out, _err = run_main([*venue, *where, "pair"], capsys)
        assert rc == 0 and out.startswith("pairing code ")
        code = out.split()[2]
        assert console.gate.pairing.current() == code
        assert console.gate.pairing.try_code(code) and console.gate.pairing.current() is None
        rc, out, _err = run_main([*venue, *where, "token", "--role", "dealer", "--json"],
                                 capsys)
        doc = json.loads(out)
        info = console.gate.tokens.check(doc["token"])
        assert rc == 0 and info is not None and info.role == "dealer"
        rc, out, _err = run_main([*venue, *where, "revoke", doc["id"]], capsys)
        assert rc == 0 and out.strip() == f"token {doc['id']} revoked"
        assert console.gate.tokens.check(doc["token"]) is None
        assert (state / "console-ctl.token").stat().st_mode & 0o077 == 0
    finally:
        console.stop()


#: Runs ``pokertable ARGS`` in a fresh interpreter and prints its exit status, what it
#: printed and every module it loaded, as JSON.
PROBE = """
import contextlib, io, json, sys
from pi_app.cli.main import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        rc = main(sys.argv[1:])
    except SystemExit as exc:
        rc = exc.code
print(json.dumps({"rc": rc, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""
#: What ``ctl`` must never load to send one request: the core, the wiring and the loop,
#: the TV's renderer and pygame, the console's server, the other commands.
HEAVY = ("pygame", "engine.table", "pi_app.service.wiring", "pi_app.service.loop",
         "pi_app.service.devices", "pi_app.screens", "starlette", "uvicorn", "pi_app.cli.run",
         "pi_app.cli.sim")


def _probe(*args: str, env: dict[str, str]) -> tuple[int, str, list[str]]:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                       timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    doc = json.loads(r.stdout.splitlines()[-1])
    heavy = [m for m in doc["modules"] if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]
    return doc["rc"], doc["out"], heavy


def test_ctl_loads_neither_the_core_nor_pygame(tmp_path):
    """A real call to a running table (the service on mock devices) and ``--help``: what
    ``ctl`` loads, checked in the process that ran it.  The whole command list (``pokertable
    --help``) does load the core and the wiring: the probe sees them."""
    from tests.pi_app.console.table_process import Table, env_for

    table = Table(tmp_path).start()
    try:
        env = env_for(table.state)
        ctl = ["ctl", "--config", str(table.config)]
        for args, said in (([*ctl, "register", "Ann"], "Ann"), ([*ctl, "status"], "Ann"),
                           ([*ctl, "--help"], "usage: pokertable ctl")):
            rc, out, heavy = _probe(*args, env=env)
            assert rc == 0 and said in out, (args, out)
            assert heavy == [], (args, heavy)
        rc, out, heavy = _probe("--help", env=env)
        assert rc == 0 and "ctl" in out
        assert {"engine.table.core", "pi_app.service.wiring"} <= set(heavy), heavy
    finally:
        table.close()


def test_audit_lines_name_commands_in_words():
    from pi_app.cli.ctl import _audit_line

    for command in ("seat_draw", "next_hand"):
        line = _audit_line({"at": "20:01:02", "role": "director", "token": "ab12",
                            "command": command, "detail": "ok"})
        assert "_" not in line
        assert f" {command.replace('_', ' ')}: ok" in line
