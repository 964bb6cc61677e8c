import queue
import time

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from engine.events import DealerButton, DeviceStatus, SeatButton
from hardware.buttons import ButtonBank, UnknownButtonError, bank_from_config
from hardware.pins import DEFAULT_PIN_MAP, PinMap


class FakeClock:
    def __init__(self, t=100.0):
        self.t = t

    def __call__(self):
        return self.t


def drain(q):
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


@pytest.fixture
def rig():
    q = queue.Queue()
    clock = FakeClock()
    bank = ButtonBank(q, pin_factory="mock", clock=clock, bounce_time=0.02, hold_time=0.8)
    yield bank, q, clock
    bank.close()


def test_mock_pin_press_gives_one_seat_event_after_debounce(rig):
    bank, q, clock = rig
    pin = bank.mock_pin(2, "check_call")
    assert pin.info.name == f"GPIO{DEFAULT_PIN_MAP.seats[2]['check_call']}"
    pin.drive_low()
    clock.t += 0.1
    pin.drive_high()
    assert drain(q) == []              # the release is not certain yet
    clock.t += 0.01
    assert bank.poll() == 0
    clock.t += 0.02
    assert bank.poll() == 1
    assert drain(q) == [SeatButton(t=pytest.approx(100.12), seat=2, button="check_call")]


def test_bouncing_pin_gives_one_press(rig):
    bank, q, clock = rig
    pin = bank.mock_pin(5, "fold")
    for level in (0, 1, 0, 1, 0):
        pin.drive_low() if level == 0 else pin.drive_high()
        clock.t += 0.002
    clock.t += 0.2
    for level in (1, 0, 1, 0, 1):
        pin.drive_low() if level == 0 else pin.drive_high()
        clock.t += 0.002
    clock.t += 0.5
    bank.poll()
    events = drain(q)
    assert [(e.seat, e.button, e.press) for e in events] == [(5, "fold", "press")]


def test_hold_goes_out_while_still_held(rig):
    bank, q, clock = rig
    pin = bank.mock_pin(1, "bet_raise")
    pin.drive_low()
    clock.t += 0.5
    bank.poll()
    assert drain(q) == []
    clock.t += 0.4
    bank.poll()
    assert drain(q) == [SeatButton(t=pytest.approx(100.8), seat=1, button="bet_raise",
                                   press="hold")]
    pin.drive_high()
    clock.t += 1
    bank.poll()
    assert drain(q) == []


def test_dealer_box_events(rig):
    bank, q, _clock = rig
    assert bank.press("dealer", "misdeal", at=200.0)
    assert bank.press(None, "pause_resume", hold=True, at=201.0)
    assert drain(q) == [DealerButton(t=pytest.approx(200.0), button="misdeal"),
                        DealerButton(t=pytest.approx(201.0), button="pause_resume", press="hold")]


def test_press_helper_goes_through_gpiozero_pins(rig):
    bank, q, _clock = rig
    pin = bank.mock_pin(4, "fold")
    before = len(pin.states)
    assert bank.press(4, "fold", at=150.0, bounces=2)
    assert len(pin.states) - before == 10       # 2 edges x (1 + 2 bounces x 2)
    assert pin.state is True                    # released again
    assert drain(q) == [SeatButton(t=pytest.approx(150.0), seat=4, button="fold")]


def test_repeated_presses_at_the_same_time_stay_separate(rig):
    bank, q, _clock = rig
    for _ in range(3):
        bank.press(3, "bet_raise", at=120.0)
    events = drain(q)
    assert [e.press for e in events] == ["press"] * 3
    assert events[0].t < events[1].t < events[2].t


def test_unknown_key_raises(rig):
    bank, _q, _clock = rig
    with pytest.raises(UnknownButtonError):
        bank.press(9, "fold")
    with pytest.raises(UnknownButtonError):
        bank.press(1, "undo")


def test_unplugged_key_goes_offline_and_comes_back_with_backoff(rig):
    bank, q, clock = rig
    bank.unplug(3)
    clock.t += 0.1
    bank.poll()
    events = drain(q)
    assert {e.device for e in events} == {"button:3:fold", "button:3:check_call",
                                         "button:3:bet_raise"}
    assert all(isinstance(e, DeviceStatus) and not e.online for e in events)
    assert "errno 5" in events[0].detail
    assert sorted(bank.offline()) == ["button:3:bet_raise", "button:3:check_call",
                                      "button:3:fold"]
    assert bank.press(3, "fold") is False          # an unplugged key presses nothing
    assert bank.press(2, "fold", at=clock.t)        # the others still work
    assert [e.seat for e in drain(q)] == [2]
    clock.t += 5
    bank.poll()
    assert drain(q) == []                           # still unplugged: no repeated events
    bank.replug(3)
    clock.t += 0.5
    bank.poll()
    assert drain(q) == []                           # waits for the backoff
    clock.t += 30
    bank.poll()
    back = drain(q)
    assert {e.device for e in back} == {"button:3:fold", "button:3:check_call",
                                       "button:3:bet_raise"}
    assert all(e.online for e in back) and bank.offline() == []
    assert bank.press(3, "fold", at=clock.t + 1)


def test_stuck_key_goes_offline_then_online(rig):
    bank, q, clock = rig
    pin = bank.mock_pin(6, "check_call")
    pin.drive_low()
    clock.t += 31
    bank.poll()
    events = drain(q)
    assert events[0] == SeatButton(t=pytest.approx(100.8), seat=6, button="check_call",
                                   press="hold")
    assert events[1].device == "button:6:check_call" and not events[1].online
    assert "stuck" in events[1].detail
    pin.drive_high()
    clock.t += 2
    bank.poll()
    clock.t += 2
    bank.poll()
    assert [(e.device, e.online) for e in drain(q)] == [("button:6:check_call", True)]


def test_a_key_that_cannot_open_is_offline_and_the_rest_work():
    q = queue.Queue()
    factory = MockFactory()
    squatter = Button(17, pin_factory=factory)   # seat 1 check_call's pin already taken
    clock = FakeClock()
    bank = ButtonBank(q, DEFAULT_PIN_MAP, factory, clock=clock)
    try:
        events = drain(q)
        assert [(e.device, e.online) for e in events] == [("button:1:check_call", False)]
        assert bank.press(1, "fold", at=101.0)
        assert [e.button for e in drain(q)] == ["fold"]
        squatter.close()
        clock.t += 10  # past the doubled backoff
        bank.poll()
        assert [(e.device, e.online) for e in drain(q)] == [("button:1:check_call", True)]
        assert bank.press(1, "check_call", at=115.0)
        assert [e.button for e in drain(q)] == ["check_call"]
    finally:
        bank.close()


def test_poller_thread_delivers_in_real_time():
    q = queue.Queue()
    with ButtonBank(q, PinMap(seats={1: {"fold": 5}}, dealer={}), "mock",
                    bounce_time=0.005, hold_time=0.5) as bank:
        bank.start_poller(0.002)
        pin = bank.mock_pin(1, "fold")
        pin.drive_low()
        time.sleep(0.03)
        pin.drive_high()
        event = q.get(timeout=2.0)
        assert (event.seat, event.button, event.press) == (1, "fold", "press")


def test_bank_from_config():
    q = queue.Queue()
    bank = bank_from_config({"pin_factory": "mock", "hold_time": 1.5,
                             "seats": {"1": {"fold": 5}}, "dealer": {"undo": 6}}, q,
                            clock=FakeClock())
    try:
        assert set(bank.keys) == {(1, "fold"), ("dealer", "undo")}
        assert bank.hold_time == 1.5
    finally:
        bank.close()


def test_sampling_mode_reads_levels_in_poll():
    """For lines without edge interrupts (an expander without its INT wire)."""
    q, clock = queue.Queue(), FakeClock()
    pm = PinMap(seats={7: {"fold": 5, "check_call": 6, "bet_raise": 13}}, dealer={})
    with ButtonBank(q, pm, "mock", clock=clock, sample=True) as bank:
        pin = bank.mock_pin(7, "bet_raise")
        pin.drive_low()
        assert drain(q) == []                 # no callbacks in sampling mode
        for _ in range(10):                   # 10 ms sampling while pressed 100 ms
            bank.poll()
            clock.t += 0.01
        pin.drive_high()
        for _ in range(5):
            bank.poll()
            clock.t += 0.01
        assert [(e.seat, e.button, e.press) for e in drain(q)] == [(7, "bet_raise", "press")]
        assert bank.press(7, "fold", at=clock.t + 1)   # the helper works in sampling mode
        assert [e.button for e in drain(q)] == ["fold"]
