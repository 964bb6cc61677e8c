"""Rebuild the core from a journal: the newest intact snapshot, then every event after it.

The replay applies events exactly as the live loop does (:func:`apply_event`), so a core
that rejected an event live rejects it again on replay.  Effects produced while replaying
are not carried out again (no sounds, no shoe commands), except hand histories, whose
writing is idempotent: they are returned in ``redo`` for the loop to write (a history
whose hand ended just before a power cut is then not lost).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.effects import Effect, HandHistory
from engine.events import Event
from pi_app.service.core_protocol import TableCore
from pi_app.service.journal import Journal, Loss, TornRecord
from pi_app.service.journal_hands import check_histories

log = logging.getLogger(__name__)


def apply_event(core: TableCore, event: Event) -> tuple[list[Effect], BaseException | None]:
    """Apply ``event`` to ``core``; returns ``(effects, None)`` or ``([], error)`` when the
    core rejected it (any exception; the core's contract says a rejection changes nothing).
    Used identically live and on replay."""
    try:
        return list(core.apply(event) or ()), None
    except Exception as exc:  # noqa: BLE001 - a rejected event must not stop the loop
        return [], exc


@dataclass
class Recovered:
    """The result of :func:`recover`.

    ``last_seq``/``last_t``: the last journaled event (``last_t`` None if none);
    ``snapshot_seq``: the snapshot replay started from; ``replayed``: events applied on top;
    ``rejected``: of those, how many the core rejected; ``torn``: the dropped torn record;
    ``bad_snapshots``: snapshots skipped for a failed checksum; ``redo``: hand-history
    effects from the replayed events (to write again, idempotently); ``last_chain``: the
    chained checksum of record ``last_seq``.
    """

    core: TableCore
    last_seq: int
    last_t: float | None
    snapshot_seq: int
    replayed: int
    rejected: int = 0
    torn: TornRecord | None = None
    bad_snapshots: list[int] = field(default_factory=list)
    redo: list[Effect] = field(default_factory=list)
    loss: Loss | None = None
    last_chain: str = ""  # the chained checksum of record last_seq ("": not known)

    def describe(self) -> dict[str, Any]:
        """JSON-able facts about the recovery (no game state)."""
        return {
            "last_seq": self.last_seq, "last_t": self.last_t,
            "snapshot_seq": self.snapshot_seq, "replayed": self.replayed,
            "rejected": self.rejected,
            "torn_record": None if self.torn is None else
            {"seq": self.torn.seq, "reason": self.torn.reason},
            "bad_snapshots": list(self.bad_snapshots),
            "loss": None if self.loss is None else
            {"missing": self.loss.missing, "kept_to": self.loss.keep_to,
             "text": self.loss.text},
        }


def _replay(core_cls: type[TableCore], snapshot: Any,
            events: list[tuple[int, Event]]) -> tuple[TableCore, list[Effect], int]:
    """The core restored from ``snapshot`` with ``events`` applied: the core, the hand
    history effects to write again, and how many events it rejected."""
    core = core_cls.restore(snapshot)
    redo: list[Effect] = []
    rejected = 0
    # a core that can leave out the effects a replay drops (core_protocol: ``replaying``)
    quiet: Any = core if hasattr(core, "replaying") else None
    if quiet is not None:
        quiet.replaying = True
    apply = core.apply
    try:
        for _seq, event in events:
            try:  # apply_event, inlined: a rejected event is counted and skipped
                effects = apply(event)
            except Exception:  # noqa: BLE001 - as apply_event: it must not stop the replay
                rejected += 1
                continue
            if effects:
                redo.extend(e for e in effects if isinstance(e, HandHistory))
    finally:
        if quiet is not None:
            quiet.replaying = False
    return core, redo, rejected


def recover(journal: Journal, core_cls: type[TableCore],
            history_dir: Path | None = None, replayed: Recovered | None = None) -> Recovered:
    """Restore ``core_cls`` from ``journal``'s newest intact snapshot and replay the rest.

    ``replayed``: the recovery of the same file read-only a moment before, under the same
    lock (the checks made before a journal is opened for writing,
    :func:`pi_app.service.wiring.build_service`): when the journal still ends as it did
    then (:func:`_unchanged`), that recovery is taken as it is, the journal neither read
    again nor replayed a second time (the replay is exact: it would rebuild the same
    table); otherwise, when a new scan finds the same snapshot and the same records, its
    core and hand histories are taken.

    With ``history_dir`` (where the journal's hand histories are written), histories of
    hands past the journal's end are a loss (:mod:`pi_app.service.journal_hands`).  Only
    then is the journal written: a torn last record is dropped from the file (left in
    place when the journal is read-only); a loss accepted knowingly (the journal opened
    with ``accept_loss``) cuts the journal back to its last intact record, and is logged.

    Raises:
        JournalLossError, JournalNewerError, JournalCorruptError: see
            :meth:`pi_app.service.journal.Journal.scan`; JournalLossError too for hand
            histories past the journal (nothing was written).
        JournalUnavailable: the torn record could not be deleted (disk read-only/full).
    """
    if replayed is not None and _unchanged(journal, replayed):
        if history_dir is not None:
            check_histories(replayed.core, history_dir, journal.path,
                            accept_loss=journal.accept_loss, move=not journal.readonly)
        return replayed
    scan = journal.scan()
    if replayed is not None and scan.loss is None and \
            (replayed.snapshot_seq, replayed.last_seq, replayed.replayed) == \
            (scan.snapshot_seq, scan.last_seq, len(scan.events)):
        core, redo, rejected = replayed.core, replayed.redo, replayed.rejected
    else:
        core, redo, rejected = _replay(core_cls, scan.snapshot, scan.events)
    if history_dir is not None:
        check_histories(core, history_dir, journal.path, accept_loss=journal.accept_loss,
                        move=not journal.readonly)
    if scan.loss is not None and not journal.readonly:
        journal.accept(scan.loss)
    elif scan.loss is not None:
        log.warning("%s", scan.loss.text)  # the text names the file
    if scan.torn is not None and not journal.readonly:
        journal.drop_torn(scan.torn)
    told = replayed.bad_snapshots if replayed is not None else []
    for seq in (s for s in scan.bad_snapshots if s not in told):  # told once, not again
        log.warning("%s: snapshot %d failed its checksum; using an older one", journal.path, seq)
    return Recovered(core=core, last_seq=scan.last_seq, last_t=journal.last_t,
                     snapshot_seq=scan.snapshot_seq, replayed=len(scan.events),
                     rejected=rejected, torn=scan.torn, bad_snapshots=scan.bad_snapshots,
                     redo=redo, loss=scan.loss, last_chain=scan.last_chain)


def _unchanged(journal: Journal, replayed: Recovered) -> bool:
    """Whether ``journal`` still ends as it did when ``replayed`` was recovered from it
    read-only, a moment before under the same lock: the same newest snapshot, and the same
    last record with the same chained checksum (which covers every record before it), as
    the journal read them when it opened.  Only a clean recovery (no torn record, no loss,
    no damaged snapshot: nothing for the writable journal to mend) is taken so; then the
    journal is not read and verified a second time."""
    return (replayed.torn is None and replayed.loss is None and not replayed.bad_snapshots
            and replayed.last_chain != ""
            and (journal.last_seq, journal.last_chain, journal.last_snapshot_seq,
                 journal.last_t) == (replayed.last_seq, replayed.last_chain,
                                     replayed.snapshot_seq, replayed.last_t))
