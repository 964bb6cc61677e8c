"""The push's mailboxes (pi_app/console/push.py) on an asyncio loop of the test's own: a
page keeps its role's documents only while its token is good; once the token expires (or
is revoked) the page is sent the 401 error, then only the public documents."""

from __future__ import annotations

import asyncio
import json

from pi_app.console.push import Client, Pusher


def test_a_page_whose_token_expires_gets_the_401_then_public_documents():
    now = [1000.0]
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def run() -> None:
        pusher = Pusher(clock=lambda: now[0])
        pusher.bind(asyncio.get_running_loop())
        page, other = Client(send=send), Client(send=send)
        pusher.set_role(page, "director", "tok1", expires=1060.0)
        pusher.set_role(other, "director", "tok2", expires=5000.0)
        tasks = [asyncio.ensure_future(pusher.serve(c)) for c in (page, other)]
        await asyncio.sleep(0)
        pusher.publish({"public": '{"role":"public","n":1}',
                        "director": '{"role":"director","n":1}'})
        await asyncio.sleep(0.05)
        assert sent.count('{"role":"director","n":1}') == 2  # both still good
        now[0] = 1060.0  # the page's token expires
        pusher.publish({"public": '{"role":"public","n":2}',
                        "director": '{"role":"director","n":2}'})
        await asyncio.sleep(0.05)
        assert page.role == "public" and other.role == "director"
        errors = [json.loads(t) for t in sent if '"type": "error"' in t]
        assert errors == [{"type": "error", "status": 401,
                           "error": "unknown, expired or revoked token"}]
        assert sent.count('{"role":"director","n":2}') == 1  # only the other page's
        pusher.publish({"public": '{"role":"public","n":3}',
                        "director": '{"role":"director","n":3}'})
        await asyncio.sleep(0.05)
        assert '{"role":"public","n":3}' in sent  # the expired page follows the public
        assert sent.count('{"role":"director","n":3}') == 1
        for t in tasks:
            t.cancel()

    asyncio.run(run())
