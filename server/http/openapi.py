"""`GET /openapi.json`: the HTTP contract as OpenAPI 3.1, generated from msgspec types.

Bodies come from `server/http/api_types.py`; commands come from the installed rulesets (the registry the
app was built with), so a new ruleset appears here without an edit. Every error is the one shape of
API.md; each status lists the codes it can carry, with their `details` where the code has them.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec

from events.common import COMMON_EVENTS
from rules.common.commands import COMMON_COMMANDS, Respond
from rules.common.options import EngineOptions
from rules.json_shapes import COMMON_EVENT_FIELDS, ENGINE_RESUME
from rules.pipeline import COMBATANT_OVERRIDABLE, NewCombatant
from rules.registry import Registry
from server.encounters.service_errors import RuleRefusal, ServiceError
from server.http import api_types as t
from server.http import openapi_generators as g
from server.http.errors import STATUS_OF
from server.http.event_schemas import typed_events
from server.http.web import SERVED_DOCS

REF = "#/components/schemas/{name}"

# The `details` Struct of the codes that have one (the others' details are a free object).
DETAILS: dict[str, type] = {
    "method_not_allowed": t.MethodNotAllowedDetails,
    "seq_conflict": t.SeqConflictDetails,
    "command_id_reused": t.CommandIdReusedDetails,
    "reaction_pending": t.ReactionPendingDetails,
    "resolution_pending": t.ReactionPendingDetails,
    "commitment_moved": t.CommitmentMovedDetails,
    "dice_needed": t.DiceNeededDetails,
    "rate_limited": t.RateLimitedDetails,
}
# Codes a service error carries besides its kind's own (the rules name these on a RuleError).
RULE_CODES: dict[type[ServiceError], list[str]] = {RuleRefusal: ["reaction_pending", "dice_needed"]}
# Errors the HTTP layer answers itself (server/http/errors.py errors_middleware).
HTTP_CODES = {
    405: ["method_not_allowed"],
    413: ["too_large"],
    500: ["internal"],
    503: ["storage_unavailable"],
}


def _codes_of(kind: type[ServiceError]) -> list[str]:
    """A kind's own code, or its subclasses' when it has none (Conflict: seq_conflict, command_id_reused, closed)."""
    own = [kind.code] if "code" in vars(kind) else [sub.code for sub in kind.__subclasses__()]
    return [*own, *RULE_CODES.get(kind, [])]


# Which codes each error status carries, and the Struct of their details (None: a free object); a
# service error's status is the one STATUS_OF gives it.
ERROR_CODES: dict[int, list[tuple[str, type | None]]] = {
    status: [(code, DETAILS.get(code)) for code in codes]
    for status, codes in sorted({**{STATUS_OF[k]: _codes_of(k) for k in STATUS_OF}, **HTTP_CODES}.items())
}
ERROR_SENTENCES = {
    400: "Bad request: not JSON, a field missing, unknown or of the wrong type (details name the field).",
    401: "No token, or a token unknown here.",
    403: "The token's role may not do this.",
    404: "No such encounter, seat or ruleset.",
    405: "Wrong method on a known path.",
    409: "Conflict: seq_conflict, command_id_reused, resolution_pending, commitment_moved or closed.",
    413: "Body over --max-body.",
    422: "The rules refuse: rule_violation, reaction_pending or dice_needed.",
    429: "Over the rate for this token (per IP when anonymous); see Retry-After.",
    500: "A bug in the server.",
    503: "The store cannot write now (a full disk, a database gone): nothing was written; see Retry-After.",
}

READ, WRITE = "read", "write"

# What the server refuses that a bare msgspec schema allows (issue 12 item 6), said in the document.
ID = "^[A-Za-z0-9_.:-]{1,64}$"  # command ids, seat ids (rules.common.deciding.ID_PATTERN)
ENTROPY = "^[A-Za-z0-9_.:=+/-]{0,128}$"  # events.dice.ENTROPY_PATTERN
NO_NUL = "^[^\\u0000]*$"  # no text holds NUL (server/http/input_checks.py)
NAMED = "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$"  # a name: not empty, not only spaces, no NUL
PATH_MEANINGS = {
    "id": "The encounter's id.",
    "seat": "The seat's id.",
    "token_id": "The read token's id (from POST .../read-tokens), or the firehose token's (POST /firehose-tokens).",
    "wid": "The webhook's id.",
    "user": "The Discord user's id (a snowflake).",
    "path": "The file's path under /static.",
    "doc": "The guide's file name (docs/ in the Tussle sources).",
}
PATH_SCHEMAS = {
    "seat": {"type": "string", "pattern": ID},
    "id": {"type": "string", "pattern": NO_NUL},
    "token_id": {"type": "string", "pattern": NO_NUL},
    "user": {"type": "string", "pattern": NO_NUL},
    "path": {"type": "string", "pattern": NO_NUL},
    "doc": {"type": "string", "enum": [f"{name}.md" for name in SERVED_DOCS]},
}
# Fields of request bodies and what the server holds them to; `actor` is the server's to set, never sent.
FIELD_SCHEMAS: dict[str, dict[str, Any]] = {
    "command_id": {"anyOf": [{"type": "string", "pattern": ID}, {"type": "null"}], "default": None},
    "entropy": {"type": "string", "pattern": ENTROPY, "default": ""},
    "expected_seq": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}], "default": None},
    "expected_commitment": {
        "anyOf": [{"type": "string", "pattern": "^[0-9a-f]{64}$"}, {"type": "null"}],
        "default": None,
    },
    "seat": {"anyOf": [{"type": "string", "pattern": ID}, {"type": "null"}], "default": None},
}


class Endpoint(msgspec.Struct):
    """One operation of API.md's endpoint table."""

    method: str
    path: str
    summary: str
    ok: dict[int, Any]  # status -> api_types Struct, a content map ("content"), or None (no body)
    errors: tuple[int, ...] = ()
    body: Any = None  # a Struct, or "commands" for the union of every installed ruleset's commands
    query: tuple[tuple[str, Any, str], ...] = ()  # (name, json type or schema, description)
    body_required: bool = True
    auth: str = "none"  # none | optional | token | admin
    rate: str | None = READ


def _enc(suffix: str = "") -> str:
    return "/encounters/{id}" + suffix


ENDPOINTS: list[Endpoint] = [
    Endpoint("get", "/healthz", "Liveness.", {200: t.Health}, rate=None),
    Endpoint(
        "get",
        "/metrics",
        "Prometheus text metrics.",
        {200: {"text/plain": {"schema": {"type": "string"}}}},
        rate=None,
    ),
    Endpoint(
        "get", "/openapi.json", "This document.", {200: {"application/json": {"schema": {"type": "object"}}}}
    ),
    Endpoint(
        "get",
        "/asyncapi.json",
        "The websocket contract as AsyncAPI 3.",
        {200: {"application/json": {"schema": {"type": "object"}}}},
    ),
    Endpoint(
        "get",
        "/",
        "The landing page (HTML): create an encounter, the public ones.",
        {200: {"text/html": {"schema": {"type": "string"}}}},
        rate=None,
    ),
    Endpoint(
        "get",
        _enc("/view"),
        "The encounter page (HTML) for GM, players and observers; the token goes in "
        "the URL fragment (#token=...), never in the query.",
        {200: {"text/html": {"schema": {"type": "string"}}}},
        rate=None,
    ),
    Endpoint(
        "get",
        "/docs/{doc}",
        "A guide as Markdown, linked from the pages: notifications.md (notices and webhooks, linked from "
        "the GM page's webhooks), discord.md, websocket.md, verifying.md; no other name.",
        {200: {"text/markdown": {"schema": {"type": "string"}}}},
        errors=(404,),
        rate=None,
    ),
    Endpoint(
        "get",
        "/verifying",
        "docs/verifying.md as Markdown: every rule a verifier needs (every export links here, in its "
        "trailer's `verifying` and in the last forum post).",
        {200: {"text/markdown": {"schema": {"type": "string"}}}},
        errors=(404,),
        rate=None,
    ),
    Endpoint(
        "get",
        "/static/{path}",
        "The pages' scripts and styles (strict Content-Security-Policy).",
        {200: {"text/javascript": {"schema": {"type": "string"}}}},
        errors=(404,),
        rate=None,
    ),
    Endpoint(
        "get",
        "/keys",
        "The public Ed25519 keys that sign receipts, current and retired, so old receipts keep verifying after "
        'a rotation (docs/verifying.md "Signed receipts"; every export\'s trailer lists them too).',
        {200: t.ReceiptKeys},
    ),
    Endpoint(
        "post",
        "/discord/interactions",
        "Discord's interactions endpoint (docs/discord.md; only with tussle serve --discord-public-key): each "
        "request signed by Discord (X-Signature-Ed25519 over X-Signature-Timestamp + body), else 401; the body "
        "is a Discord interaction, the answer an interaction response (PONG, a message, or a deferral).",
        {
            200: {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "description": "A Discord interaction response: {type, data?}.",
                        "properties": {
                            "type": {
                                "type": "integer",
                                "description": "1 PONG, 4 message, 5/6 deferred, 7 update.",
                            },
                            "data": {
                                "type": "object",
                                "description": "The message (content, components, flags).",
                            },
                        },
                        "required": ["type"],
                    }
                }
            }
        },
        (400, 401, 404, 413),
        rate=None,
    ),
    Endpoint(
        "get",
        "/rulesets",
        "Installed rulesets: options, geometry, command types and fields (one in full: /rulesets/{id}).",
        {200: t.RulesetList},
    ),
    Endpoint(
        "get",
        "/rulesets/{id}",
        "One ruleset for its players: options with defaults and descriptions, "
        "combatant stats, phases, commands with fields and docs, GM-only commands, reactions and their "
        "choices, events and what they mean, a worked first turn.",
        {200: t.RulesetDetail},
        (404,),
    ),
    Endpoint(
        "get",
        "/rulesets/{id}/openapi.json",
        "This document for one ruleset's encounters: its commands, stats, options and events alone, "
        "no union (the document a bot of that ruleset generates its client from).",
        {200: {"application/json": {"schema": {"type": "object"}}}},
        (404,),
    ),
    Endpoint(
        "get",
        "/rulesets/{id}/guide",
        "The same as a readable HTML page (docs/playing/<ruleset>.md too).",
        {200: {"text/html": {"schema": {"type": "string"}}}},
        (404,),
    ),
    Endpoint(
        "post",
        "/encounters",
        "Create an encounter (only the admin, when the server has an admin token).",
        {201: t.EncounterCreatedResponse, 200: t.EncounterCreatedResponse},
        (400, 401, 403, 409, 413),
        body=t.CreateEncounter,
        auth="optional",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        "/firehose-tokens",
        "Make a firehose token (admin): a server-level reader of every public encounter and of the private "
        "ones whose GM grants it, over the websocket GET /firehose (AsyncAPI).",
        {201: t.FirehoseTokenResponse},
        (401, 403),
        auth="admin",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        "/firehose-tokens",
        "The live firehose tokens and the encounters that granted each (admin).",
        {200: t.FirehoseTokens},
        (401, 403),
        auth="admin",
    ),
    Endpoint(
        "delete",
        "/firehose-tokens/{token_id}",
        "Revoke a firehose token (admin): its connections end (4401) and its grants stop working.",
        {204: None},
        (401, 403, 404),
        auth="admin",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        "/encounters",
        "List encounters: all for the admin, else the public ones.",
        {200: t.EncounterList},
        auth="optional",
    ),
    Endpoint(
        "delete",
        _enc(),
        "Remove an encounter and its seeds (admin).",
        {204: None},
        (401, 403, 404),
        auth="admin",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        _enc(),
        "An encounter: ruleset, options, geometry, head, commitments, closed.",
        {200: t.EncounterDetail},
        (401, 403, 404),
        auth="optional",
    ),
    Endpoint(
        "post",
        _enc("/seats"),
        "Make a seat and its token (GM).",
        {201: t.SeatCreatedResponse, 200: t.SeatCreatedResponse},
        (400, 401, 403, 404, 409, 413, 422),
        body=t.CreateSeat,
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "patch",
        _enc("/seats/{seat}"),
        "Change a seat (GM): SeatChanged.",
        {200: t.SeatChangedResponse},
        (400, 401, 403, 404, 409, 413, 422),
        body=t.ChangeSeat,
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "delete",
        _enc("/seats/{seat}"),
        "Revoke a seat (GM): its token stops working.",
        {204: None},
        (401, 403, 404, 409),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/seats/{seat}/token"),
        "Rotate a seat's token (GM).",
        {201: t.SeatTokenResponse},
        (401, 403, 404, 409),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/read-tokens"),
        "Make an observer token (GM).",
        {201: t.ReadTokenResponse},
        (401, 403, 404, 409),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "delete",
        _enc("/read-tokens/{token_id}"),
        "Revoke an observer token (GM).",
        {204: None},
        (401, 403, 404, 409),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/firehose-grants"),
        "Let a firehose token read this private encounter (GM): FirehoseGranted; the admin's token grants "
        'nothing (docs/websocket.md "The firehose").',
        {201: t.FirehoseGrantResponse, 200: t.FirehoseGrantResponse},
        (400, 401, 403, 404, 409, 413),
        body=t.CreateFirehoseGrant,
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "delete",
        _enc("/firehose-grants/{token_id}"),
        "Take a firehose token's grant back (GM): FirehoseRevoked, its last frame of this encounter.",
        {204: None},
        (401, 403, 404, 409),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/gm-token"),
        "Rotate the GM token (GM).",
        {201: t.GmTokenResponse},
        (401, 403, 404, 409),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        _enc("/me"),
        "Role, seat, combatants controlled, reactions asked of me (with "
        "deadlines), legal actions; what is asked of this token now: your_turn, acting_now, next_slot.",
        {200: t.Me},
        (401, 404),
        auth="token",
    ),
    Endpoint(
        "post",
        _enc("/commands"),
        "Send a command (GM, player): 201 with the chain head and its events; "
        "a resent command_id with the same body gives 200 and the original.",
        {201: t.CommandAppended, 200: t.CommandAppended},
        (400, 401, 403, 404, 409, 413, 422),
        body="commands",
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        _enc("/events"),
        "Envelopes with seq >= from; NDJSON with a trailer for Accept: application/x-ndjson.",
        {
            200: {
                "application/json": {"schema": {"$ref": REF.format(name="EventsPage")}},
                "application/x-ndjson": {"schema": {"type": "string"}},
            }
        },
        (400, 401, 403, 404),
        query=(
            ("from", {"type": "integer", "minimum": 1}, "first seq (1..head+1, default 1)"),
            ("limit", {"type": "integer", "minimum": 1, "maximum": 10_000}, "1-10,000 (default 1,000)"),
        ),
        auth="optional",
    ),
    Endpoint(
        "get",
        _enc("/state"),
        "The state projection as of seq = at (default: head), with legal_actions "
        "and acting_now (who may or must act now, why, and until when).",
        {200: t.EncounterState},
        (400, 401, 403, 404),
        query=(("at", {"type": "integer", "minimum": 1}, "1..head"),),
        auth="optional",
    ),
    # Text first: a generated client reads the body as the first content type it knows (JSON parses from it).
    Endpoint(
        "get",
        _enc("/log"),
        "The narrative log (json, markdown or bbcode), paged like /events: the "
        "entries of seqs from..from+limit-1 and next_from (a forum export's next page is its Link header); "
        "a turn excerpt reads only its turn.",
        {
            200: {
                "text/markdown": {"schema": {"type": "string", "description": "format=markdown"}},
                "text/plain": {"schema": {"type": "string", "description": "format=bbcode: BBCode"}},
                "application/json": {
                    "schema": {
                        "description": "format=json: the entries (LogPage); format=markdown or bbcode with "
                        "Accept: application/json: the forum posts (ForumPosts).",
                        "oneOf": [
                            {"$ref": REF.format(name="LogPage")},
                            {"$ref": REF.format(name="ForumPosts")},
                        ],
                    }
                },
            }
        },
        (400, 401, 403, 404),
        query=(
            (
                "format",
                {"type": "string", "enum": ["json", "markdown", "bbcode"]},
                "json | markdown | bbcode",
            ),
            ("at", {"type": "integer", "minimum": 1}, "as of seq"),
            ("turn", {"type": "integer", "minimum": 0}, "one turn only"),
            (
                "max_chars",
                {"type": "integer", "minimum": 200, "maximum": 1_000_000},
                "split forum posts at entry boundaries",
            ),
            ("from", {"type": "integer", "minimum": 1}, "first seq (1..at+1, default 1)"),
            (
                "limit",
                {"type": "integer", "minimum": 1, "maximum": 10_000},
                "seqs per page, 1-10,000 (default 1,000); a turn excerpt is whole",
            ),
        ),
        auth="optional",
    ),
    Endpoint(
        "get",
        _enc("/audit"),
        "Every roll with its inputs, the commitments, revealed seeds and marks.",
        {200: t.AuditReport},
        (401, 403, 404),
        auth="optional",
    ),
    Endpoint(
        "get",
        _enc("/hidden-rolls"),
        "The GM's hidden rolls with their faces and totals (the GM, and the server's admin, who can "
        "read the sealed seed anyway; players and watchers get 403; everyone sees the faces once "
        "reveal_roll or close shows them).",
        {200: t.HiddenRollList},
        (401, 403, 404),
        auth="token",
    ),
    Endpoint(
        "get",
        _enc("/verify"),
        "Check the hash chain and every verifiable roll: only the events after the ones this server "
        "checked last time (`checked: incremental`), unless `?full=1` (docs/verifying.md).",
        {200: t.VerifyReport},
        (400, 401, 403, 404),
        query=(
            (
                "full",
                {"type": "string", "enum": ["0", "1"]},
                "1: check the whole stream again, not only what came since the last check (an edit of "
                "old rows behind the server's back on PostgreSQL shows only so)",
            ),
            ("head", {"type": "string", "pattern": "^[0-9]+:[0-9a-f]{64}$"}, "SEQ:HASH, a head you kept"),
            ("commitment", {"type": "string"}, "the first commitment, from the create answer"),
            (
                "replay",
                {"type": "string", "enum": ["0", "1"]},
                "1: also decide every declared command again (docs/verifying.md §8)",
            ),
        ),
        auth="optional",
    ),
    Endpoint(
        "post",
        _enc("/discord/codes"),
        "A one-time code for Discord (docs/discord.md): the GM's binds a channel (`/tussle bind`), a seat's links "
        "a Discord user to the seat (`/tussle link`), so the seat token never travels through Discord.",
        {201: t.DiscordCode},
        (400, 401, 403, 404, 413),
        body=t.DiscordCodeRequest,
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        _enc("/discord/links"),
        "The Discord users linked to the encounter's seats (GM).",
        {200: t.DiscordLinkList},
        (401, 403, 404),
        auth="token",
    ),
    Endpoint(
        "delete",
        _enc("/discord/links/{user}"),
        "End a Discord user's link (GM).",
        {204: None},
        (401, 403, 404),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/webhooks"),
        "Add a webhook (GM; a player for its own seat's notices); the secret is shown once.",
        {201: t.WebhookCreatedResponse, 200: t.WebhookCreatedResponse},
        (400, 401, 403, 404, 409, 413),
        body=t.CreateWebhook,
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        _enc("/webhooks"),
        "The encounter's webhooks (a player: its seat's) and their health.",
        {200: t.WebhookList},
        (401, 403, 404),
        auth="token",
    ),
    Endpoint(
        "delete",
        _enc("/webhooks/{wid}"),
        "Remove a webhook: WebhookDeleted. `?command_id=` names the request as yours (a resend answers 204 "
        "again, the same id for another request is a 409).",
        {204: None},
        (400, 401, 403, 404, 409),
        query=(("command_id", {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,64}$"}, "your id for it"),),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/webhooks/{wid}/secret"),
        "Rotate a webhook's signing secret (shown once; a resent command_id answers 200 with the secret its "
        "rotation set, to the one who rotated it).",
        {201: t.WebhookSecret, 200: t.WebhookSecret},
        (400, 401, 403, 404, 409),
        body=t.WebhookOperation,
        body_required=False,
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/webhooks/{wid}/redeliver"),
        "Retry a webhook's undelivered deliveries now, in order from the first (GM). A disabled webhook is "
        "re-enabled first, recorded in the stream (WebhookEnabled) as its disabling was; in a closed "
        "encounter that is a 409 closed (it takes no more events), while an active webhook's deliveries are "
        "still retried. A re-enabled webhook is also sent what it missed while disabled (every command "
        "since, and the re-enabling), in order, with no gap. The body's command_id names the re-enabling as yours.",
        {200: t.Redelivering},
        (400, 401, 403, 404, 409),
        body=t.WebhookOperation,
        body_required=False,
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "post",
        _enc("/webhooks/{wid}/test"),
        "Send a signed test message to a webhook (GM; a player for its own). Appends nothing to the stream; "
        "recorded in its deliveries (kind test), after what it already owes.",
        {202: t.TestDelivery},
        (401, 403, 404, 409),
        auth="token",
        rate=WRITE,
    ),
    Endpoint(
        "get",
        _enc("/webhooks/{wid}/deliveries"),
        "A webhook's latest deliveries: status, attempts, next try, last error.",
        {200: t.DeliveryList},
        (400, 401, 403, 404),
        query=(("limit", {"type": "integer", "minimum": 1, "maximum": 1000}, "1-1,000 (default 100)"),),
        auth="token",
    ),
    Endpoint(
        "get",
        _enc("/ws"),
        "Websocket (see /asyncapi.json); auth fails before the upgrade with the HTTP codes.",
        {101: None},
        (400, 401, 403, 404),
        auth="optional",
    ),
    Endpoint(
        "get",
        "/firehose",
        "The firehose websocket (see /asyncapi.json, channel firehose): the events of every encounter a "
        "firehose token reads; no token or an unknown one is a 401 before the upgrade, another kind a 403.",
        {101: None},
        (400, 401, 403),
        auth="token",
    ),
]


def _error_schema(code: str, details: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message", "details"],
                "description": "The error.",
                "properties": {
                    "code": {"const": code, "description": t.ERROR_CODE},
                    "message": {"type": "string", "description": t.ERROR_MESSAGE},
                    "details": {**(details or {"type": "object"}), "description": t.ERROR_DETAILS},
                },
            }
        },
    }


def _commands_by_ruleset(registry: Registry) -> tuple[dict[str, tuple[type, ...]], dict[str, str]]:
    """Each ruleset's command types (common ones included); rulesets whose types msgspec cannot
    describe are left out and named, so that one unfinished ruleset does not break the document."""
    good: dict[str, tuple[type, ...]] = {}
    bad: dict[str, str] = {}
    for rs in registry.rulesets.values():
        types = tuple(COMMON_COMMANDS) + tuple(rs.commands)
        try:
            msgspec.json.schema_components([Union[types], rs.Options], ref_template=REF)  # noqa: UP007
            good[rs.id] = types
        except Exception as exc:  # noqa: BLE001 - report, do not fail the whole document
            bad[rs.id] = f"{type(exc).__name__}: {exc}"
    return good, bad


def build_openapi(registry: Registry, ruleset: str | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document for this server's routes and installed rulesets; with `ruleset`, the same
    document for that ruleset's encounters alone (GET /rulesets/{id}/openapi.json): one builder, so the two
    cannot drift, in which each union over the rulesets is that ruleset's own type."""
    if ruleset is not None:
        one = registry.rulesets[ruleset]
        doc = build_openapi(Registry([one]))
        doc["info"]["title"] = f"Tussle: {one.title}"
        return doc
    by_ruleset, unschematised = _commands_by_ruleset(registry)
    all_commands = tuple(dict.fromkeys(c for types in by_ruleset.values() for c in types)) or tuple(
        COMMON_COMMANDS
    )
    # Every event type an installed ruleset's encounters carry: the common ones and each ruleset's own.
    events_of: dict[str, type] = {cls.__name__: cls for cls in COMMON_EVENTS}
    for rid in by_ruleset:
        events_of.update({cls.__name__: cls for cls in registry.rulesets[rid].events})
    structs = sorted(
        {v for e in ENDPOINTS for v in [*e.ok.values(), e.body] if isinstance(v, type)}
        | {
            t.EventsPage,
            t.LogPage,
            t.ForumPosts,
            t.Error,
            *DETAILS.values(),
            EngineOptions,
            NewCombatant,
            *events_of.values(),
        },
        key=lambda c: c.__name__,
    )
    rulesets = list(by_ruleset)
    options = [registry.rulesets[r].Options for r in rulesets]
    schemas, components = msgspec.json.schema_components(
        [Union[all_commands], *[Union[by_ruleset[r]] for r in rulesets], *options, *structs],  # noqa: UP007
        ref_template=REF,
    )
    command_union, rest = schemas[0], schemas[1:]
    ruleset_unions, rest = rest[: len(rulesets)], rest[len(rulesets) :]
    option_refs, struct_refs = rest[: len(options)], rest[len(options) :]
    ref_of = {cls: s["$ref"] for cls, s in zip(structs, struct_refs, strict=True)}

    # `respond` passes fields it does not name on to the ruleset as `params` (API.md "Reactions").
    respond_name = command_union["discriminator"]["mapping"][Respond.__struct_config__.tag].rsplit("/", 1)[1]
    components[respond_name].pop("additionalProperties", None)
    _respond_params(components[respond_name], registry)
    components["Command"] = {
        "description": "Any command of any installed ruleset, chosen by `type`; an "
        "encounter accepts the common ones and its ruleset's.",
        **command_union,
    }
    for rid, union in zip(rulesets, ruleset_unions, strict=True):
        components[f"Commands.{rid}"] = {
            "description": f"The commands an encounter of {rid} accepts.",
            **union,
        }
    _offer_fields(components, command_union)
    errors_by_status: dict[int, dict[str, Any]] = {}
    for status, codes in ERROR_CODES.items():
        variants = []
        for code, details in codes:
            name = f"Error.{code}"
            components[name] = _error_schema(code, {"$ref": ref_of[details]} if details else None)
            variants.append({"$ref": REF.format(name=name)})
        errors_by_status[status] = variants[0] if len(variants) == 1 else {"oneOf": variants}

    _as_strict_as_the_server(components, list(registry.rulesets))
    _positions(components, registry)
    _items(components, registry, ref_of[NewCombatant])
    _combatant_stats(components, registry, ref_of[NewCombatant])
    _rulesets_own_parts(components, registry)
    _ruling_overrides(components, registry)
    g.described(components)
    g.arrays_have_items(components)
    paths: dict[str, dict[str, Any]] = {}
    for e in ENDPOINTS:
        paths.setdefault(e.path, {})[e.method] = _operation(e, ref_of, errors_by_status)
    doc = {
        "openapi": "3.1.0",
        "info": {
            "title": "Tussle",
            "version": "0.1.0",
            "description": "An event-sourced combat-log server. Every error is "
            '{"error": {"code", "message", "details"}}.',
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "admin, GM, seat or read token"}
            },
        },
        "x-tussle-rulesets": {
            rid: {
                "title": registry.rulesets[rid].title,
                "version": registry.rulesets[rid].version,
                "commands": {"$ref": REF.format(name=f"Commands.{rid}")},
                "options": ref,
                "engine_options": {"$ref": ref_of[EngineOptions]},
            }
            for rid, ref in zip(rulesets, option_refs, strict=True)
        },
        "x-tussle-unschematised-rulesets": unschematised,
    }
    renames = g.ruleset_names(components, [registry.rulesets[r] for r in rulesets])
    doc = g.renamed(doc, renames)
    schemas = doc["components"]["schemas"]
    for old, new in renames.items():
        if "title" in schemas[old]:  # generators name a class by its schema's title
            schemas[old]["title"] = new
    doc["components"]["schemas"] = {renames.get(k, k): v for k, v in schemas.items()}
    common_types = [cls.__name__ for cls in COMMON_EVENTS]
    typed_events(
        doc["components"]["schemas"],
        {t: renames.get(n, n) for t, n in ((t, ref_of[c].rsplit("/", 1)[1]) for t, c in events_of.items())},
        {
            rid: (
                g.camel(rid),
                common_types + [c.__name__ for c in registry.rulesets[rid].events if c not in COMMON_EVENTS],
            )
            for rid in rulesets
        },
    )
    _encounter_options(doc["components"]["schemas"], doc["x-tussle-rulesets"])
    _events_as_their_answers(doc["components"]["schemas"])
    _event_object_fields(doc["components"]["schemas"], registry, rulesets)
    g.defaults_in_words(doc)
    return doc


# An event's field that holds what a request or an answer holds, typed as that one is.
EVENT_FIELDS_AS = (
    (("ReactionRequested", "resume"), ("PendingReaction", "resume")),
    (("ReactionRequested", "dice_key"), ("PendingReaction", "dice_key")),
    (("ReactionAnswered", "params"), ("Respond", "params")),
    (("RulingMade", "overrides"), ("Ruling", "overrides")),
    (("EncounterCreated", "options"), ("EncounterState", "options")),
    (("OptionsChanged", "options"), ("SetOptions", "options")),
    (("EncounterCreated", "geometry"), ("EncounterState", "geometry")),
    # CombatantJoined carries the combatant as its ruleset completed it: the state's Combatant's types.
    *(
        (("CombatantJoined", field), ("Combatant", field))
        for field in ("stats", "position", "facing", "items", "talents")
    ),
)


def _event_object_fields(schemas: dict[str, Any], registry: Registry, rulesets: list[str]) -> None:
    """The fields of events whose Struct says only "objects": the shapes the kernel and each ruleset's
    shapes.py give them (rules/json_shapes.py COMMON_EVENT_FIELDS, a ruleset's EVENT_FIELDS)."""
    named = list(COMMON_EVENT_FIELDS.items())
    for rid in rulesets:
        named += [
            (f"{g.camel(rid)}{etype}", fields)
            for etype, fields in registry.rulesets[rid].event_field_shapes.items()
        ]
    for name, fields in named:
        schemas[name]["properties"].update(fields)


def _events_as_their_answers(schemas: dict[str, Any]) -> None:
    """The event fields that hold a reaction's resume, an answer's params, a ruling's patch or options:
    the schema of the request or answer holding the same (the event keeps what was sent)."""
    for (event, field), (like, its) in EVENT_FIELDS_AS:
        prop = schemas[event]["properties"][field]
        schemas[event]["properties"][field] = {
            **{
                k: v
                for k, v in schemas[like]["properties"][its].items()
                if k not in ("default", "description")
            },
            "description": prop.get("description", ""),
        }
    # An offer's fields are its command's: a ruling's patch, set_options' options (or a reaction's answers).
    fields = schemas["Offer"]["properties"]["fields"]["properties"]
    fields["overrides"] = {**schemas["Ruling"]["properties"]["overrides"], **_said(fields["overrides"])}
    fields["options"]["anyOf"] = _typed_members(
        fields["options"]["anyOf"],
        {k: v for k, v in schemas["SetOptions"]["properties"]["options"].items() if k != "description"},
    )


def _typed_members(members: list[dict[str, Any]], typed: dict[str, Any]) -> list[dict[str, Any]]:
    """A union's members with its bare `{type: object}` member replaced by `typed`."""
    return [typed if member == {"type": "object"} else member for member in members]


def _said(prop: dict[str, Any]) -> dict[str, Any]:
    return {"description": prop["description"]} if "description" in prop else {}


# Where an answer holds the encounter's options, resolved: every one the ruleset and the engine have.
OPTIONS_IN = (
    ("EncounterState", "options"),
    ("EncounterDetail", "options"),
    ("EncounterCreatedResponse", "options"),
)


def _respond_params(respond: dict[str, Any], registry: Registry) -> None:
    """`respond.params`: what each reaction of the installed rulesets reads (GET /rulesets/{id}: reactions'
    params), none required."""
    props: dict[str, Any] = {}
    for rs in registry.rulesets.values():
        for kind, reaction in rs.reactions.items():
            for field, meaning in (reaction.get("params") or {}).items():
                said = f"{rs.id} {kind}: {meaning}"
                props[field] = {
                    "description": f"{props[field]['description']}; {said}" if field in props else said
                }
    params = respond["properties"]["params"]
    params["properties"] = dict(sorted(props.items()))
    params["additionalProperties"] = False


def _offer_fields(components: dict[str, Any], commands: dict[str, Any]) -> None:
    """An offer's `fields` are some of its command's: every field any command of the union has, none
    required (a field two commands type differently is either)."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    said: dict[str, str] = {}
    for ref in commands["discriminator"]["mapping"].values():
        for field, prop in components[ref.rsplit("/", 1)[1]].get("properties", {}).items():
            if field in ("type", "actor"):
                continue
            bare = {k: v for k, v in prop.items() if k not in ("description", "default")}
            if bare not in kinds.setdefault(field, []):
                kinds[field].append(bare)
            said.setdefault(field, prop.get("description") or g.FIELD_MEANINGS.get(field, ""))
    offer = components["Offer"]["properties"]["fields"]
    offer["properties"] = {
        field: {
            **(found[0] if len(found) == 1 else {"anyOf": found}),
            "description": said[field] or f"The offered command's {field}.",
        }
        for field, found in sorted(kinds.items())
    }
    offer["additionalProperties"] = False


def _encounter_options(schemas: dict[str, Any], rulesets: dict[str, Any]) -> None:
    """Each ruleset's options and the engine's as one object (`TftEncounterOptions`), the options an
    answer holds; in /openapi.json any one ruleset's, each closed so that none takes another's."""
    refs = []
    for rid, entry in rulesets.items():
        own = schemas[entry["options"]["$ref"].rsplit("/", 1)[1]]
        engine = schemas[entry["engine_options"]["$ref"].rsplit("/", 1)[1]]
        name = f"{g.camel(rid)}EncounterOptions"
        props = {**engine.get("properties", {}), **own.get("properties", {})}
        schemas[name] = {
            "title": name,
            "type": "object",
            "description": f"Every option of a {rid} encounter, its ruleset's and the engine's.",
            "properties": props,
            "additionalProperties": False,
        }
        refs.append({"$ref": REF.format(name=name)})
    for schema, field in OPTIONS_IN:
        prop = schemas[schema]["properties"][field]
        schemas[schema]["properties"][field] = {
            **({"anyOf": refs} if len(refs) > 1 else refs[0]),
            "description": prop.get("description", ""),
        }
    # Sent, the same options, any of them (the rest keep their values or defaults).
    sent = schemas["SetOptions"]["properties"]["options"]
    schemas["SetOptions"]["properties"]["options"] = {
        **({"anyOf": refs} if len(refs) > 1 else refs[0]),
        "description": sent.get("description")
        or "The options to change, by name: the ruleset's and the engine's.",
    }
    create = schemas["CreateEncounter"]["properties"]["options"]
    schemas["CreateEncounter"]["properties"]["options"] = {
        "anyOf": [*refs, {"type": "null"}],
        **{k: v for k, v in create.items() if k != "anyOf"},
    }


def _geometries(registry: Registry) -> set[tuple[str, str]]:
    return {(rs.geometry["kind"], rs.geometry["facing"]) for rs in registry.rulesets.values()}


# Where an answer holds a position (a combatant's, an item's, a group's, a push-back's ends).
POSITIONS_IN = (
    ("Combatant", "position"),
    ("Item", "at"),
    ("DroppedItem", "at"),
    ("Group", "at"),
    ("PushBackView", "from"),
    ("PushBackView", "to"),
)


def _positions(components: dict[str, Any], registry: Registry) -> None:
    """Positions and facings in the installed rulesets' geometry: two integers; a facing 0-5 on hexes,
    0-359 in degrees (DESIGN.md "Units")."""
    geometries = _geometries(registry)
    kinds = sorted({kind for kind, _ in geometries})
    words = {"hex_axial": "[q, r], axial hex coordinates", "plane": "[x, y], in hundredths of an inch"}
    components["Position"] = {
        "title": "Position",
        "type": "array",
        "description": "A position: " + "; or ".join(words[k] for k in kinds) + ".",
        "items": {"type": "integer"},
        "minItems": 2,
        "maxItems": 2,
    }
    facings = {facing for _, facing in geometries}
    components["Facing"] = {
        "title": "Facing",
        "type": "integer",
        "description": "A facing: "
        + "; or ".join(
            {"hex6": "a hex direction 0-5", "degrees": "degrees 0-359"}[f] for f in sorted(facings)
        )
        + ".",
        "minimum": 0,
        "maximum": 359 if "degrees" in facings else 5,
    }
    for name, field in POSITIONS_IN:
        prop = components[name]["properties"][field]
        components[name]["properties"][field] = {
            "anyOf": [{"$ref": REF.format(name="Position")}, {"type": "null"}],
            "description": prop.get("description", ""),
        }
    prop = components["Combatant"]["properties"]["facing"]
    components["Combatant"]["properties"]["facing"] = {
        "anyOf": [{"$ref": REF.format(name="Facing")}, {"type": "null"}],
        "description": prop.get("description", ""),
    }


def _ruling_overrides(components: dict[str, Any], registry: Registry) -> None:
    """`ruling.overrides`, a JSON merge patch of what a ruling may override (rules/pipeline.py): each
    combatant's COMBATANT_OVERRIDABLE fields, and the top keys of the rulesets' overridable paths."""
    combatant = components["Combatant"]["properties"]
    stats = {name: {"description": m} for rs in registry.rulesets.values() for name, m in rs.stats.items()}
    fields: dict[str, Any] = {}
    for field in sorted(COMBATANT_OVERRIDABLE):
        if field == "stats":
            shape: dict[str, Any] = {"type": "object", "properties": stats, "additionalProperties": False}
        else:
            shape = {k: v for k, v in combatant[field].items() if k != "description"}
        fields[field] = {
            "anyOf": [shape, {"type": "null"}],
            "description": f"The combatant's {field}, patched (null removes it).",
        }
    rules = sorted(
        {path.removeprefix("rules.") for rs in registry.rulesets.values() for path in rs.overridable}
    )
    prop = components["Ruling"]["properties"]["overrides"]
    prop["properties"] = {
        "combatants": {
            "type": "object",
            "description": "Per combatant id, a merge patch of what a ruling may change of it.",
            "additionalProperties": {"type": "object", "properties": fields, "additionalProperties": False},
        },
        "rules": {
            "type": "object",
            "description": "A merge patch of the ruleset's part of the state, at its overridable paths.",
            "properties": {key: {"description": f"rules.{key} (the ruleset's own)"} for key in rules},
            "additionalProperties": False,
        },
    }
    prop["additionalProperties"] = False


def _items(components: dict[str, Any], registry: Registry, combatant_ref: str) -> None:
    """An item's fields: the common ones and those the installed rulesets read (Ruleset.item_fields, typed
    by Ruleset.item_types where the ruleset's check holds a field to one); a new combatant's items the
    same (NewItem: only its id required) and its talents name to level."""
    props = components["Item"]["properties"]
    for rs in registry.rulesets.values():
        for field, meaning in rs.item_fields.items():
            props.setdefault(field, {**rs.item_types.get(field, {}), "description": f"{rs.id}: {meaning}"})
    components["NewItem"] = {
        "title": "NewItem",
        "type": "object",
        "description": "An item a new combatant carries: its id, and the fields its ruleset reads (GET "
        "/rulesets/{id}: item_fields); the ruleset fills in the rest.",
        "properties": {
            field: {k: v for k, v in prop.items() if k != "default"} for field, prop in props.items()
        },
        "required": ["id"],
    }
    new = components[combatant_ref.rsplit("/", 1)[1]]["properties"]
    new["items"] = {
        "type": "array",
        "items": {"$ref": REF.format(name="NewItem")},
        "description": new["items"].get("description", ""),
    }
    new["talents"] = {
        "type": "object",
        "additionalProperties": {"type": "integer"},
        "description": new["talents"].get("description", ""),
    }


def _combatant_stats(components: dict[str, Any], registry: Registry, combatant_ref: str) -> None:
    """`add_combatant.combatant` field by field; its `stats` any one ruleset's (`anyOf`: an encounter's
    ruleset is not in the command, and one body may fit the stats of two rulesets)."""
    # The members that require most first, so that a client trying them in turn (openapi-python-client
    # does) takes no ruleset's stats for another's; one without required stats (freeform's) comes last.
    rulesets = sorted(registry.rulesets.values(), key=lambda rs: -len(rs.required_stats))
    stats = []
    for rs in rulesets:
        name = f"{g.camel(rs.id)}Stats"
        components[name] = g.stats_schema(rs)
        stats.append({"$ref": REF.format(name=name)})
    served = []
    for rs in sorted(registry.rulesets.values(), key=lambda rs: -len(rs.completed_stats)):
        name = f"{g.camel(rs.id)}CombatantStats"
        components[name] = g.stats_schema(rs, completed=True)
        served.append({"$ref": REF.format(name=name)})
    combatant = components[combatant_ref.rsplit("/", 1)[1]]
    combatant["description"] = "A combatant to add; its ruleset checks and completes its stats."
    # One ruleset (GET /rulesets/{id}/openapi.json): its stats, no union.
    combatant["properties"]["stats"] = {
        **({"anyOf": stats} if len(stats) > 1 else stats[0]),
        "description": g.FIELD_MEANINGS["stats"],
    }  # default {}
    components["Combatant"]["properties"]["stats"] = {
        **({"anyOf": served} if len(served) > 1 else served[0]),
        "description": "Its stats, as its ruleset completed them at add_combatant.",
    }
    add = components["AddCombatant"]["properties"]
    add["combatant"] = {"$ref": combatant_ref, "description": "The combatant to add."}
    many = components["AddCombatants"]["properties"]["combatants"]
    many["items"] = {"$ref": combatant_ref}
    # An offer's fields are its command's: add_combatant's combatant, add_combatants' list of them.
    offered = components["Offer"]["properties"]["fields"]["properties"]
    offered["combatant"]["anyOf"] = _typed_members(offered["combatant"]["anyOf"], {"$ref": combatant_ref})
    offered["combatants"]["items"] = {"$ref": combatant_ref}


def _rulesets_own_parts(components: dict[str, Any], registry: Registry) -> None:
    """The state's `rules` and a pending reaction's `resume`, each ruleset's own (its shapes.py): one
    ruleset's exactly, any one's in /openapi.json; a ruleset that declares none adds an open object."""
    rulesets = sorted(registry.rulesets.values(), key=lambda rs: rs.id)
    rules: list[dict[str, Any]] = []
    resumes: list[dict[str, Any]] = [{"$ref": REF.format(name="EngineResume")}]
    components["EngineResume"] = ENGINE_RESUME
    for rs in rulesets:
        for part, shape, members in (
            ("RulesState", rs.rules_shape, rules),
            ("Resume", rs.resume_shape, resumes),
        ):
            name = f"{g.camel(rs.id)}{part}"
            components[name] = shape or {"type": "object", "description": f"{rs.id}'s own: not declared."}
            if "anyOf" in components[name]:  # each variant its own component: generators name them
                variants = components[name]["anyOf"]
                for i, variant in enumerate(variants):
                    components[f"{name}{i + 1}"] = variant
                components[name] = {
                    "anyOf": [{"$ref": REF.format(name=f"{name}{i + 1}")} for i in range(len(variants))]
                }
            members.append({"$ref": REF.format(name=name)})
    components["EncounterState"]["properties"]["rules"] = {
        **({"anyOf": rules} if len(rules) > 1 else rules[0]),
        "description": "The ruleset's own part of the state (rules/<ruleset>/shapes.py).",
    }
    for reaction in ("PendingReaction", "AskedReaction"):
        components[reaction]["properties"]["resume"] = {
            "anyOf": resumes,
            "description": "What the ruleset needs to resume once it is answered (the engine's, for `ask`).",
        }


def _as_strict_as_the_server(components: dict[str, Any], rulesets: list[str]) -> None:
    """Tighten the generated schemas to what the server checks: id and entropy patterns, no NUL in any
    text, non-empty names, the installed rulesets, no `actor` in a request."""
    for name, schema in components.items():
        props = schema.get("properties")
        if not isinstance(props, dict):
            continue
        tag = props.get("type")
        if (
            "actor" in props and isinstance(tag, dict) and "enum" in tag
        ):  # a command: the server sets its actor
            props.pop("actor")
            if "required" in schema:
                schema["required"] = [r for r in schema["required"] if r != "actor"]
        for field, strict in FIELD_SCHEMAS.items():
            if field in props and ("type" in props or name.startswith(("Create", "Change"))):
                props[field] = _keeping_description(props[field], strict)
    create = components.get("CreateEncounter", {}).get("properties", {})
    if create:
        create["name"] = _keeping_description(
            create["name"], {"type": "string", "maxLength": 200, "pattern": NAMED}
        )
        create["ruleset"] = _keeping_description(create["ruleset"], {"enum": rulesets})
    for seat in ("CreateSeat", "ChangeSeat"):
        props = components.get(seat, {}).get("properties", {})
        if "name" in props:
            props["name"] = _keeping_description(
                props["name"],
                {"type": "string", "pattern": NAMED}
                if seat == "CreateSeat"
                else {"anyOf": [{"type": "string", "pattern": NAMED}, {"type": "null"}], "default": None},
            )
    _no_nul(components)


def _keeping_description(old: dict[str, Any], strict: dict[str, Any]) -> dict[str, Any]:
    """`strict` in place of a generated field schema, which keeps its description."""
    return {**strict, **({"description": old["description"]} if "description" in old else {})}


def _no_nul(value: Any) -> None:
    """Every free string schema says it holds no NUL."""
    if isinstance(value, dict):
        if value.get("type") == "string" and not ({"pattern", "enum", "const", "format"} & value.keys()):
            value["pattern"] = NO_NUL
        for v in value.values():
            _no_nul(v)
    elif isinstance(value, list):
        for v in value:
            _no_nul(v)


def _content(value: Any, ref_of: dict[type, str]) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, type):
        return {"application/json": {"schema": {"$ref": ref_of[value]}}}
    return value


def _operation(
    e: Endpoint, ref_of: dict[type, str], errors_by_status: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    responses: dict[str, Any] = {}
    for status, value in e.ok.items():
        content = _content(value, ref_of)
        responses[str(status)] = {
            "description": "OK" if status < 300 else "Switching protocols",
            **({"content": content} if content else {}),
        }
    statuses = list(e.errors)
    if e.rate:
        statuses.append(429)
    for status in statuses:
        r: dict[str, Any] = {
            "description": ERROR_SENTENCES[status],
            "content": {"application/json": {"schema": errors_by_status[status]}},
        }
        if status == 429:
            r["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}}
        responses[str(status)] = r
    responses["default"] = {
        "description": "Any other error (405, 413, 500 ...), in the one error shape.",
        "content": {"application/json": {"schema": {"$ref": ref_of[t.Error]}}},
    }
    op: dict[str, Any] = {"summary": e.summary, "operationId": _operation_id(e), "responses": responses}
    params = [
        {
            "name": n,
            "in": "path",
            "required": True,
            "schema": PATH_SCHEMAS.get(n, {"type": "string"}),
            "description": "The ruleset's id."
            if n == "id" and e.path.startswith("/rulesets")
            else PATH_MEANINGS[n],
        }
        for n in ("id", "seat", "token_id", "wid", "user", "path", "doc")
        if "{" + n + "}" in e.path
    ]
    params += [
        {
            "name": n,
            "in": "query",
            "required": False,
            "schema": typ if isinstance(typ, dict) else {"type": typ},
            "description": d,
        }
        for n, typ, d in e.query
    ]
    if params:
        op["parameters"] = params
    if e.body is not None:
        schema = {"$ref": REF.format(name="Command")} if e.body == "commands" else {"$ref": ref_of[e.body]}
        op["requestBody"] = {"required": e.body_required, "content": {"application/json": {"schema": schema}}}
    if e.auth in ("token", "admin"):
        op["security"] = [{"bearer": []}]
    elif e.auth == "optional":
        op["security"] = [{"bearer": []}, {}]
    return op


def _operation_id(e: Endpoint) -> str:
    words = [w.strip("{}") for w in e.path.strip("/").replace("-", "_").replace(".", "_").split("/")]
    return e.method + "_" + "_".join(words)
