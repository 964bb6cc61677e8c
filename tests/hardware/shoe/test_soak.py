"""Soak: the real client against the simulator over a pty, faults injected."""

from __future__ import annotations

import json

import pytest

from hardware.shoe.soak import SoakError, run_soak
from pi_app.cli.main import main

KEYS = {"sent", "delivered", "lost", "duplicates", "corrupt_rejected", "replays"}


def test_soak_2000_cards_one_percent_faults():
    r = run_soak(2000, corrupt=0.01, drop=0.01, seed=11)
    assert r["sent"] == 2000 and r["delivered"] == 2000
    assert r["lost"] == 0 and r["duplicates"] == 0 and r["misordered"] == 0
    assert r["corrupt_rejected"] > 0 and r["replays"] > 0   # the faults really happened


def test_soak_10000_cards_one_percent_faults():
    r = run_soak(10000, corrupt=0.01, drop=0.01, seed=3)
    assert (r["sent"], r["lost"], r["duplicates"], r["misordered"]) == (10000, 0, 0, 0)


def test_soak_heavy_faults_with_duplicates():
    r = run_soak(1500, corrupt=0.05, drop=0.05, seed=8, duplicate=0.05)
    assert (r["lost"], r["duplicates"], r["misordered"]) == (0, 0, 0)
    assert r["delivered"] == 1500


def test_cli_soak_json(capsys):
    status = main(["shoe", "soak", "--cards", "300", "--corrupt", "0.02", "--drop", "0.02",
                   "--seed", "4", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert KEYS <= set(out)
    assert status == 0 and out["sent"] == 300 and out["lost"] == 0 and out["duplicates"] == 0


def test_cli_soak_rejects_bad_probability(capsys):
    assert main(["shoe", "soak", "--cards", "10", "--drop", "1.5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--drop" in err


def test_soak_rejects_negative_cards():
    with pytest.raises(SoakError):
        run_soak(-1)
