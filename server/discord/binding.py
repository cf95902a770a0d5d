"""Who is who on Discord: one-time codes, the channels bound to encounters, the users linked to seats.

The GM page makes a bind code (POST /encounters/{id}/discord/codes with the GM token); `/tussle bind
<code>` in a channel binds it to the encounter. A player's page makes a link code under its seat token;
`/tussle link <code>` links the Discord user to that seat, so the seat token itself never travels
through Discord. A link keeps the hash of the token it was made under and is checked against the live
tokens at each use: rotating or revoking the seat's token ends every link made under it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from events.store.discord_rows import DiscordRow
from server.encounters.access import require
from server.encounters.service import Encounters
from server.encounters.service_errors import NotFound
from server.encounters.tokens import Principal

CODE_TTL_S = 15 * 60
BIND, LINK = "bind_code", "link_code"


def _code_key(code: str) -> str:
    return "code:" + hashlib.sha256(code.strip().encode()).hexdigest()


def _link_key(stream: str, user: str) -> str:
    return f"link:{stream}:{user}"


async def make_code(
    enc: Encounters, stream: str, who: Principal, kind: str | None, now: float
) -> dict[str, Any]:
    """A one-time code: the GM's binds a channel (or, asked for `link`, links a user as the GM); a
    player's links a user to its seat."""
    kind = kind or ("bind" if who.role == "gm" else "link")
    require(who, "make_discord_bind_code" if kind == "bind" else "make_discord_link_code")
    code = secrets.token_urlsafe(12)
    data = {"role": who.role, "seat": who.seat, "token_hash": who.token_hash}
    await enc.put_discord_row(
        DiscordRow(
            _code_key(code), stream, BIND if kind == "bind" else LINK, json.dumps(data), now + CODE_TTL_S
        )
    )
    return {"code": code, "kind": kind, "expires_in_s": CODE_TTL_S, "command": f"/tussle {kind} {code}"}


async def _redeem(enc: Encounters, code: str, kind: str, now: float) -> DiscordRow:
    found = await enc.discord_row(_code_key(code))
    what = "bind" if kind == BIND else "link"
    unknown = NotFound(
        f"that {what} code is unknown, used or expired (a code works once, for 15 minutes): make a new one "
        "on the encounter's page"
    )
    if found is None or found.kind != kind:
        raise unknown
    taken = await enc.take_discord_row(found.key)  # one use: of two at once, one gets it
    if taken is None or (taken.expires is not None and taken.expires < now):
        raise unknown
    return taken


async def bind(enc: Encounters, code: str, channel: str, now: float) -> str:
    """Bind the channel to the code's encounter (a channel binds one encounter; binding again moves it)."""
    row = await _redeem(enc, code, BIND, now)
    await enc.put_discord_row(DiscordRow(f"channel:{channel}", row.stream, "channel", json.dumps({})))
    return row.stream


async def channel_stream(enc: Encounters, channel: str) -> str | None:
    row = await enc.discord_row(f"channel:{channel}")
    return row.stream if row is not None else None


async def link(enc: Encounters, stream: str, code: str, user: str, username: str, now: float) -> Principal:
    """Link the Discord user to the code's seat (the code must be of the channel's encounter)."""
    row = await _redeem(enc, code, LINK, now)
    if row.stream != stream:
        raise NotFound("that link code is of another encounter than this channel's")
    data = json.loads(row.data)
    await enc.put_discord_row(
        DiscordRow(
            _link_key(stream, user), stream, "link", json.dumps({**data, "user": user, "username": username})
        )
    )
    who = await linked(enc, stream, user)
    if who is None:
        raise NotFound("the token that made this code was rotated or revoked: make a new code")
    return who


async def linked(enc: Encounters, stream: str, user: str) -> Principal | None:
    """Who the Discord user acts as in the encounter; None when not linked, or when the token the link
    was made under is no longer live (the link is then forgotten)."""
    row = await enc.discord_row(_link_key(stream, user))
    if row is None:
        return None
    data = json.loads(row.data)
    holder = await enc.token_holder(data["token_hash"]) if data.get("token_hash") else None
    if (
        holder is None
        or holder[0] != stream
        or holder[1].role != data["role"]
        or holder[1].seat != data["seat"]
    ):
        await enc.take_discord_row(row.key)
        return None
    return Principal(data["role"], stream, data["seat"], holder[1].token_id, data["token_hash"])


async def unlink(enc: Encounters, stream: str, user: str) -> bool:
    return await enc.take_discord_row(_link_key(stream, user)) is not None


async def links(enc: Encounters, stream: str) -> list[dict[str, Any]]:
    """The encounter's live links (the GM page's list)."""
    out = []
    for row in await enc.discord_rows(stream, "link"):
        data = json.loads(row.data)
        if await linked(enc, stream, data["user"]) is not None:
            out.append(
                {
                    "user": data["user"],
                    "username": data["username"],
                    "role": data["role"],
                    "seat": data["seat"],
                }
            )
    return out
