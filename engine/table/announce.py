"""What the table says: the clock's alerts as effects, and the public log line of a
dealing outcome.

Pure functions of their arguments (no table state): :func:`clock_effects` turns the
:class:`engine.tournament.clock.ClockAlert` list of a clock step into sounds
(:class:`engine.effects.Alert`, unless muted), notices and log lines; :func:`public_line`
is the INFO line of an outcome, made from its public dict (no hole card can reach it).

>>> from engine.tournament.clock import ClockAlert
>>> [type(e).__name__ for e in clock_effects([ClockAlert("one_minute", 0.0, 0, 1, "One minute")],
...                                          None, muted=True)]
['Notice', 'LogLine']
"""

from __future__ import annotations

from engine.dealing.outcomes import Outcome
from engine.effects import Alert, Effect, LogLine, Notice
from engine.tournament.clock import Clock, ClockAlert

#: clock alerts that sound (engine.effects.ALERTS) -> their alert kind
SOUNDED = {
    "level_start": "level_start", "one_minute": "one_minute", "ten_seconds": "ten_seconds",
    "level_end": "level_end", "break_start": "break_start", "break_end": "break_end",
    "color_up": "color_up", "late_registration_closing": "late_registration_closing",
    "bonus_wheel": "bonus_wheel",
}


def clock_effects(alerts: list[ClockAlert], clock: Clock | None,
                  muted: bool) -> list[Effect]:
    """The effects of a clock step's ``alerts``: a sound for each alert of
    :data:`SOUNDED` unless ``muted`` (its words from :func:`spoken`, reading the level of
    ``clock``), a notice for each alert with a message, and an INFO log line for each."""
    out: list[Effect] = []
    for a in alerts:
        kind = SOUNDED.get(a.kind)
        if kind is not None and not muted:
            out.append(Alert(kind, spoken(a, clock)))
        if a.message:
            out.append(Notice(a.message))
        out.append(LogLine("INFO", f"clock: {a.kind} {a.message}".strip()))
    return out


def spoken(alert: ClockAlert, clock: Clock | None) -> str:
    """The words of an alert; numbers stay digits (the speech output reads them out).
    A level start reads the blinds of ``clock``'s level."""
    if alert.kind == "level_start" and clock is not None:
        lv = clock.level
        if lv.is_break:
            return "The break has started"
        text = f"Blinds are now {lv.small_blind} and {lv.big_blind}"
        if lv.ante:
            text += f", ante {lv.ante}"
        return text
    return alert.message


def public_line(o: Outcome) -> str:
    """The INFO log line of a dealing outcome, from its public dict (``kind k=v ...``)."""
    d = o.to_dict(private=False)
    kind = d.pop("event", type(o).__name__)
    return f"{kind} " + " ".join(f"{k}={v}" for k, v in d.items() if v not in (None, "", ()))
