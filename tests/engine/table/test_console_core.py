"""The console's view of the table core (engine/table/console_core.py) is the real core's."""

from __future__ import annotations

from engine.table.console_core import ConsoleCore, ConsoleSettings
from engine.table.core import TableCore, TableSettings


def _members(protocol: type) -> set[str]:
    """The members a protocol declares (typing's own bookkeeping left out)."""
    own = {name for name in vars(protocol) if not name.startswith("__")}
    return (own - {"_abc_impl", "_is_protocol"}) | set(getattr(protocol, "__annotations__", {}))


def test_the_table_core_has_every_member_the_console_uses():
    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob"}, seats=(1, 2, 3)))
    missing = {name for name in _members(ConsoleCore) if not hasattr(core, name)}
    assert missing == set()
    assert {name for name in _members(ConsoleSettings)
            if not hasattr(core.settings, name)} == set()
    assert _members(ConsoleCore) >= {"tournament", "proc", "console", "apply"}
