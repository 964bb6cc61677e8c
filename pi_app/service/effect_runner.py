"""Carry out the effects the core returns: sounds, shoe commands, hand histories, logs.

Each effect goes to a callback given at construction; a failing callback (a device that
went away) is logged and never stops the loop.  Device callbacks must not block: they
hand the work to their adapter's own thread or queue.

Hand histories are written under ``history_dir`` as ``hand-000123.phh`` (private ones,
with hole cards, mode 0600) or ``public/hand-000123.phh``, atomically (temporary file,
fsync, rename, directory fsync), so rewriting one during replay is harmless.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine.effects import Alert, Effect, HandHistory, LogLine, Notice, ShoeCommand
from pi_app.service.testhooks import kill_point

log = logging.getLogger("pokertable.effects")
core_log = logging.getLogger("pokertable.core")


_RANKS = frozenset("23456789TJQKA")
_SUITS = frozenset("cdhs")


def hides_only_cards(public: str, private: str) -> bool:
    """True when ``public`` is ``private`` with at least one card (a rank and a suit, as
    PHH writes it: ``As``) written as ``??`` and nothing else changed.

    >>> hides_only_cards("p1 AsKs p2 ????", "p1 AsKs p2 7h2c")
    True
    >>> hides_only_cards("p1 AsKd p2 ????", "p1 AsKs p2 7h2c")
    False
    >>> hides_only_cards("p1 AsKs p2 7h2c", "p1 AsKs p2 7h2c")
    False
    """
    parts = public.split("??")
    if len(public) != len(private) or len(parts) < 2:
        return False
    pos = 0
    for i, part in enumerate(parts):
        if not private.startswith(part, pos):
            return False
        pos += len(part)
        if i < len(parts) - 1:
            if private[pos:pos + 1] not in _RANKS or private[pos + 1:pos + 2] not in _SUITS:
                return False
            pos += 2
    return pos == len(private)


def write_atomic(path: Path, text: str, mode: int = 0o600) -> None:
    """Write ``text`` to ``path`` durably: temp file, fsync, rename, fsync of the directory.

    Raises:
        OSError: e.g. ENOSPC; ``path`` is then unchanged.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    try:
        os.write(fd, text.encode())
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


class EffectRunner:
    """Dispatch effects to callbacks.

    Args:
        history_dir: where hand histories go (None: not written, only logged).
        sound: ``sound(alert)`` for :class:`Alert` effects (None: ignored).
        shoe: ``shoe(command)`` for :class:`ShoeCommand` effects.
        notice: ``notice(text)`` for :class:`Notice` effects (default: logged at INFO).
        other: ``other(effect)`` for any other effect type.
    """

    def __init__(self, history_dir: str | os.PathLike[str] | None = None, *,
                 sound: Callable[[Alert], Any] | None = None,
                 shoe: Callable[[ShoeCommand], Any] | None = None,
                 notice: Callable[[str], Any] | None = None,
                 other: Callable[[Effect], Any] | None = None) -> None:
        self.history_dir = Path(history_dir) if history_dir is not None else None
        self.sound = sound
        self.shoe = shoe
        self.notice = notice
        self.other = other
        self.histories_written = 0
        self.disk_errors: list[OSError] = []

    def history_path(self, effect: HandHistory) -> Path | None:
        if self.history_dir is None:
            return None
        sub = self.history_dir if effect.private else self.history_dir / "public"
        return sub / f"hand-{effect.hand_number:06d}.phh"

    def write_history(self, effect: HandHistory, replay: bool = False) -> bool:
        """Write one history; False (and the error kept in ``disk_errors``) on failure.
        With ``replay``, a file already holding the same text is left alone."""
        path = self.history_path(effect)
        if path is None:
            return True
        if replay:
            try:
                if path.read_text() == effect.phh:
                    return True
            except (OSError, UnicodeDecodeError):
                pass
        try:
            write_atomic(path, effect.phh, 0o600 if effect.private else 0o644)
        except OSError as exc:
            log.error("cannot write hand history %s: %s", path, exc)
            self.disk_errors.append(exc)
            return False
        self.histories_written += 1
        kill_point("effects")
        return True

    def run(self, effects: Iterable[Effect], *, replay: bool = False) -> None:
        """Carry out ``effects`` in order.  With ``replay`` only hand histories are
        (re)written (:meth:`rewrite_histories`); sounds, shoe commands, notices and logs
        are skipped."""
        if replay:
            self.rewrite_histories([e for e in effects if isinstance(e, HandHistory)])
            return
        for effect in effects:
            if isinstance(effect, HandHistory):
                self.write_history(effect, replay=replay)
                continue
            if replay:
                continue
            try:
                self._dispatch(effect)
            except Exception:  # noqa: BLE001 - a device failure never stops the loop
                log.exception("effect %s failed", type(effect).__name__)

    def rewrite_histories(self, histories: list[HandHistory]) -> None:
        """Write again the hand histories of a replay whose file is missing or differs
        (a hand that ended just before a power cut, a damaged file).

        A private history's text is at hand (the history digest is made from it): its
        file is compared with it.  A public history's text is made only when it must be:
        for the last hand, when its file is missing, or when the same hand's private file
        was not found intact.  Otherwise its file is taken as it is when it has the
        private text with some of its cards hidden (`hides_only_cards`): the public text
        hides each hole card not shown behind ``??``, two characters for a card's two, so
        a truncated, overwritten or changed file, or one showing every hand, has its text
        made and compared (the public text of a hand whose every card was shown is the
        private one).  Left unnoticed: a file of an earlier hand where a hidden card was
        written back in its place (a deliberate edit, not damage)."""
        intact: dict[int, str] = {}  # hand -> its private text, found on disk as it is
        last = max((h.hand_number for h in histories), default=None)
        for effect in histories:
            path = self.history_path(effect)
            if path is None:
                continue
            try:
                on_disk: str | None = path.read_text()
            except (OSError, UnicodeDecodeError):
                on_disk = None
            private = intact.get(effect.hand_number)
            if effect.private and on_disk == effect.phh:
                intact[effect.hand_number] = on_disk
                continue
            if not effect.private and on_disk is not None and private is not None \
                    and effect.hand_number != last and hides_only_cards(on_disk, private):
                continue
            if on_disk != effect.phh:
                self.write_history(effect)

    def _dispatch(self, effect: Effect) -> None:
        if isinstance(effect, Alert):
            if self.sound is not None:
                self.sound(effect)
        elif isinstance(effect, ShoeCommand):
            if self.shoe is not None:
                self.shoe(effect)
        elif isinstance(effect, LogLine):
            core_log.log(logging.getLevelName(effect.level.upper())
                         if isinstance(logging.getLevelName(effect.level.upper()), int)
                         else logging.INFO, "%s", effect.text)
        elif isinstance(effect, Notice):
            if self.notice is not None:
                self.notice(effect.text)
            else:
                log.info("notice: %s", effect.text)
        elif self.other is not None:
            self.other(effect)
        else:
            log.debug("unhandled effect %r", effect)
