from hardware import check


def test_check_commands_run_on_the_mocks(tmp_path, capsys):
    assert check.main(["buttons", "--seconds", "0.1", "--pin-factory", "mock"]) == 0
    assert check.main(["displays", "--backend", "mock", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"seat{n}.png" for n in range(1, 7)]
    png = tmp_path / "tv.png"
    assert check.main(["tv", "--seconds", "0.2", "--out", str(png)]) == 0
    assert png.stat().st_size > 1000
    out = capsys.readouterr().out
    assert "display:6" in out and "tv: SDL_VIDEODRIVER=dummy" in out
