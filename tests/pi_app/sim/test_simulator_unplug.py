"""Devices unplugged mid-run in simulation: the loop keeps going, the TV shows the device
offline, and play resumes when it is back."""

from __future__ import annotations

import time

from pi_app.sim.policy import next_step
from pi_app.sim.simulator import SimOptions, Simulation


def _play(sim, steps):
    for _ in range(steps):
        step = next_step(sim.core, seed=sim.opts.seed, max_hands=sim.opts.hands)
        if step.kind == "done":
            return
        sim._perform(step)


def _wait_for(sim, cond, timeout=15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        sim.loop.pump()
        if cond():
            return True
        time.sleep(0.05)
    return False


def test_shoe_display_and_key_unplugged_mid_run(tmp_path):
    sim = Simulation(SimOptions(players=6, seed=9, hands=6, journal=str(tmp_path / "j.db"),
                                screenshots=str(tmp_path / "shots")))
    try:
        sim._settle()
        _play(sim, 40)
        hands_before = sim.core.hand_number
        # the shoe's cable is pulled
        sim.devices.simulated_shoe.unplug()
        assert _wait_for(sim, lambda: "shoe" in sim.core.offline)
        screen = sim.loop.screen_state()
        assert "shoe" in screen.offline and "shoe" in (screen.alarm or "").lower()
        # a seat display fails (I2C error 121) and a key's cable is pulled
        disp = sim.devices.displays.displays[3]
        disp.unplug()
        sim.devices.banks[0].unplug(2, "fold")
        sim.devices.banks[0].poll(sim.clock.now() + 5.0)
        sim.devices.simulated_shoe.replug()  # (the shoe comes back first, so the hand can go on)
        assert _wait_for(sim, lambda: "shoe" not in sim.core.offline)
        for _ in range(100):  # the display fails at its next frame (its view changes)
            if "display:3" in sim.core.offline:
                break
            _play(sim, 1)
        assert _wait_for(sim, lambda: "display:3" in sim.core.offline
                         and "button:2:fold" in sim.core.offline)
        screen = sim.loop.screen_state()
        seat3 = [s for s in screen.table.seats if s.seat == 3]
        assert seat3 and seat3[0].display_online is False
        # the clock keeps running meanwhile
        t0 = sim.core.last_t
        sim.clock.advance(30.0)
        sim.loop.pump()
        assert sim.core.last_t >= t0 + 29.0
        # everything comes back and the table plays on to the hand limit
        disp.replug()
        sim.devices.banks[0].replug(2, "fold")
        sim.devices.displays.poll(time.monotonic() + 120.0)  # displays retry on real time
        sim.devices.banks[0].poll(sim.clock.now() + 120.0)
        assert _wait_for(sim, lambda: not sim.core.offline), sim.core.offline
        _play(sim, 5000)
        assert sim.core.hand_number == 6 > hands_before
    finally:
        sim.close()
