"""The director's night on the broker from its first moment, registration included.

A director started with a new state folder mints and journals its night at once
(:meth:`~pi_app.venue.director_journal.DirectorJournal.night`) and, before the players
register, connects to the broker (a clean first connection: the session the broker kept
is last night's) and publishes its retained ``director/state`` (no table seated, no
winner: a night that runs, so a table with a new journal joins it) and ``director/clock``
(the first level, stopped).  Last night's retained state, which still runs when that
night was abandoned, is so replaced before any table can take it (docs/venue.md,
"Between nights").  Both go out once, when the node connects, as message
:data:`REGISTRATION_SEQ` of their stream: the director's own state and clock, after the
start, are numbered above it (:class:`pi_app.venue.director.Director`).
"""

from __future__ import annotations

from pi_app.venue import messages
from pi_app.venue.config import VenueConfig, read_password
from pi_app.venue.director import levels_of
from pi_app.venue.director_journal import DirectorJournal, mint_night
from pi_app.venue.node import CLOCK_TOPIC, STATE_TOPIC, VenueNode

REGISTRATION_SEQ = 1  #: the seq of the registration's state and clock


def announce_night(venue: VenueConfig, journal: DirectorJournal) -> VenueNode:
    """Connect (in the background) as the director of ``venue`` and publish the retained
    state and clock of the night journaled in ``journal`` (minted now when it has none);
    returns the node: close it before the director's own node connects (the same client
    id).  Nothing is received: no table reports before it is seated.

    Raises:
        VenueConfigError: the director's password file is missing or unreadable.
        DirectorJournalError: the journaled night id is not one.
    """
    night, fresh = journal.night(mint_night())
    levels, _chips = levels_of(venue.structure)
    node = VenueNode(venue.broker_url, username=venue.director_username,
                     password=read_password(venue.director_password_file,
                                            "director.password_file"),
                     director=venue.director_username,
                     tables={t.number: t.username for t in venue.tables}, subscriptions=(),
                     put=lambda _event: None, ca_file=venue.ca_file, night=night,
                     clean_start=fresh)
    # before the start: kept, published once when the node connects (VenueNode.send)
    node.send(STATE_TOPIC, REGISTRATION_SEQ, messages.VenueState(0, (), (), (), (), (), 0, False))
    if levels:
        node.send(CLOCK_TOPIC, REGISTRATION_SEQ,
                  messages.Clock(levels[0][0], False, levels[0][4]))
    return node.start()
