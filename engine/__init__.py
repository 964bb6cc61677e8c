"""Pure rules core of the poker table controller.

Nothing in this package performs I/O, reads a clock or starts a thread: time and
inputs are passed in as arguments and every function returns new state plus events.
"""
