"""The director's console: an HTTP API, a WebSocket push and static pages served by the
table service itself (docs/design/console.md).

It is not a second source of truth: every command becomes an engine event on the service
loop's one queue, journaled before it is applied, and its answer is the loop's verdict.
"""
