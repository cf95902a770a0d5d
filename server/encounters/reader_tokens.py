"""Server-level reader tokens and the GMs' grants (docs/websocket.md "The firehose").

The admin makes and revokes a reader token; it reads every public encounter, and a private one only
once that encounter's GM granted it: the grant and its revocation are events of the encounter's own
stream (`FirehoseGranted`, `FirehoseRevoked`), appended like the seat and token events, with the grant
row beside them (events/store/server_tokens.py). The admin's token makes readers but grants nothing:
only the GM of a private fight opens it to one.
"""

from __future__ import annotations

import secrets
from typing import Any

from events.common import FirehoseGranted, FirehoseRevoked
from events.store.port import Store, TokenRevocation, TokenRow
from events.store.server_tokens import FIREHOSE, FIREHOSE_GRANT, GRANT_KEY_PREFIX
from server.encounters.access import require
from server.encounters.service import Encounters, Outcome
from server.encounters.service_errors import Conflict, NotFound, bad_request
from server.encounters.tokens import Principal, new_token, token_hash

TOKEN_ID_PREFIX = "fh-"


async def create(enc: Encounters, who: Principal | None) -> tuple[str, str]:
    """A new reader token: (token_id, token). The token is shown once; the store keeps its hash."""
    require(who, "manage_firehose_tokens")
    return await made(enc.store, TOKEN_ID_PREFIX + enc.ids.read_token())


async def made(store: Store, token_id: str) -> tuple[str, str]:
    """Store a new reader token of this id (the admin's request, or `tussle firehose-tokens create`)."""
    token = new_token()
    await store.add_server_token(TokenRow(token_hash(token), FIREHOSE, None, token_id))
    return token_id, token


async def listed(enc: Encounters, who: Principal | None) -> list[dict[str, Any]]:
    """The live reader tokens (ids only) and the encounters that granted each."""
    require(who, "manage_firehose_tokens")
    rows = await enc.store.server_tokens()
    return [
        {"token_id": r.token_id, "granted": sorted(await enc.store.granted_streams(r.token_id or ""))}
        for r in rows
        if r.role == FIREHOSE
    ]


async def revoke(enc: Encounters, who: Principal | None, token_id: str) -> None:
    require(who, "manage_firehose_tokens")
    if not await enc.store.revoke_server_token(token_id):
        raise NotFound(f"there is no reader token {token_id!r}")


async def _live_reader(enc: Encounters, token_id: str) -> None:
    if not any(r.token_id == token_id and r.role == FIREHOSE for r in await enc.store.server_tokens()):
        raise NotFound(f"there is no reader token {token_id!r} on this server (the admin makes them)")


async def granted(enc: Encounters, stream: str) -> set[str]:
    """The reader tokens (ids) this encounter's GM granted, not since revoked."""
    return {
        r.token_id for r in await enc.store.stream_tokens(stream) if r.role == FIREHOSE_GRANT and r.token_id
    }


async def grant(enc: Encounters, stream: str, who: Principal, body: dict[str, Any]) -> Outcome:
    """The GM lets reader token `body.token_id` read this encounter (a `FirehoseGranted` event)."""
    token_id = body.get("token_id") if isinstance(body, dict) else None
    if not isinstance(token_id, str) or not token_id:
        raise bad_request("token_id must be the reader token's id (the admin has it)", "token_id")
    require(who, "gm")
    await _live_reader(enc, token_id)
    if token_id in await granted(enc, stream):
        raise Conflict(
            f"reader token {token_id!r} already reads this encounter",
            {"token_id": token_id},
            code="already_granted",
        )
    row = TokenRow(GRANT_KEY_PREFIX + secrets.token_hex(16), FIREHOSE_GRANT, None, token_id)
    return await enc.admin_event(stream, who, body, FirehoseGranted(token_id), tokens=[row], action="gm")


async def revoke_grant(enc: Encounters, stream: str, who: Principal, token_id: str) -> Outcome:
    """The GM takes the grant back (a `FirehoseRevoked` event): the firehose stops carrying this encounter."""
    require(who, "gm")
    if token_id not in await granted(enc, stream):
        raise NotFound(f"reader token {token_id!r} was not granted this encounter")
    return await enc.admin_event(
        stream,
        who,
        {},
        FirehoseRevoked(token_id),
        revoke=[TokenRevocation(FIREHOSE_GRANT, token_id=token_id)],
        action="gm",
    )


async def reads(enc: Encounters, stream: str, token_id: str | None, public: bool) -> bool:
    """Whether reader token `token_id` may read `stream`: public, or granted by its GM."""
    return public or (token_id is not None and token_id in await granted(enc, stream))
