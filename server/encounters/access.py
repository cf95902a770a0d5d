"""Who may do what: every role check of the API, decided here and nowhere else.

A handler or a service method names the action (`require(who, "delete_encounter")`); the table says which
roles may do it, what a caller without a token is told (401) and what a caller with the wrong one is
told (403). Identifying the token is the HTTP layer's (server/http/context.py `principal`); deciding what
that principal may do is this module's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from events.store.outbox import WebhookRow
from server.encounters.service_errors import NotPermitted, Unauthenticated
from server.encounters.tokens import Principal

SEND_A_TOKEN = "send your GM or seat token (Authorization: Bearer)"


class Rule(NamedTuple):
    roles: frozenset[str]
    refusal: str  # 403: a token, not one of these roles
    unauthenticated: str = SEND_A_TOKEN  # 401: no token at all


def _rule(roles: tuple[str, ...], refusal: str, unauthenticated: str = SEND_A_TOKEN) -> Rule:
    return Rule(frozenset(roles), refusal, unauthenticated)


RULES: dict[str, Rule] = {
    # Only when the server has an admin token; without one anyone creates.
    "create_encounter": _rule(
        ("admin",),
        "this server lets only its admin create encounters",
        "this server lets only its admin create encounters",
    ),
    "delete_encounter": _rule(
        ("admin",),
        "only the admin may delete encounters",
        "only the admin may delete encounters: send the admin token",
    ),
    "manage_firehose_tokens": _rule(
        ("admin",),
        "only the server's admin makes and revokes firehose (server-level reader) tokens",
        "only the server's admin makes and revokes firehose tokens: send the admin token",
    ),
    "read_firehose": _rule(
        ("firehose",),
        "the firehose takes a firehose token (POST /firehose-tokens, made by the admin); the admin's and "
        "encounters' tokens read their encounters' own websockets",
        "send a firehose token (Authorization: Bearer, ?token= or a first auth message)",
    ),
    "read_hidden_rolls": _rule(
        ("gm", "admin"),
        "only the GM reads the hidden rolls: they stay behind the GM screen until reveal_roll "
        "or close shows them to everyone",
    ),
    "send_command": _rule(
        ("gm", "player", "system"), "observers may read this encounter but not send commands"
    ),
    "gm": _rule(("gm",), "only the GM may do this"),
    "manage_seats": _rule(("gm",), "only the GM may manage seats and tokens"),
    "rotate_gm_token": _rule(("gm", "admin"), "only the GM, or the server's admin, may rotate the GM token"),
    "manage_webhooks": _rule(("gm", "player"), "only the GM and players may manage webhooks"),
    "redeliver_webhook": _rule(("gm",), "only the GM retries deliveries and re-enables webhooks"),
    "disable_webhook": _rule(("system",), "only the server itself disables a webhook"),
    "make_discord_bind_code": _rule(("gm",), "only the GM makes the code that binds a Discord channel"),
    "make_discord_link_code": _rule(
        ("gm", "player"), "only the GM, or a player for its own seat, makes a Discord link code"
    ),
    # Any token of the encounter: the answer depends on whose.
    "ask_who_i_am": _rule(
        ("gm", "player", "observer", "admin", "system"), "", "send a token to learn who you are here"
    ),
    "act": _rule(("gm", "player", "observer", "admin", "system"), ""),
}


def require(who: Principal | None, action: str) -> Principal:
    """`who`, if it may do `action`; else the 401 (no token) or 403 (wrong role) the table says."""
    rule = RULES[action]
    if who is None:
        raise Unauthenticated(rule.unauthenticated)
    if who.role not in rule.roles:
        raise NotPermitted(rule.refusal)
    return who


def may_read(who: Principal | None, stream: str, public: bool) -> Principal:
    """A reader of an encounter: any of its tokens, or anyone at all when it is public."""
    if who is not None:
        return who
    if public:
        return Principal("observer", stream)
    raise Unauthenticated("this encounter is not public: send a token (Authorization: Bearer)")


def firehose_may_read(granted: bool) -> None:
    """A firehose token reads a private encounter only once its GM granted it."""
    if not granted:
        raise NotPermitted(
            "this firehose token reads public encounters, and private ones only once their GM granted it "
            "(POST /encounters/{id}/firehose-grants)"
        )


def webhook_fields(who: Principal, seat: str | None, deliver: list[Any]) -> None:
    """A player's webhook delivers its own seat's notices and nothing else."""
    if who.role == "player" and (seat != who.seat or deliver != ["notices"]):
        raise NotPermitted(
            "a player's webhook delivers its own seat's notices only (deliver: [\"notices\"], no other seat)"
        )


def sees_webhook(who: Principal, w: WebhookRow) -> bool:
    """The GM sees every webhook of the encounter; a player only its own seat's."""
    return who.role == "gm" or w.seat == who.seat


def sees_private_encounters(who: Principal | None) -> bool:
    """GET /encounters lists every encounter to the admin, the public ones to anyone else."""
    return who is not None and who.role == "admin"
