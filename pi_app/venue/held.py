"""The director's commands held for a table that is offline (an adapter's bookkeeping: the
rules in :mod:`engine.tournament.venue` decide the commands, this decides when they go).

A table's retained presence (``pokertable/1/presence/USER``: ``online``, or ``offline``
from its will when its connection is lost) says whether it can hear the director.  While
it says offline, the director publishes nothing to it: every command for it (the seat of
a player moved or drawn there, a move, a level, a go) waits here, in order, and is shown
as pending; when its presence says online again they are sent, in order, once.  (The
broker's persistent session would queue them too; holding them keeps the director, not
the broker, the one that knows what the table has not been told, and lets the console say
so.)  A table whose presence has not been seen yet counts as offline: a table's link
publishes ``online`` (retained) each time it connects, after subscribing to its commands,
so a director that starts before a table, or after it, sends the table's first commands
once the table can take them.

The director journals each change of a table's presence before applying it (an input as
any other); a restarted director starts with every table unseen, holds the commands its
journal gives again, and sends each table's when the broker's retained presence (delivered
as the director subscribes) says it is online.

>>> from engine.tournament.venue import Order
>>> held = HeldOrders({1: "table1", 2: "table2"})
>>> held.presence("table1", True)
[]
>>> [o.seq for o in held.route([Order(2, 5, 3, "seat", ("Ann", 4, 900, "balance")),
...                             Order(1, 9, 3, "go", (4,))], {"Ann": 1})]
[9]
>>> held.pending()
[('Ann', 1, 2)]
>>> [o.seq for o in held.presence("table2", True)], held.pending()
([5], [])
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.tournament.venue import Order


class HeldOrders:
    """Which tables are offline, and the orders held for them.

    Args:
        users: table number -> the broker user name its Pi logs in with.
    """

    def __init__(self, users: Mapping[int, str]) -> None:
        self.table_of = {user: number for number, user in users.items()}
        self.online: set[int] = set()
        self.held: dict[int, list[Order]] = {}
        self._origin: dict[tuple[int, int], int] = {}  # (table, seq) of a held seat -> from

    def changes(self, username: str, online: bool) -> bool:
        """Whether a presence of ``username`` would change what is held (a table's, and
        not the presence already known; a table not seen yet counts as offline, so its
        first ``offline`` changes nothing); the director journals only these."""
        table = self.table_of.get(username)
        return table is not None and (table in self.online) != online

    def presence(self, username: str, online: bool) -> list[Order]:
        """Apply a presence; returns the orders released (in order) when a table that
        was offline is back, else nothing."""
        table = self.table_of.get(username)
        if table is None:
            return []
        if not online:
            self.online.discard(table)
            return []
        self.online.add(table)
        released = self.held.pop(table, [])
        for o in released:
            self._origin.pop((o.table, o.seq), None)
        return released

    def route(self, orders: list[Order], origins: Mapping[str, int]) -> list[Order]:
        """The orders to send now; those for an offline table are held (``origins``:
        player -> the table a player in transit comes from, for :meth:`pending`)."""
        now = []
        for o in orders:
            if o.table not in self.online:
                self.held.setdefault(o.table, []).append(o)
                if o.kind == "seat":
                    self._origin[(o.table, o.seq)] = origins.get(str(o.args[0]), o.table)
            else:
                now.append(o)
        return now

    def pending(self) -> list[tuple[str, int, int]]:
        """(player, from table, to table) of each seat held, by player; a player drawn
        (a newcomer) comes "from" the table it is drawn to."""
        return sorted((str(o.args[0]), self._origin[(o.table, o.seq)], o.table)
                      for orders in self.held.values() for o in orders if o.kind == "seat")

    def count(self, table: int) -> int:
        """Orders held for ``table``."""
        return len(self.held.get(table, []))
