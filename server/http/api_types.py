"""The HTTP contract's bodies as msgspec Structs, for /openapi.json (API.md "Endpoints").

The handlers build plain dicts; these types describe them so that the published schema comes from
code that a test checks against real responses. Responses may carry more fields than named here
(API.md: "add fields freely"), so none of these forbids unknown fields; request bodies that the
server rejects unknown fields of say so.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from events.envelope import Event

# ---- shared pieces ----------------------------------------------------------------------------


class Geometry(msgspec.Struct):
    """How positions and facing are measured (DESIGN.md "Units")."""

    kind: Literal["hex_axial", "plane"]
    unit: str
    facing: Literal["hex6", "degrees"]
    position_required: bool


class Head(msgspec.Struct):
    """The chain head: the last seq and its hash."""

    seq: int
    hash: str


# The store's own Event, under the name the API gives it: one list of envelope fields, not two.
class Envelope(Event):
    """One stored event (DESIGN.md "The event envelope")."""


class Health(msgspec.Struct):
    ok: bool


# ---- encounters -------------------------------------------------------------------------------


class CreateEncounter(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /encounters`: a resent `command_id` returns the same encounter (200)."""

    name: str
    ruleset: str
    options: dict[str, Any] | None = None
    public: bool = False
    dice: Literal["server", "manual", "mixed"] = "server"
    command_id: str | None = None


class EncounterCreatedResponse(msgspec.Struct):
    id: str
    gm_token: str | None  # null on a resend (the same command_id and body): a resend never hands out a token
    commitment: str | None
    ruleset: str
    options: dict[str, Any]
    geometry: Geometry
    name: str
    dice: Literal["server", "manual", "mixed"]
    public: bool


class EncounterSummary(msgspec.Struct):
    id: str
    name: str
    ruleset: str
    seq: int
    closed: bool
    public: bool


class EncounterList(msgspec.Struct):
    encounters: list[EncounterSummary]


class EncounterDetail(msgspec.Struct):
    """`GET /encounters/{id}`."""

    id: str
    name: str
    ruleset: str
    ruleset_version: str
    options: dict[str, Any]
    geometry: Geometry
    dice: Literal["server", "manual", "mixed"]
    public: bool
    seq: int
    hash: str
    head: Head
    commitment: str | None
    commitments: list[str]
    revealed_seeds: dict[str, str]
    closed: bool


# ---- rulesets ---------------------------------------------------------------------------------


class FieldDescription(msgspec.Struct):
    name: str
    type: str
    required: bool
    default: Any
    description: str = ""


class CommandDescription(msgspec.Struct):
    type: str
    fields: list[FieldDescription]
    doc: str


class RulesetDescription(msgspec.Struct):
    id: str
    title: str
    version: str
    geometry: Geometry
    options: list[FieldDescription]
    commands: list[CommandDescription]
    common_commands: list[CommandDescription]


class RulesetList(msgspec.Struct):
    rulesets: list[RulesetDescription]


class OptionDetail(msgspec.Struct):
    name: str
    type: str
    required: bool
    default: Any
    description: str
    off_by_default: bool = False


class CommandDetail(msgspec.Struct):
    type: str
    doc: str
    gm_only: bool
    fields: list[OptionDetail]


class StatDetail(msgspec.Struct):
    name: str
    description: str


class ReactionDetail(msgspec.Struct):
    kind: str
    asked: str
    choices: dict[str, str]


class EventDetail(msgspec.Struct):
    type: str
    doc: str
    fields: list[str]


class GuideStep(msgspec.Struct):
    note: str
    method: Literal["GET", "POST"]
    path: str
    who: Literal["anyone", "gm", "player"]
    body: dict[str, Any] | None
    keeps: Literal["encounter", "seat"] | None


class RulesetDetail(msgspec.Struct):
    """GET /rulesets/{id}: everything its guide says, as data (server/guide.py)."""

    id: str
    title: str
    version: str
    about: str
    geometry: Geometry
    options: list[OptionDetail]
    engine_options: list[OptionDetail]
    stats: list[StatDetail]
    phases: list[str]
    commands: list[CommandDetail]
    common_commands: list[CommandDetail]
    gm_commands: list[str]
    players_may_move: bool
    reactions: list[ReactionDetail]
    events: list[EventDetail]
    common_events: list[EventDetail]
    acting: dict[str, str]
    first_turn: list[GuideStep]


# ---- seats and tokens -------------------------------------------------------------------------


class CreateSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    combatants: list[str] = []
    seat: str | None = None
    command_id: str | None = None


class ChangeSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None
    combatants: list[str] | None = None
    command_id: str | None = None


# ---- webhooks (server/webhooks/) ----------------------------------------------------------------


class CreateWebhook(msgspec.Struct, forbid_unknown_fields=True):
    """A player's webhook: `deliver` ["notices"] and its own seat only."""

    url: str
    deliver: list[Literal["events", "log", "notices"]] = msgspec.field(default_factory=lambda: ["notices"])
    format: Literal["json", "discord"] = "json"
    seat: str | None = None
    command_id: str | None = None


class WebhookView(msgspec.Struct):
    """A webhook as the GM (or its seat) sees it: the host only, never the URL or the secret."""

    id: str
    seat: str | None
    deliver: list[Literal["events", "log", "notices"]]
    format: Literal["json", "discord"]
    host: str | None
    status: Literal["active", "disabled", "revoked"]
    created_at: str | None
    failing_since: str | None
    next_try: str | None
    last_error: str | None


class WebhookCreatedResponse(WebhookView):
    """`secret` (Standard Webhooks, `whsec_…`) is shown here once; null for a resent `command_id`."""

    secret: str | None


class WebhookList(msgspec.Struct):
    webhooks: list[WebhookView]


class WebhookSecret(msgspec.Struct):
    id: str
    secret: str


class DeliveryView(msgspec.Struct):
    id: str
    seq: int
    part: int
    kind: Literal["event", "log", "notice"]
    status: Literal["pending", "delivered", "cancelled"]
    attempts: int
    created_at: str | None
    next_try: str | None
    last_status: int | None
    last_error: str | None
    delivered_at: str | None


class DeliveryList(msgspec.Struct):
    webhook: WebhookView
    deliveries: list[DeliveryView]


class SeatCreatedResponse(msgspec.Struct):
    """`token` is null when a resent `command_id` finds the seat already made."""

    seat: str
    token: str | None


class SeatChangedResponse(msgspec.Struct):
    seat: str
    seq: int
    hash: str
    events: list[Envelope]


class SeatTokenResponse(msgspec.Struct):
    seat: str
    token: str


class ReadTokenResponse(msgspec.Struct):
    token_id: str
    token: str


class GmTokenResponse(msgspec.Struct):
    gm_token: str


class Until(msgspec.Struct):
    """When an `acting_now` slot ends: `kind` (what ends it) and a phrase for people; a reaction's
    `deadline` (UTC, envelope `ts` format) when `reaction_timeout_s` is set, else null."""

    kind: Literal["reaction", "action", "phase", "turn", "round", "card"]
    text: str
    deadline: str | None = None


class ActingNow(msgspec.Struct):
    """Who may or must act now (the ruleset's `acting_now`): `combatant` null is the GM's own step;
    `asked_of` the seat (or "gm") that sends the command; `reaction` the pending reaction's id, if any."""

    combatant: str | None
    asked_of: str
    why: str
    until: Until | None
    reaction: str | None


class Me(msgspec.Struct):
    """`GET /encounters/{id}/me`: who this token is here, what it may do, and what is asked of it now.
    `reactions` carry their `deadline`; `next_slot` says, for each of its combatants not acting now,
    when it will be (null: it acts now, or the ruleset cannot say)."""

    role: Literal["admin", "gm", "player", "observer"]
    seat: str | None
    combatants: list[str]
    reactions: list[dict[str, Any]]
    legal_actions: dict[str, list[str]]
    your_turn: bool
    acting_now: list[ActingNow]
    next_slot: dict[str, str | None]


# ---- commands and reading ---------------------------------------------------------------------


class CommandAppended(msgspec.Struct):
    """`POST /encounters/{id}/commands`: seq and hash of the command's last event, and its events."""

    seq: int
    hash: str
    command_id: str
    events: list[Envelope]


class EventsPage(msgspec.Struct):
    events: list[Envelope]
    next_from: int
    head: Head


class Combatant(msgspec.Struct):
    id: str
    name: str
    side: str
    position: Any
    wounds: int
    conditions: list[str]


class EncounterState(msgspec.Struct):
    """The state projection (DESIGN.md "Projections"); `rules` is the ruleset's own part."""

    stream: str
    name: str
    ruleset: str
    seq: int
    hash: str
    closed: bool
    turn: int
    phase: str | None
    initiative: list[str]
    combatants: dict[str, Combatant]
    groups: dict[str, Any]
    pins: list[dict[str, Any]]
    pending: list[dict[str, Any]]
    seats: dict[str, Any]
    inconsistencies: list[dict[str, Any]]
    voided: list[int]
    rules: dict[str, Any]
    legal_actions: dict[str, list[str]]
    acting_now: list[ActingNow]


class VerifyReport(msgspec.Struct):
    """`GET /encounters/{id}/verify`."""

    ok: bool
    chain_ok: bool
    first_bad_seq: int | None
    rolls_checked: int
    rolls_verified: int
    rolls_unverifiable: int
    problems: list[Any]


# ---- errors -----------------------------------------------------------------------------------

ErrorCode = Literal[
    "bad_request", "unauthenticated", "forbidden", "not_found", "method_not_allowed", "seq_conflict",
    "command_id_reused", "closed", "too_large", "rule_violation", "reaction_pending", "dice_needed",
    "rate_limited", "internal", "storage_unavailable",
]


class ErrorDetail(msgspec.Struct):
    code: ErrorCode
    message: str
    details: dict[str, Any]


class Error(msgspec.Struct):
    """Every error: `{"error": {"code", "message", "details"}}` (API.md "Errors")."""

    error: ErrorDetail


class SeqConflictDetails(msgspec.Struct):
    expected: int
    actual: int


class CommandIdReusedDetails(msgspec.Struct):
    command_id: str | None


class ReactionPendingDetails(msgspec.Struct):
    pending: list[dict[str, Any]]


class DiceNeededDetails(msgspec.Struct):
    needed: list[str]
    more_may_follow: bool


class MethodNotAllowedDetails(msgspec.Struct):
    allowed: list[str]


class RateLimitedDetails(msgspec.Struct):
    retry_after: int
