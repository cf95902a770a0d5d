"""`tussle demo`: a short scripted freeform exchange, on a running server or straight into a database.

It starts nothing: with `--url` (the default) it talks HTTP to a server already running; with `--db`
it writes into a SQLite file no server holds. Either way it prints where to watch the result.
"""

from __future__ import annotations

import secrets
import sys
from typing import Any

import aiohttp

NAME = "Demo: the fight on the bridge"

SCRIPT: list[dict[str, Any]] = [
    {
        "type": "add_combatant",
        "combatant": {"id": "ann", "name": "Ann", "side": "heroes", "position": [0, 0]},
    },
    {
        "type": "add_combatant",
        "combatant": {"id": "troll", "name": "the troll", "side": "monsters", "position": [1, 0]},
    },
    {"type": "start_turn"},
    {"type": "note", "text": "Ann leaps onto the bridge rail."},
    {"type": "move", "combatant": "ann", "to": [1, -1]},
    {"type": "roll", "expression": "1d6", "purpose": "the troll's HTH defence", "combatant": "troll"},
    {"type": "ruling", "text": "The rail is slippery: -1 DX for anyone fighting on it."},
    {"type": "start_turn"},
    {"type": "roll", "expression": "3d6-1", "purpose": "Ann's DX check on the rail", "combatant": "ann"},
]


def _with_ids(body: dict[str, Any]) -> dict[str, Any]:
    """Each command gets its own command_id and 24 characters of entropy, as clients should send."""
    return {**body, "command_id": f"demo-{secrets.token_hex(8)}", "entropy": secrets.token_urlsafe(18)}


def urls(base: str, stream: str) -> dict[str, str]:
    ws_base = "ws" + base[4:] if base.startswith("http") else base
    return {
        "state": f"{base}/encounters/{stream}/state",
        "log": f"{base}/encounters/{stream}/log",
        "log (Markdown)": f"{base}/encounters/{stream}/log?format=markdown",
        "audit": f"{base}/encounters/{stream}/audit",
        "websocket": f"{ws_base}/encounters/{stream}/ws",
    }


def _print(base: str, stream: str, gm_token: str, public: bool, out: Any = sys.stdout) -> None:
    print(f"Encounter {stream} ({NAME!r}) played {len(SCRIPT)} commands.", file=out)
    print(
        f"GM token: {gm_token}"
        + ("" if public else " (the encounter is private: send it as a Bearer token)"),
        file=out,
    )
    for label, url in urls(base, stream).items():
        print(f"  {label}: {url}", file=out)
    print('  subscribe: {"op": "subscribe", "projection": "log", "after": 0}', file=out)


async def demo_over_http(base: str, *, public: bool = True, admin_token: str | None = None) -> int:
    base = base.rstrip("/")
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bearer {admin_token}"} if admin_token else {}
        try:
            async with session.post(
                f"{base}/encounters",
                json={"name": NAME, "ruleset": "freeform", "public": public},
                headers=headers,
            ) as r:
                created = await r.json()
                if r.status != 201:
                    print(
                        f"tussle demo: the server refused to create the encounter: {created}", file=sys.stderr
                    )
                    return 1
        except aiohttp.ClientConnectionError as exc:
            print(
                f"tussle demo: no server answers at {base} ({exc}); start one with `tussle serve`, or use --db",
                file=sys.stderr,
            )
            return 1
        stream, gm_token = created["id"], created["gm_token"]
        for body in SCRIPT:
            async with session.post(
                f"{base}/encounters/{stream}/commands",
                json=_with_ids(body),
                headers={"Authorization": f"Bearer {gm_token}"},
            ) as r:
                if r.status not in (200, 201):
                    print(f"tussle demo: {body['type']} failed: {await r.text()}", file=sys.stderr)
                    return 1
    _print(base, stream, gm_token, public)
    return 0


async def demo_in_database(db: str, base: str, *, public: bool = True) -> int:
    from events.store.opening import SqliteBackend
    from rules.registry import Registry
    from server.encounters.service import Encounters
    from server.encounters.tokens import Principal

    where = SqliteBackend(db)
    store = where.store("write")
    try:
        await store.open()
    except Exception as exc:
        failure = where.serving_failure(exc)  # a server holding the file, mostly
        if failure is None:
            raise
        print(
            f"tussle demo: {failure.message}; use --url to play the demo through that server", file=sys.stderr
        )
        return 1
    try:
        enc = Encounters(store, Registry.discover())
        info, gm_token, _ = await enc.create({"name": NAME, "ruleset": "freeform", "public": public}, "gm")
        gm = Principal("gm", info.id)
        for body in SCRIPT:
            await enc.execute(info.id, gm, _with_ids(body))
    finally:
        await store.close()
    assert gm_token is not None  # a new encounter's creation hands out its GM token
    _print(base.rstrip("/"), info.id, gm_token, public)
    print(f"(written into {db}: serve it with `tussle serve --db {db}` to open these URLs)")
    return 0
