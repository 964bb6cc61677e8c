"""Config values that used to pass ``config check`` and fail at run time: pin names and
types, the I2C1 pins, debounce times, control characters in names."""

from __future__ import annotations

import pytest

from hardware.debounce import DEFAULT_BOUNCE_TIME, DEFAULT_HOLD_TIME
from pi_app.service.config import ConfigError, parse_config

SEAT1 = "[buttons.seats]\n1 = {{ fold = {pin}, check_call = 17, bet_raise = 27 }}\n"


@pytest.mark.parametrize("pin, bcm", [("4", 4), ('"GPIO4"', 4), ('"BCM4"', 4),
                                      ('"BOARD7"', 4), ('"J8:7"', 4), ('"GPIO14"', 14),
                                      ('"BOARD8"', 14)])
def test_header_pin_names_gpiozero_accepts_pass(pin: str, bcm: int) -> None:
    cfg = parse_config(SEAT1.format(pin=pin), "t.toml")
    assert cfg.pin_map().seats[1]["fold"] in (bcm, pin.strip('"'))


def test_pin_names_resolve_like_gpiozero() -> None:
    """Our BOARD/J8 table agrees with gpiozero's own header data for every GPIO pin."""
    from gpiozero.pins.mock import MockFactory

    from pi_app.service.config_checks import _BOARD_TO_BCM, _pin_bcm
    info = MockFactory().board_info
    for phys in range(1, 41):
        ours = _pin_bcm(f"BOARD{phys}")
        try:
            theirs = int(str(info.to_gpio(f"BOARD{phys}")).removeprefix("GPIO"))
        except Exception:  # noqa: BLE001 - gpiozero: not a GPIO pin
            assert isinstance(ours, str) and phys not in _BOARD_TO_BCM
            continue
        assert ours == theirs, phys


@pytest.mark.parametrize("pin, fragment", [
    ('"twelve"', "got 'twelve'"), ("12.0", "got 12.0"), ("true", "got True"),
    ('"gpio4"', "got 'gpio4'"), ('"4"', "got '4'"), ('"GPIO28"', "not on the 40-pin header"),
    ('"J8:2"', "not a GPIO pin"), ("2", "GPIO 2 is I2C1 SDA"), ('"BCM3"', "GPIO 3 is I2C1 SCL"),
    ('"J8:3"', "GPIO 2 is I2C1 SDA"), ("-1", "not on the 40-pin header"),
])
def test_bad_pins_are_rejected_with_the_dotted_key(pin: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(SEAT1.format(pin=pin), "t.toml")
    assert str(info.value).startswith("t.toml: buttons.seats.1.fold: ")
    assert fragment in str(info.value)


def test_dealer_pin_float_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"buttons\.dealer\.next_hand: .*got 12\.0"):
        parse_config("[buttons.dealer]\nnext_hand = 12.0\n", "t.toml")


@pytest.mark.parametrize("text, fragment", [
    ("bounce_time = 0", "buttons.bounce_time: must be more than 0"),
    ("bounce_time = 0.5\nhold_time = 0.5", "buttons.hold_time: must be more than bounce_time"),
    ("hold_time = 0.01", "buttons.hold_time: must be more than bounce_time"),
    (f"bounce_time = {DEFAULT_HOLD_TIME}", "buttons.hold_time"),
])
def test_debounce_times(text: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment.replace(".", r"\.")):
        parse_config(f"[buttons]\n{text}\n", "t.toml")


def test_debounce_times_that_work_pass() -> None:
    cfg = parse_config("[buttons]\nbounce_time = 0.05\nhold_time = 1\n", "t.toml")
    assert cfg.buttons.bounce_time == 0.05 and cfg.buttons.hold_time == 1.0
    assert cfg.device_settings().buttons[0].bounce_time == 0.05  # what the keys are made with
    parse_config(f"[buttons]\nhold_time = {DEFAULT_BOUNCE_TIME * 2}\n", "t.toml")


@pytest.mark.parametrize("name", ["Main\\u0007", "A\\tB", "x\\u0085y", "a\\u2028b",
                                  "\\u007f"])
def test_control_characters_in_names(name: str) -> None:
    with pytest.raises(ConfigError, match=r"table\.name: must not hold control"):
        parse_config(f'[table]\nname = "{name}"\n', "t.toml")
    with pytest.raises(ConfigError, match=r"seats\.names\.1: must not hold control"):
        parse_config(f'[seats.names]\n1 = "{name}"\n', "t.toml")


def test_names_with_accents_and_emoji_pass() -> None:
    cfg = parse_config('[table]\nname = "Café 🂡"\n[seats.names]\n1 = "Zoë"\n', "t.toml")
    assert cfg.name == "Café 🂡" and cfg.names[1] == "Zoë"


@pytest.mark.parametrize("key", ["01", '"1 "', '" 1"'])
def test_button_seat_keys_name_one_seat_only(key: str) -> None:
    """Seat keys "1" and "01" would both name seat 1, the second silently winning."""
    text = ("[buttons.seats]\n1 = { fold = 5, check_call = 6, bet_raise = 13 }\n"
            f"{key} = {{ fold = 14, check_call = 15, bet_raise = 27 }}\n")
    with pytest.raises(ConfigError, match="without leading zeros") as info:
        parse_config(text, "t.toml")
    assert "buttons.seats." in str(info.value)
