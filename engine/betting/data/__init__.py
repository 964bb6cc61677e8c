"""Data shipped with :mod:`engine.betting`: the heads-up preflop table
(``preflop_heads_up.bin``, see ``PREFLOP_TABLE.md``)."""
