import pytest
from gpiozero.pins.mock import MockFactory

from engine.errors import DeviceError, InvalidInputError
from engine.events import DEALER_BUTTONS, SEAT_BUTTONS
from hardware.pins import (
    DEFAULT_PIN_MAP,
    RESERVED_PINS,
    PinConfigError,
    PinFactoryError,
    PinMap,
    check_header_pins,
    default_factory_name,
    header_pin_number,
    make_pin_factory,
    pin_map_from_config,
)


def test_default_map_covers_six_seats_and_the_dealer_box():
    assert sorted(DEFAULT_PIN_MAP.seats) == [1, 2, 3, 4, 5, 6]
    for buttons in DEFAULT_PIN_MAP.seats.values():
        assert set(buttons) == set(SEAT_BUTTONS)
    assert set(DEFAULT_PIN_MAP.dealer) == set(DEALER_BUTTONS)
    pins = [p for _label, p in DEFAULT_PIN_MAP.all_pins()]
    assert len(pins) == len(set(pins)) == 24


def test_default_map_avoids_i2c_and_uart_and_is_on_the_header():
    pins = {p for _label, p in DEFAULT_PIN_MAP.all_pins()}
    assert not pins & set(RESERVED_PINS)
    factory = MockFactory()
    assert check_header_pins(DEFAULT_PIN_MAP, factory) == []
    numbers = [header_pin_number(p, factory) for p in pins]
    assert all(n is not None and 1 <= n <= 40 for n in numbers)
    # gpiozero's own board data agrees with the wiring table's first row
    assert header_pin_number(4, factory) == 7


def test_header_check_flags_reserved_and_unknown_pins():
    factory = MockFactory()
    bad = PinMap(seats={1: {"fold": 2, "check_call": 14, "bet_raise": 17}})
    problems = check_header_pins(bad, factory)
    assert len(problems) == 2
    assert "I2C1 SDA" in problems[0] and "UART TXD" in problems[1]


def test_config_with_string_seat_keys_and_default_dealer():
    pm = pin_map_from_config({"seats": {"1": {"fold": 5, "check_call": 6, "bet_raise": 13},
                                        "7": {"fold": "GPIO19"}}})
    assert pm.seats[1]["fold"] == 5 and pm.seats[7] == {"fold": "GPIO19"}
    assert pm.dealer == DEFAULT_PIN_MAP.dealer


@pytest.mark.parametrize("cfg, words", [
    ({"seats": {"1": {"raise": 5}}}, "not one of"),
    ({"seats": {"0": {"fold": 5}}}, ">= 1"),
    ({"seats": {"x": {"fold": 5}}}, "integer"),
    ({"seats": {"1": {"fold": 5}, "2": {"fold": "GPIO5"}}, "dealer": {}}, "used by both"),
    ({"dealer": {"shuffle": 5}}, "not one of"),
    ({"seats": {"1": {"fold": 5}, "01": {"fold": 6}}}, "without leading zeros"),
    ({"seats": {"1 ": {"fold": 5}}}, "without leading zeros"),
])
def test_bad_pin_maps_raise_typed_errors(cfg, words):
    with pytest.raises(PinConfigError, match=words) as info:
        pin_map_from_config(cfg)
    assert isinstance(info.value, InvalidInputError)


def test_factory_by_name():
    assert isinstance(make_pin_factory("mock"), MockFactory)
    with pytest.raises(PinConfigError, match="unknown pin factory"):
        make_pin_factory("wiringpi")


def test_default_factory_is_mock_off_the_pi(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Generic x86 PC\0")
    assert default_factory_name(str(model)) == "mock"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert default_factory_name(str(model)) == "lgpio"
    assert default_factory_name(str(tmp_path / "missing")) == "mock"


def test_real_factory_off_the_pi_is_a_device_error():
    if default_factory_name() != "mock":
        pytest.skip("running on a Raspberry Pi")
    with pytest.raises(PinFactoryError) as info:
        make_pin_factory("lgpio")
    assert isinstance(info.value, DeviceError)
