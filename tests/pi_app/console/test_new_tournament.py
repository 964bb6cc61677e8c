"""The end of a night on a real table service: ``ctl new-tournament`` archives the journal,
its hand histories and the results under the state directory by date, adds the night to
the league's season (shown on the public page and by ``pokertable season``), and a new
tournament starts; nothing is deleted."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.pi_app.console.night import ctl_json, ctl_ok
from tests.pi_app.console.table_process import Table, env_for


def test_new_tournament_archives_and_starts_over(tmp_path):
    table = Table(tmp_path).start()
    try:
        for name in ("Ann", "Bob", "Cyd"):
            ctl_ok(table, "register", name)
        ctl_ok(table, "seat-draw")
        ctl_ok(table, "start")
        seat = ctl_json(table, "status")["players"][0]["seat"]
        ctl_ok(table, "eliminate", str(seat))
        before = ctl_json(table, "results")
        out = ctl_ok(table, "new-tournament", "--structure", "phat-ace")
        assert "archived in archive/" in out
        status = ctl_json(table, "status")
        assert status["players"] == [] and status["clock"]["started"] is False
        ctl_ok(table, "register", "Dee")  # the new night takes registrations
        status, season = table.get("/api/season")  # the public page's season
        assert status == 200 and "nights won" in season["tie_break"]
        placed = {r["name"]: r["place"] for r in before["results"]}
        assert sorted(s["player"] for s in season["standings"]) == ["Ann", "Bob", "Cyd"]
        assert [s["best"] for s in season["standings"]
                if placed[s["player"]] is not None] == [3]
        status, csv_text = table.get("/api/season.csv")
        assert status == 200 and csv_text.startswith("rank,player,points")
        refused = table.ctl("new-tournament", "--structure", "no-such")
        assert refused.returncode == 2 and "structure must be one of" in refused.stderr
        assert table.stop() == 0
        table.start()  # the new tournament is what a restart resumes
        assert [p["name"] for p in ctl_json(table, "status")["players"]] == ["Dee"]
    finally:
        table.close()
    (folder,) = (tmp_path / "state" / "archive").iterdir()
    assert (folder / "journal.db").is_file()
    saved = json.loads((folder / "results.json").read_text())
    assert saved["results"] == before["results"]
    assert (folder / "results.csv").read_text().startswith("place,name,seat")
    assert (tmp_path / "state" / "journal.db").is_file()
    cli = subprocess.run([sys.executable, "-m", "pi_app.cli.main", "season", "standings",
                          "--json", "--config", str(table.config)], capture_output=True,
                         text=True, env=env_for(tmp_path / "state"), cwd=tmp_path, timeout=60)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == season["standings"]
