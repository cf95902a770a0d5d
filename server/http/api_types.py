"""The HTTP contract's bodies as msgspec Structs, for /openapi.json (API.md "Endpoints").

The handlers build plain dicts; these types describe them so that the published schema comes from
code that a test checks against real responses. Responses may carry more fields than named here
(API.md: "add fields freely"), so none of these forbids unknown fields; request bodies that the
server rejects unknown fields of say so.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

import msgspec

from events.envelope import Event


def about(text: str) -> msgspec.Meta:
    """A field's description in /openapi.json (server/http/openapi.py)."""
    return msgspec.Meta(description=text)


DiceMode = Annotated[
    Literal["server", "manual", "mixed"],
    about(
        "Where dice come from: server (committed server dice), manual (the table's physical dice, faces typed in "
        "each command's `dice`), or mixed (server dice unless a command supplies faces)."
    ),
]
EncounterId = Annotated[str, about("The encounter's id.")]
EncounterName = Annotated[str, about("The encounter's name, as the log and the page show it.")]
RulesetId = Annotated[str, about("The ruleset's id (GET /rulesets).")]
Closed = Annotated[bool, about("Closed encounters can be read but not changed.")]
Public = Annotated[bool, about("Listed on GET /encounters for anyone, and readable without a token.")]
SeatId = Annotated[str, about("The seat's id.")]
WebhookId = Annotated[str, about("The webhook's id.")]
Timestamp = Annotated[str | None, about("UTC time, e.g. 2026-01-31T18:00:00.000000Z; null: none.")]

# ---- shared pieces ----------------------------------------------------------------------------


class Geometry(msgspec.Struct):
    """How positions and facing are measured (DESIGN.md "Units")."""

    kind: Annotated[
        Literal["hex_axial", "plane"],
        about("hex_axial: positions are axial hex coordinates [q, r]; plane: [x, y] on a table top."),
    ]
    unit: Annotated[str, about("What one step of a position is: hex, or 0.01 inch on a plane.")]
    facing: Annotated[
        Literal["hex6", "degrees"], about("hex6: facing is a hex direction 0-5; degrees: 0-359.")
    ]
    position_required: Annotated[bool, about("Whether every combatant must have a position.")]


GeometryOf = Annotated[Geometry, about("How positions and facings are written in this encounter (ruleset).")]


class Head(msgspec.Struct):
    """The chain head: the last seq and its hash."""

    seq: Annotated[int, about("The seq of the encounter's last event.")]
    hash: Annotated[str, about("That event's chain hash (SHA-256, hex).")]


class SignedReceipt(msgspec.Struct):
    """The answer's chain head signed by the server (docs/verifying.md "Signed receipts")."""

    encounter: Annotated[str, about("The encounter's id.")]
    seq: Annotated[int, about("The head's seq.")]
    hash: Annotated[str, about("The head's chain hash (SHA-256, hex).")]
    time: Annotated[str, about("The head event's ts (UTC), which the signature covers.")]
    key_id: Annotated[str, about("The signing key's id (GET /keys).")]
    signature: Annotated[
        str,
        about(
            "Ed25519 over b'tussle receipt v1\\n' + canonical JSON of {encounter, hash, seq, time}, "
            "base64url without padding; check it with tussle verify --receipts."
        ),
    ]


Receipt = Annotated[SignedReceipt, about("The head, signed: keep it to prove what the server said.")]


class ReceiptKey(msgspec.Struct):
    key_id: Annotated[str, about("First 16 hex digits of SHA-256 over the raw public key.")]
    algorithm: Annotated[Literal["Ed25519"], about("Always Ed25519.")]
    public_key: Annotated[str, about("The 32 raw public-key bytes, base64url without padding.")]
    current: Annotated[bool, about("Whether it signs new receipts (else retired, still valid for old ones).")]


class ReceiptKeys(msgspec.Struct, omit_defaults=True):
    keys: Annotated[
        list[ReceiptKey], about("Every receipt key of this server, current and retired, oldest first.")
    ]
    discord_public_keys: Annotated[
        list[str] | None,
        about(
            "The Discord application's public key (hex), where Discord is set up: the operator's word, as in "
            "an export's trailer; read it from the Discord application to check commands sent from Discord."
        ),
    ] = None


# The store's own Event, under the name the API gives it: one list of envelope fields, not two.
class Envelope(Event, frozen=True):
    """One stored event (DESIGN.md "The event envelope")."""


def envelopes(events: list[Event]) -> list[Envelope]:
    """The stored events as the answer's envelopes, as they are: an Envelope is an Event by another name."""
    return cast("list[Envelope]", events)


class Health(msgspec.Struct):
    ok: Annotated[bool, about("true: the server is up.")]


# ---- encounters -------------------------------------------------------------------------------


class CreateEncounter(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /encounters`: a resent `command_id` returns the same encounter (200)."""

    name: Annotated[str, about("The encounter's name, as the log and the page show it (1-200 characters).")]
    ruleset: RulesetId
    options: Annotated[
        dict[str, Any] | None,
        about(
            "Option name to value, the ruleset's and the engine's (GET /rulesets/{id}); null or omitted: defaults."
        ),
    ] = None
    public: Public = False
    dice: DiceMode = "server"
    command_id: Annotated[
        str | None,
        about("Your id for this request: resending it with the same body returns the same encounter (200)."),
    ] = None


class EncounterCreatedResponse(msgspec.Struct):
    id: EncounterId
    gm_token: Annotated[
        str | None,
        about("The GM's bearer token, shown once; null on a resend (the same command_id and body)."),
    ]
    commitment: Annotated[
        str | None,
        about("SHA-256 (hex) of the dice seed, committed before any roll; null without server dice."),
    ]
    ruleset: RulesetId
    options: Annotated[
        dict[str, Any], about("Every option resolved: the ones given, the rest at their defaults.")
    ]
    geometry: GeometryOf
    name: EncounterName
    dice: DiceMode
    public: Public
    hidden_commitment: Annotated[
        str | None,
        about(
            "SHA-256 (hex) of the hidden seed behind the GM's hidden rolls, revealed at close; null without server "
            "dice. Keep it with the commitment."
        ),
    ] = None
    seq: Annotated[
        int, about("The chain head after creation (1): keep it with `hash` as your first receipt.")
    ] = 1
    hash: Annotated[
        str,
        about(
            "That event's chain hash: as a receipt (tussle verify --receipts) it pins seq 1 whole — dice source, "
            "options and commitments."
        ),
    ] = ""
    receipt: Annotated[SignedReceipt | None, about("The head after creation, signed.")] = None


class HiddenRoll(msgspec.Struct):
    """One of the GM's hidden rolls as the GM reads it (faces and total are the GM's until revealed)."""

    seq: Annotated[int, about("The seq of its HiddenRollMade event.")]
    expression: Annotated[str, about("The dice rolled, e.g. 3d6+2.")]
    purpose: Annotated[str, about("What the roll is for.")]
    combatant: Annotated[str | None, about("The combatant it was rolled for, if any.")]
    faces: Annotated[list[list[int]], about("The faces, one list per dice term of the expression.")]
    total: Annotated[int, about("The expression's total for these faces.")]
    revealed: Annotated[bool, about("true once reveal_roll or close showed it to everyone.")]


class HiddenRollList(msgspec.Struct):
    """`GET /encounters/{id}/hidden-rolls` (GM only)."""

    hidden_rolls: Annotated[list[HiddenRoll], about("Every hidden roll of the encounter, in seq order.")]


class EncounterSummary(msgspec.Struct):
    id: EncounterId
    name: EncounterName
    ruleset: RulesetId
    seq: Annotated[int, about("The head: the seq of its last event.")]
    closed: Closed
    public: Public


class EncounterList(msgspec.Struct):
    encounters: Annotated[
        list[EncounterSummary], about("The public encounters (for the admin: all), in the order created.")
    ]
    admin_creates: Annotated[
        bool, about("True when this server lets only its admin create encounters (it has an admin token).")
    ] = False


class EncounterDetail(msgspec.Struct):
    """`GET /encounters/{id}`."""

    id: EncounterId
    name: EncounterName
    ruleset: RulesetId
    ruleset_version: Annotated[str, about("The version of the ruleset the encounter was created with.")]
    options: Annotated[dict[str, Any], about("Every option's current value.")]
    geometry: GeometryOf
    dice: DiceMode
    public: Public
    seq: Annotated[int, about("The head: the seq of its last event.")]
    hash: Annotated[str, about("The chain hash of that event (SHA-256, hex).")]
    head: Annotated[Head, about("The chain head: seq and hash together.")]
    commitment: Annotated[
        str | None, about("SHA-256 (hex) of the dice seed in use now; null without server dice.")
    ]
    commitments: Annotated[list[str], about("Every seed commitment of the encounter, oldest first.")]
    revealed_seeds: Annotated[
        dict[str, str],
        about(
            "Commitment to its revealed seed (hex), for the seeds revealed so far (at rotate_seed or close)."
        ),
    ]
    closed: Closed


# ---- rulesets ---------------------------------------------------------------------------------


FieldName = Annotated[str, about("The field's or option's name, as sent in JSON.")]
FieldType = Annotated[
    str, about("Its type, as Python writes it (int, bool, str | None, Literal['a', 'b'] ...).")
]
FieldRequired = Annotated[bool, about("true: it must be given; false: it has a default.")]
FieldDefault = Annotated[Any, about("The value when it is not given (null for a required field).")]
CommandType = Annotated[str, about("The command's type, as sent in `type`.")]
CommandDoc = Annotated[str, about("What the command does, in the ruleset's words.")]
RulesetTitle = Annotated[str, about("The ruleset's name for people.")]
RulesetVersion = Annotated[
    str, about("The ruleset's version: it changes whenever what it decides or folds changes.")
]


class FieldDescription(msgspec.Struct):
    name: FieldName
    type: FieldType
    required: FieldRequired
    default: FieldDefault
    description: Annotated[str, about("What it is, its units and values.")] = ""


class CommandDescription(msgspec.Struct):
    type: CommandType
    fields: Annotated[
        list[FieldDescription], about("The command's own fields (command_id, entropy ... not listed).")
    ]
    doc: CommandDoc


class RulesetDescription(msgspec.Struct):
    id: RulesetId
    title: RulesetTitle
    version: RulesetVersion
    geometry: GeometryOf
    options: Annotated[list[FieldDescription], about("The ruleset's options, then the engine's.")]
    commands: Annotated[list[CommandDescription], about("The ruleset's own commands.")]
    common_commands: Annotated[list[CommandDescription], about("The commands every ruleset accepts.")]


class RulesetList(msgspec.Struct):
    rulesets: Annotated[list[RulesetDescription], about("Every installed ruleset.")]


class OptionDetail(msgspec.Struct):
    name: FieldName
    type: FieldType
    required: FieldRequired
    default: FieldDefault
    description: Annotated[
        str, about("What it does, its units and values ('' where the ruleset says nothing).")
    ]
    off_by_default: Annotated[bool, about("An option that is false unless the encounter turns it on.")] = (
        False
    )


class CommandDetail(msgspec.Struct):
    type: CommandType
    doc: CommandDoc
    gm_only: Annotated[bool, about("Only the GM may send it (a player's token gets 403).")]
    fields: Annotated[
        list[OptionDetail], about("The command's own fields (command_id, entropy ... not listed).")
    ]


class StatDetail(msgspec.Struct):
    name: Annotated[str, about("The stat's name in combatant.stats.")]
    description: Annotated[str, about("What it is and what reads it.")]


class ReactionDetail(msgspec.Struct):
    kind: Annotated[str, about("The reaction's kind, as ReactionRequested and standing orders name it.")]
    asked: Annotated[str, about("When it is asked, and of whom.")]
    choices: Annotated[dict[str, str], about("Each choice to what it does.")]
    params: Annotated[
        dict[str, str], about("Each field respond's params may carry with this answer, to what it means.")
    ] = {}


class EventDetail(msgspec.Struct):
    type: Annotated[str, about("The event's type, as envelopes carry it.")]
    doc: Annotated[str, about("What it records.")]
    fields: Annotated[list[str], about("The names of its data fields.")]


class GuideStep(msgspec.Struct):
    note: Annotated[str, about("What the step does, for the reader.")]
    method: Annotated[Literal["GET", "POST"], about("The HTTP method.")]
    path: Annotated[str, about("The path; {id} is the encounter an earlier step made.")]
    who: Annotated[
        Literal["anyone", "gm", "player"], about("Whose token it is sent with: none, the GM's or the seat's.")
    ]
    body: Annotated[dict[str, Any] | None, about("The JSON body sent; null: none.")]
    keeps: Annotated[
        Literal["encounter", "seat"] | None,
        about(
            "What the answer gives to later steps: the encounter (id, GM token) or the seat (its token); null: nothing."
        ),
    ]


class RulesetDetail(msgspec.Struct):
    """GET /rulesets/{id}: everything its guide says, as data (server/guides/guide.py)."""

    id: RulesetId
    title: RulesetTitle
    version: RulesetVersion
    about: Annotated[str, about("What game and rules it plays.")]
    geometry: GeometryOf
    options: Annotated[list[OptionDetail], about("The ruleset's options.")]
    engine_options: Annotated[list[OptionDetail], about("The options every ruleset has.")]
    stats: Annotated[list[StatDetail], about("What add_combatant's combatant.stats holds.")]
    item_fields: Annotated[
        list[StatDetail], about("Each field of combatant.items[] the rules read, with its meaning.")
    ]
    phases: Annotated[list[str], about("The phases of a turn, in order (start_phase names them).")]
    commands: Annotated[list[CommandDetail], about("The ruleset's own commands.")]
    common_commands: Annotated[list[CommandDetail], about("The commands every ruleset accepts.")]
    gm_commands: Annotated[list[str], about("The types of the ruleset's commands only the GM may send.")]
    players_may_move: Annotated[
        bool, about("Whether players may send the plain move (else it is the GM's placement).")
    ]
    reactions: Annotated[
        list[ReactionDetail], about("The questions the ruleset asks, answered with respond.")
    ]
    events: Annotated[list[EventDetail], about("The ruleset's own event types.")]
    common_events: Annotated[list[EventDetail], about("The event types every ruleset shares.")]
    acting: Annotated[
        dict[str, str],
        about("Whose turn it is: turn_order (the ruleset's way), and what acting_now and next_slot hold."),
    ]
    first_turn: Annotated[
        list[GuideStep], about("A worked first turn, step by step (the guide's curl session).")
    ]


# ---- seats and tokens -------------------------------------------------------------------------


SeatCombatants = Annotated[list[str], about("The ids of the combatants the seat's player controls.")]
RequestId = Annotated[
    str | None,
    about(
        "Your id for this request: resending it with the same body answers 200 with the first result instead of "
        "doing it twice."
    ),
]


class CreateSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, about("The player's name, as the page and the log show it.")]
    combatants: SeatCombatants = []
    seat: Annotated[
        str | None, about("The seat's id (1-64 of A-Z a-z 0-9 _ . : -); null: the server makes one.")
    ] = None
    command_id: RequestId = None


class ChangeSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str | None, about("The player's new name; null: unchanged.")] = None
    combatants: Annotated[
        list[str] | None, about("The ids of the combatants the seat controls from now on; null: unchanged.")
    ] = None
    command_id: RequestId = None


# ---- webhooks (server/webhooks/) ----------------------------------------------------------------


Deliver = Annotated[
    list[Literal["events", "log", "notices"]],
    about(
        "What it is sent: events (every envelope), log (each command's log sentences), notices (whose turn it is, "
        "what is asked of whom)."
    ),
]
WebhookFormat = Annotated[
    Literal["json", "discord"],
    about("json: signed JSON (Standard Webhooks); discord: Discord messages of Markdown."),
]
WhenFailing = Annotated[str | None, about("UTC time since when its deliveries fail; null: they do not.")]
NextTry = Annotated[str | None, about("UTC time of the next attempt; null: none is due.")]
LastError = Annotated[
    str | None, about("The last failure (status or connection error), in words; null: none.")
]


class CreateWebhook(msgspec.Struct, forbid_unknown_fields=True):
    """A player's webhook: `deliver` ["notices"] and its own seat only."""

    url: Annotated[
        str,
        about(
            "Where to POST (an http or https URL; for format discord, the Discord webhook URL). Kept secret: only its host is shown again."
        ),
    ]
    deliver: Deliver = msgspec.field(default_factory=lambda: ["notices"])
    format: WebhookFormat = "json"
    seat: Annotated[
        str | None,
        about("Only this seat's notices (a player's webhook is always its own seat's); null: everyone's."),
    ] = None
    avatar_url: Annotated[
        str | None,
        about(
            "An https image URL Discord shows beside each message of a discord-format webhook; null: none."
        ),
    ] = None
    command_id: RequestId = None


class WebhookOperation(msgspec.Struct, forbid_unknown_fields=True):
    """The optional body of a webhook's secret rotation or redelivery: the stream records them in your
    name (WebhookSecretRotated, WebhookEnabled), so a page or bot names them to keep them in its record."""

    command_id: RequestId = None


class WebhookView(msgspec.Struct):
    """A webhook as the GM (or its seat) sees it: the host only, never the URL or the secret."""

    id: WebhookId
    seat: Annotated[str | None, about("The seat whose notices it gets; null: everyone's.")]
    deliver: Deliver
    format: WebhookFormat
    host: Annotated[str | None, about("The host of its URL (the URL itself stays secret).")]
    status: Annotated[
        Literal["active", "disabled", "revoked"],
        about("active; disabled (failed for too long: the GM was told); revoked (its seat was revoked)."),
    ]
    created_at: Timestamp
    failing_since: WhenFailing
    next_try: NextTry
    last_error: LastError
    avatar_url: Annotated[str | None, about("The avatar its Discord messages post with; null: none.")]


class WebhookCreatedResponse(WebhookView):
    """`secret` (Standard Webhooks, `whsec_…`) is shown here once; null for a resent `command_id`."""

    secret: Annotated[
        str | None, about("The signing secret (whsec_...), shown once; null for a resent command_id.")
    ]


class WebhookList(msgspec.Struct):
    webhooks: Annotated[list[WebhookView], about("The encounter's webhooks (a player: its seat's).")]


class WebhookSecret(msgspec.Struct):
    id: WebhookId
    secret: Annotated[str, about("The new signing secret (whsec_...), shown once; the old one stops.")]


class DeliveryView(msgspec.Struct):
    id: Annotated[str, about("The delivery's id: the webhook-id header, the same on every retry.")]
    seq: Annotated[int, about("The seq of the event it is about (a log delivery: the command's last).")]
    part: Annotated[
        int,
        about(
            "Its place, from 0, among the webhook's deliveries of one command (the events, then the log, then the "
            "notices): with seq, the order of delivery."
        ),
    ]
    kind: Annotated[
        Literal["event", "log", "notice", "test"],
        about("What it carries: an envelope, log sentences, a notice, or a test message (POST …/test)."),
    ]
    status: Annotated[
        Literal["pending", "delivered", "cancelled"],
        about("pending (not yet delivered), delivered, or cancelled (its webhook stopped first)."),
    ]
    attempts: Annotated[int, about("How many times it has been sent.")]
    created_at: Timestamp
    next_try: NextTry
    last_status: Annotated[int | None, about("The HTTP status of the last attempt; null: none answered.")]
    last_error: LastError
    delivered_at: Annotated[str | None, about("UTC time it was delivered; null: not yet.")]


class Redelivering(msgspec.Struct):
    """`POST …/webhooks/{wid}/redeliver`: the webhook after it, and how many deliveries go again."""

    webhook: Annotated[WebhookView, about("The webhook, active again if it was disabled.")]
    redelivering: Annotated[
        int,
        about("How many undelivered deliveries (waiting, or cancelled when it stopped) are sent again now."),
    ]
    enabled: Annotated[bool, about("true: it was disabled and is re-enabled (WebhookEnabled in the stream).")]


class TestDelivery(msgspec.Struct):
    """`POST …/webhooks/{wid}/test`: the test delivery queued; it appends nothing to the stream."""

    delivery: Annotated[str, about("The test delivery's id (its webhook-id header; see …/deliveries).")]
    webhook: Annotated[WebhookView, about("The webhook.")]


class DeliveryList(msgspec.Struct):
    webhook: Annotated[WebhookView, about("The webhook.")]
    deliveries: Annotated[list[DeliveryView], about("Its latest deliveries, newest first.")]


class SeatCreatedResponse(msgspec.Struct):
    """`token` is null when a resent `command_id` finds the seat already made."""

    seat: SeatId
    token: Annotated[str | None, about("The seat's bearer token, shown once; null on a resend.")]


class SeatChangedResponse(msgspec.Struct):
    seat: SeatId
    seq: Annotated[int, about("The seq of the last event appended.")]
    hash: Annotated[str, about("Its chain hash: the new head.")]
    receipt: Receipt
    events: Annotated[list[Envelope], about("The events appended, as envelopes.")]


class SeatTokenResponse(msgspec.Struct):
    seat: SeatId
    token: Annotated[str, about("The seat's new bearer token, shown once; the old one stops working.")]


class ReadTokenResponse(msgspec.Struct):
    token_id: Annotated[
        str, about("The read token's id, to revoke it with DELETE .../read-tokens/{token_id}.")
    ]
    token: Annotated[str, about("The read-only bearer token, shown once.")]


class FirehoseTokenResponse(msgspec.Struct):
    token_id: Annotated[
        str,
        about(
            "The firehose token's id: what a GM grants (POST .../firehose-grants) and the admin revokes "
            "(DELETE /firehose-tokens/{token_id})."
        ),
    ]
    token: Annotated[str, about("The server-level reader bearer token, shown once.")]


class FirehoseToken(msgspec.Struct):
    token_id: Annotated[str, about("The firehose token's id.")]
    granted: Annotated[
        list[str], about("The private encounters whose GM granted it (it reads every public one).")
    ]


class FirehoseTokens(msgspec.Struct):
    tokens: Annotated[list[FirehoseToken], about("The live firehose tokens, oldest first.")]


class CreateFirehoseGrant(msgspec.Struct, forbid_unknown_fields=True):
    token_id: Annotated[
        str, about("The firehose token's id, as the admin who made it gave it."), msgspec.Meta(min_length=1)
    ]
    command_id: RequestId = None


class FirehoseGrantResponse(msgspec.Struct):
    token_id: Annotated[str, about("The firehose token granted.")]
    seq: Annotated[int, about("The seq of its FirehoseGranted event.")]
    hash: Annotated[str, about("Its chain hash: the new head.")]
    receipt: Receipt


class GmTokenResponse(msgspec.Struct):
    gm_token: Annotated[str, about("The GM's new bearer token, shown once; the old one stops working.")]


class Until(msgspec.Struct):
    """When an `acting_now` slot ends: `kind` (what ends it) and a phrase for people; a reaction's
    `deadline` (UTC, envelope `ts` format) when `reaction_timeout_s` is set, else null."""

    kind: Annotated[
        Literal["reaction", "action", "phase", "turn", "round", "card"],
        about(
            "What ends the slot: an answer to the reaction, the action taken, the phase, turn or round ending, the next "
            "card drawn."
        ),
    ]
    text: Annotated[str, about('The same for people, e.g. "until the end of the phase".')]
    deadline: Annotated[
        str | None,
        about("A reaction's deadline (UTC, as the envelope's ts) when reaction_timeout_s is set; else null."),
    ] = None


class Slot(msgspec.Struct):
    """What opened an `acting_now` entry: the turn and phase it belongs to and the ruleset's id for it.
    The same while the entry stays open; a seat is told once per (combatant, slot) it gains."""

    turn: Annotated[int, about("The turn (round, second) the slot belongs to; 0 before the first.")]
    phase: Annotated[str | None, about("The phase it belongs to; null: none (or the ruleset has none).")]
    id: Annotated[
        str,
        about(
            'The ruleset\'s id of what opened it: "movement", "action: head of the order", "reaction r-17".'
        ),
    ]


class ActingNow(msgspec.Struct):
    """Who may or must act now (the ruleset's `acting_now`): `combatant` null is the GM's own step;
    `asked_of` the seat (or "gm") that sends the command; `reaction` the pending reaction's id, if any."""

    combatant: Annotated[str | None, about("The combatant who acts; null: the GM's own step.")]
    asked_of: Annotated[str, about('The seat id (or "gm") whose token sends the command.')]
    why: Annotated[str, about("Why it is this one's move, in words.")]
    until: Annotated[Until | None, about("When the slot ends; null: the ruleset cannot say.")]
    reaction: Annotated[str | None, about("The pending reaction's id, to answer with respond; null: none.")]
    slot: Annotated[Slot, about("What opened the entry: turn, phase and the ruleset's id for it.")]


LegalActions = Annotated[dict[str, list[str]], about("Per combatant id, the command types it may send now.")]
ActingNowList = Annotated[list[ActingNow], about("Who may or must act now, why, and until when.")]


class Disc(msgspec.Struct):
    """A disc of the plane, in hundredths of an inch."""

    centre: Annotated[list[int], about("[x, y] of its centre.")]
    radius: Annotated[int, about("Its radius.")]


class Region(msgspec.Struct):
    """Plane movement: any point inside the disc, outside every forbidden one."""

    centre: Annotated[list[int], about("[x, y] of its centre.")]
    radius: Annotated[int, about("How far from the centre a point may be.")]
    forbidden: Annotated[list[Disc], about("Discs no point may be in (other figures' bases, ...).")]


class OfferOption(msgspec.Struct, omit_defaults=True):
    """One value a choice may take."""

    value: Annotated[Any, about("The value the choice's field gets.")]
    title: Annotated[str, about("The value in words.")]
    path: Annotated[list[Any] | None, about("A destination's path, as the command's `path` takes it.")] = None
    then: Annotated[list[Choice] | None, about("The choices that depend on this value, in order.")] = None


class Choice(msgspec.Struct, omit_defaults=True):
    """What the player still picks for one field of the command."""

    field: Annotated[str, about('The command field it fills, dotted for a nested key ("params.retreat").')]
    title: Annotated[str, about('What is picked, in words ("Whom to attack").')]
    kind: Annotated[
        Literal["combatant", "hex", "point", "item", "enum", "number", "text"], about("What kind of value.")
    ]
    options: Annotated[
        list[OfferOption], about("The finite values allowed; [] with a region or a free value.")
    ]
    required: Annotated[bool, about("false: the field may be left out.")]
    region: Annotated[Region | None, about("Plane movement: the points allowed.")] = None


class Offer(msgspec.Struct):
    """A command the rules allow now, ready to click: copy `fields`, set each choice's `field`, send."""

    id: Annotated[str, about('Stable for this state, e.g. "tft.enter_hth:troll" or "respond:17:parry".')]
    type: Annotated[str, about("The command type to send.")]
    title: Annotated[str, about('In words: "Enter hand-to-hand with Troll".')]
    fields: Annotated[
        dict[str, Any], about("Fields already fixed (combatant, target, reaction, choice ...).")
    ]
    choices: Annotated[list[Choice], about("What the player still picks, in order; [] means ready to send.")]
    reaction: Annotated[str | None, about("The pending reaction this answers; null: none.")]


Offers = Annotated[
    dict[str, list[Offer]],
    about(
        'Per combatant id (and "gm" for the GM\'s steps), the commands it may send now as concrete variants '
        '(docs/rulesets.md "Offers"): none of them is refused for a reason the rules knew, dice aside.'
    ),
]


class Me(msgspec.Struct):
    """`GET /encounters/{id}/me`: who this token is here, what it may do, and what is asked of it now.
    `reactions` carry their `deadline`; `next_slot` says, for each of its combatants not acting now,
    when it will be (null: it acts now, or the ruleset cannot say)."""

    role: Annotated[Literal["admin", "gm", "player", "observer"], about("What this token is here.")]
    seat: Annotated[str | None, about("The token's seat; null for the GM, the admin or an observer.")]
    combatants: Annotated[list[str], about("The ids of the combatants this token may command.")]
    reactions: Annotated[
        list[AskedReaction],
        about(
            "The reactions waiting for this token's answer, each with its id, kind, options, default and deadline."
        ),
    ]
    legal_actions: LegalActions
    offers: Offers
    your_turn: Annotated[bool, about("true: something is asked of this token now (see acting_now).")]
    acting_now: Annotated[list[ActingNow], about("The acting_now entries this token answers for.")]
    next_slot: Annotated[
        dict[str, str | None],
        about(
            "Per combatant not acting now, when it will, in words; null: it acts now, or the ruleset cannot say."
        ),
    ]


# ---- commands and reading ---------------------------------------------------------------------


class CommandAppended(msgspec.Struct):
    """`POST /encounters/{id}/commands`: seq and hash of the command's last event, and its events."""

    seq: Annotated[int, about("The seq of the command's last event: the new head.")]
    hash: Annotated[str, about("Its chain hash (SHA-256, hex).")]
    command_id: Annotated[str, about("The command's id: yours, or the one the server made.")]
    receipt: Receipt
    events: Annotated[list[Envelope], about("The events the command appended, in order.")]


class EventsPage(msgspec.Struct):
    events: Annotated[list[Envelope], about("The envelopes of seqs from..from+limit-1, in seq order.")]
    next_from: Annotated[
        int,
        about(
            "The from of the next page: this page's last seq + 1 (from itself when the page is empty); past head.seq: "
            "no more."
        ),
    ]
    head: Annotated[Head, about("The chain head when the page was read.")]


Position = Annotated[
    list[int] | None,
    about(
        "Where it stands in the encounter's geometry: [q, r] on hexes, [x, y] on a plane; null: off the map."
    ),
]
Facing = Annotated[
    int | None, about("Which way it faces: a hex direction 0-5 (hex6), or 0-359 degrees; null: none.")
]


class Item(msgspec.Struct):
    """An item a combatant carries: the common fields, and those its ruleset reads (GET /rulesets/{id}:
    item_fields)."""

    id: Annotated[str, about("The item's id, unique for its combatant.")]
    name: Annotated[str, about("The item's name, as the log writes it.")] = ""
    kind: Annotated[str, about("What kind of item (weapon, shield ...: the ruleset's kinds).")] = ""
    state: Annotated[str, about("ready, carried, worn or dropped.")] = ""
    at: Annotated[Position, about("Where a dropped item lies.")] = None


class Combatant(msgspec.Struct):
    """A combatant as it joined (CombatantJoined: its ruleset completed its stats), as events since left it."""

    id: Annotated[str, about("The combatant's id.")]
    name: Annotated[str, about("The combatant's name, as the log writes it.")]
    side: Annotated[str, about("The side it fights on.")]
    controller: Annotated[str | None, about("The seat that controls it; null: the GM (or a seat's list).")]
    stats: Annotated[dict[str, Any], about("Its stats, as its ruleset names them.")]
    position: Position
    facing: Facing
    posture: Annotated[str, about("standing, prone, kneeling ... (the ruleset's postures).")]
    items: Annotated[list[Item], about("What it carries, and what it dropped (state dropped, at).")]
    talents: Annotated[dict[str, int], about("Talent name to level (rulesets that have talents).")]
    reactions: Annotated[
        dict[str, str], about("Its standing orders: reaction kind to the choice made unasked.")
    ]
    wounds: Annotated[
        int, about("The damage it has taken in all: the sum of its Wounded amounts, in the ruleset's units.")
    ]
    conditions: Annotated[
        list[str], about("Its conditions now (stunned, unconscious, dead, routed, prisoner ...).")
    ]
    group: Annotated[str | None, about("The close-combat group it is in (groups); null: none.")]


class DroppedItem(msgspec.Struct):
    """An item on the ground."""

    item: Annotated[str, about("The item's id.")]
    owner: Annotated[str, about("The id of the combatant who dropped it.")]
    at: Annotated[Position, about("Where it lies, in the encounter's geometry ([q, r] or [x, y]).")]


class Group(msgspec.Struct):
    """A close-combat group (CloseCombatJoined)."""

    group: Annotated[str, about("The group's id.")]
    combatants: Annotated[list[str], about("Who is in it, in the order they joined.")]
    at: Annotated[Position, about("Where it fights.")]
    standing: Annotated[bool, about("false: on the ground.")]


class PinView(msgspec.Struct):
    """A pin (PinApplied), as long as it holds."""

    holder: Annotated[str, about("Who holds the pin.")]
    pinned: Annotated[str, about("Who is pinned.")]
    turn: Annotated[int, about("The turn it was applied.")]
    turns_held: Annotated[int, about("How many turns it has been held since.")]
    last_held_turn: Annotated[int, about("The last turn it was held.")]


class HoldView(msgspec.Struct):
    """A hold short of a pin that a ruleset keeps (a GURPS grapple), as long as it holds."""

    holder: Annotated[str, about("Who holds.")]
    held: Annotated[str, about("Who is held.")]
    hold: Annotated[str, about('What the hold is, in words ("grapple").')]
    effect: Annotated[str, about('What it does to the held, in words ("-4 DX; cannot leave the hex").')]


class PushBackView(msgspec.Struct):
    """A push-back this turn (PushedBack)."""

    combatant: Annotated[str, about("Who was pushed back.")]
    from_: Annotated[Position, about("Where from.")] = msgspec.field(name="from")
    to: Annotated[Position, about("Where to.")]
    distance: Annotated[int, about("How far, in the geometry's units.")]


class DiceKey(msgspec.Struct):
    """The command keying a resolution's dice, so that its answer draws under it (rules/dice_keys.py)."""

    command_id: Annotated[str, about("The keying command's id.")]
    entropy: Annotated[str, about("That command's entropy.")]
    keyed_by: Annotated[str, about("Whose command keyed the dice: seat, gm, client or server.")]
    next_draw: Annotated[int, about("The draw the answer starts at.")]


class PendingReaction(msgspec.Struct):
    """A reaction waiting for its answer (ReactionRequested)."""

    id: Annotated[str, about("The reaction's id: respond's `reaction`.")]
    kind: Annotated[str, about("The reaction's kind (GET /rulesets/{id}: reactions).")]
    combatant: Annotated[str | None, about("The combatant it is about; null: none.")]
    asked_of: Annotated[str, about('The seat id (or "gm") that answers it.')]
    options: Annotated[list[str], about("The choices.")]
    default: Annotated[str, about("The choice taken when no one answers in time.")]
    allows: Annotated[list[str], about("Command types that may be sent while it waits.")] = []
    resume: Annotated[
        dict[str, Any], about("What the ruleset needs to resume once it is answered (its own words).")
    ] = {}
    question: Annotated[str, about("The question, in words.")] = ""
    dice_key: Annotated[DiceKey | None, about("The command keying its dice; null in older streams.")] = None


class AskedReaction(PendingReaction):
    """A reaction asked of this token, with its deadline."""

    deadline: Annotated[str | None, about("UTC time it is answered by default; null: no timeout.")] = None


class SeatView(msgspec.Struct):
    """A seat as the state keeps it (never its token)."""

    seat: Annotated[str, about("The seat's id.")]
    name: Annotated[str, about("The player's name.")]
    combatants: Annotated[list[str], about("The combatants the seat controls.")]
    revoked: Annotated[bool, about("true: its token no longer works.")]


class WebhookState(msgspec.Struct):
    """A webhook as the stream records it (WebhookCreated): never its URL or secret."""

    webhook: WebhookId
    seat: Annotated[str | None, about("The seat whose notices it gets; null: everyone's.")]
    deliver: Annotated[list[str], about("What it is sent: events, log, notices.")]
    format: Annotated[str, about("json or discord.")]
    host: Annotated[str, about("The host of its URL.")]


class Inconsistency(msgspec.Struct):
    """An event a retcon left pointing at nothing."""

    seq: Annotated[int, about("The event's seq.")]
    type: Annotated[str, about("Its type.")]
    reason: Annotated[str, about("Why it no longer applies, in words.")]


class HiddenRollState(msgspec.Struct):
    """A hidden roll as the chain shows it: its faces stay behind the GM's screen until revealed."""

    seq: Annotated[int, about("The seq of its HiddenRollMade event.")]
    expression: Annotated[str, about("The dice rolled.")]
    purpose: Annotated[str, about("What it is for.")]
    combatant: Annotated[str | None, about("Whom it is for; null: nobody's.")]
    entropy: Annotated[str, about("The entropy of the command that rolled it.")]
    keyed_command_id: Annotated[str, about("The command id its draw is keyed by.")]
    revealed: Annotated[bool, about("true once reveal_roll or close showed it.")]


class EncounterState(msgspec.Struct):
    """The state projection (DESIGN.md "Projections"); `rules` is the ruleset's own part."""

    stream: EncounterId
    name: EncounterName
    ruleset: RulesetId
    seq: Annotated[int, about("The seq the state is as of.")]
    hash: Annotated[str, about("That event's chain hash.")]
    closed: Closed
    turn: Annotated[int, about("The turn number (0 before the first).")]
    phase: Annotated[str | None, about("The phase of the turn; null: none started.")]
    initiative: Annotated[list[str], about("The combatant ids in the order they act.")]
    combatants: Annotated[
        dict[str, Combatant],
        about("Per id: stats, position, facing, posture, wounds, conditions, ready and dropped items."),
    ]
    groups: Annotated[
        dict[str, Group],
        about("The close-combat groups by id: who is in HTH with whom, where, standing or fallen."),
    ]
    pins: Annotated[list[PinView], about("The pins: holder, pinned, the turn pinned, turns held so far.")]
    pending: Annotated[
        list[PendingReaction],
        about(
            "The reactions waiting for an answer (ReactionRequested): id, kind, options, default, asked_of."
        ),
    ]
    seats: Annotated[dict[str, SeatView], about("The seats by id: name, combatants, revoked (never tokens).")]
    inconsistencies: Annotated[
        list[Inconsistency], about("Events a retcon left pointing at nothing, for the GM to mend.")
    ]
    voided: Annotated[list[int], about("The seqs voided by retcons.")]
    rules: Annotated[dict[str, Any], about("The ruleset's own part of the state.")]
    legal_actions: LegalActions
    offers: Offers
    acting_now: ActingNowList
    ruleset_version: Annotated[str, about("The version of the ruleset the encounter was created with.")]
    options: Annotated[dict[str, Any], about("Every option's current value, the ruleset's and the engine's.")]
    geometry: GeometryOf
    dice: DiceMode
    public: Public
    commitment: Annotated[
        str | None, about("SHA-256 (hex) of the dice seed in use; null without server dice.")
    ]
    push_backs: Annotated[
        list[PushBackView], about("The push-backs owed now (who pushes whom back, where to), in order.")
    ]
    actions_spent: Annotated[
        dict[str, str], about("Per combatant that has acted this turn (or phase), the action it spent.")
    ]
    webhooks: Annotated[
        dict[str, WebhookState], about("The encounter's webhooks by id (never their secrets).")
    ]
    dropped_items: Annotated[list[DroppedItem], about("The items lying on the ground.")]
    hidden_commitment: Annotated[
        str | None,
        about("SHA-256 (hex) of the hidden seed behind the GM's hidden rolls; absent or null: none."),
    ] = None
    dice_draws: Annotated[
        dict[str, int],
        about("Per command keying a waiting reaction's dice, its next draw; absent while none waits."),
    ] = {}
    hidden_rolls: Annotated[
        list[HiddenRollState], about("The GM's hidden rolls as the chain shows them; absent: none yet.")
    ] = []
    holds: Annotated[
        list[HoldView],
        about("The holds short of a pin (a GURPS grapple: who holds whom, and what it does); absent: none."),
    ] = []


class LogEntry(msgspec.Struct, omit_defaults=True):
    """One sentence of the narrative log."""

    seq: Annotated[int, about("The seq of the event it tells.")]
    turn: Annotated[int, about("The turn it belongs to.")]
    type: Annotated[str, about("The event's type.")]
    actor: Annotated[str, about("Who sent the command: gm, seat:<id>, server ...")]
    ts: Annotated[str, about("The event's UTC time.")]
    hash: Annotated[str, about("The event's chain hash.")]
    text: Annotated[str, about("The sentence.")]
    aside: Annotated[bool, about("true: bookkeeping a reader may skip (absent: false).")] = False


class LogTurn(msgspec.Struct):
    turn: Annotated[int, about("The turn.")]
    entries: Annotated[list[LogEntry], about("Its entries, in seq order.")]


class LogPage(msgspec.Struct):
    """GET /encounters/{id}/log?format=json."""

    stream: EncounterId
    name: EncounterName
    at: Annotated[int, about("The seq the log is as of.")]
    head: Annotated[Head, about("That event's seq and hash.")]
    turn: Annotated[int | None, about("The turn of an excerpt (turn=); null: none asked.")]
    entries: Annotated[list[LogEntry], about("The entries of seqs from..from+limit-1, in seq order.")]
    turns: Annotated[list[LogTurn], about("The same entries by turn.")]
    next_from: Annotated[int, about("The from of the next page; past `at`: no more.")]


class ForumPosts(msgspec.Struct):
    """GET /encounters/{id}/log?format=markdown|bbcode with Accept: application/json: the forum posts."""

    format: Annotated[Literal["markdown", "bbcode"], about("The posts' markup.")]
    head: Annotated[Head, about("The head the posts are as of.")]
    posts: Annotated[list[str], about("The posts, each under max_chars, split at entry boundaries.")]
    next_from: Annotated[int, about("The from of the next page.")]


class ReplaySkipped(msgspec.Struct):
    """A declared command the replay could not decide again here: not a tamper."""

    seq: Annotated[int, about("The command's first seq.")]
    command_id: Annotated[str, about("The command's id.")]
    reason: Annotated[
        str,
        about(
            'Why: "not yet replayable (seed unrevealed)", or a ruleset version this '
            "installation does not have."
        ),
    ]


class ReplayReport(msgspec.Struct):
    """`?replay=1`: every declared command decided again (docs/verifying.md §8)."""

    declared: Annotated[int, about("Commands whose first event holds a declaration.")]
    agreed: Annotated[int, about("How many of them the rules decide again into exactly the stored events.")]
    differed: Annotated[
        int, about("How many do not (each is a `replay` problem naming its first differing seq).")
    ]
    seed_unrevealed: Annotated[int, about("How many draw server dice under a seed not revealed yet.")]
    not_replayable: Annotated[
        int, about("How many were decided by a ruleset version this installation lacks.")
    ]
    given: Annotated[
        int,
        about(
            "Commands without a declaration taken as given (creation, seats, tokens, "
            "webhooks, and everything in a stream written before declarations)."
        ),
    ]
    skipped: Annotated[list[ReplaySkipped], about("The declared commands not decided again, and why.")]
    summary: Annotated[
        str,
        about(
            'One sentence; "no declarations: faces and chain only" for a stream '
            "written before declarations existed."
        ),
    ]
    undeclared: Annotated[
        int,
        about(
            "How many of the given commands are other than the creation, seats, tokens "
            "and webhooks and come before the first declaration: not decided again "
            "(the summary names them when the stream declares later commands)."
        ),
    ] = 0


class AuditModifier(msgspec.Struct):
    """One adjustment of a roll, with its rule."""

    value: Annotated[int, about("The adjustment.")]
    reason: Annotated[str, about("The rule that causes it.")]


class AuditRoll(msgspec.Struct, omit_defaults=True):
    """One roll of the stream (projections/audit.py): its inputs as stored, and its mark."""

    seq: Annotated[int, about("The DieRolled event's seq.")]
    command_id: Annotated[str | None, about("The command that rolled it.")]
    actor: Annotated[str, about("Who sent that command.")]
    combatant: Annotated[str | None, about("The combatant it is for; null: none.")]
    purpose: Annotated[str | None, about("What it is for.")]
    notation: Annotated[str | None, about("The dice, as written (3d6 ...).")]
    sides: Annotated[int | None, about("The dice's sides.")]
    draws: Annotated[list[int] | None, about("The draws from the seed, before they became faces.")]
    faces: Annotated[list[int] | None, about("The faces.")]
    kept: Annotated[list[int] | None, about("The faces kept.")]
    modifiers: Annotated[list[AuditModifier] | None, about("Each modifier with its reason.")]
    total: Annotated[int | None, about("The total.")]
    target: Annotated[int | None, about("The target; null: none.")]
    outcome: Annotated[str | None, about("What it means, in words.")]
    entropy: Annotated[str, about("The keying command's entropy.")]
    entropy_weak: Annotated[bool, about("true: that entropy is short enough to be guessed.")]
    keyed_by: Annotated[str | None, about("Who keyed the dice: seat, gm, client or server.")]
    client_keyed: Annotated[bool, about("true: the sender chose the keying command_id.")]
    source: Annotated[str | None, about("server, or manual (faces a person typed in).")]
    commitment: Annotated[str | None, about("The seed commitment in force; null for manual dice.")]
    voided: Annotated[bool, about("true: a void removed it.")]
    mark: Annotated[
        Literal["verified", "failed", "seed_failed", "not_yet_revealed", "manual"],
        about("What the check found."),
    ]
    problem: Annotated[str | None, about("What is wrong, in words; null: nothing.")]
    keyed_command_id: Annotated[str | None, about("The command whose id keys the faces (newer streams).")] = (
        None
    )
    expected_faces: Annotated[list[int] | None, about("The faces the seed gives, where they differ.")] = None


class AuditCommitment(msgspec.Struct):
    """One dice seed commitment: when it was published and replaced, and its seed once revealed."""

    commitment: Annotated[str, about("SHA-256 of the seed, hex.")]
    published_at_seq: Annotated[int, about("The seq that published it.")]
    replaced_at_seq: Annotated[int | None, about("The seq that replaced it; null: in force.")]
    revealed_seed: Annotated[str | None, about("The seed, hex, once revealed.")]
    revealed_at_seq: Annotated[int | None, about("The seq that revealed it.")]
    seed_matches: Annotated[bool | None, about("true: the revealed seed hashes to the commitment.")]


class AuditCounts(msgspec.Struct):
    """How many rolls, and of them how many of each mark."""

    rolls: Annotated[int, about("Every roll.")]
    verified: Annotated[int, about("Recomputed from their revealed seed and found right.")]
    failed: Annotated[int, about("Wrong, or their seed fails its commitment.")]
    not_yet_revealed: Annotated[int, about("Waiting for their seed.")]
    manual: Annotated[int, about("Manual dice.")]


class AuditReport(msgspec.Struct):
    """`GET /encounters/{id}/audit`: every roll with its inputs, the commitments and revealed seeds."""

    stream: Annotated[str | None, about("The encounter.")]
    head: Annotated[Head, about("The chain head the report read to.")]
    commitments: Annotated[list[AuditCommitment], about("Each commitment, in order.")]
    rolls: Annotated[list[AuditRoll], about("Every roll, in order.")]
    counts: Annotated[AuditCounts, about("The tallies.")]
    commitment_in_force: Annotated[str | None, about("The commitment of the seed in force; null: none.")]
    revealed_seeds: Annotated[dict[str, str], about("Commitment to its revealed seed, hex.")]


class VerifyProblem(msgspec.Struct):
    """One thing wrong with a stream."""

    kind: Annotated[
        str, about("What kind: format, chain, seed, dice, head, receipt, sent, hidden, replay ...")
    ]
    message: Annotated[str, about("What is wrong, in words, naming the seq.")]
    seq: Annotated[int | None, about("The seq to look at; absent when no one seq can be named.")] = None


class VerifyReport(msgspec.Struct):
    """`GET /encounters/{id}/verify`."""

    ok: Annotated[bool, about("true: nothing is wrong.")]
    chain_ok: Annotated[bool, about("true: every event's hash and prev_hash hold.")]
    first_bad_seq: Annotated[int | None, about("The first seq with a problem; null: none.")]
    events_checked: Annotated[
        int, about("How many events the verdict covers: this check's and those an earlier one checked.")
    ]
    checked: Annotated[
        Literal["full", "incremental"],
        about(
            "full: every event was checked now (the first check since the server started, `?full=1`, "
            "`?replay=1`, a `?head=` before the last check's head, or a write to the database by anyone "
            "but this server); incremental: only the events from `from_seq` on, resuming from what this "
            "server checked last time."
        ),
    ]
    from_seq: Annotated[
        int, about("The first seq checked this time: 1 for a full check, the last check's head + 1 else.")
    ]
    rolls_checked: Annotated[int, about("How many rolls were checked.")]
    rolls_verified: Annotated[
        int, about("How many were recomputed from their revealed seed and found right.")
    ]
    rolls_failed: Annotated[
        int, about("How many do not match their seed (each is a problem naming its seq).")
    ]
    rolls_unverifiable: Annotated[
        int, about("How many cannot be checked yet (seed not revealed) or at all (manual dice).")
    ]
    rolls_not_yet_revealed: Annotated[int, about("Of those, how many wait for their seed to be revealed.")]
    rolls_manual: Annotated[int, about("Of those, how many are manual dice (faces a person typed in).")]
    head: Annotated[
        Head, about("The last event the check read (seq 0 and the zero hash for an empty stream).")
    ]
    problems: Annotated[list[VerifyProblem], about("Every problem found, in seq order.")]
    replay: Annotated[ReplayReport | None, about("Only with ?replay=1: the replay audit's counts.")] = None
    hidden_rolls: Annotated[int, about("How many hidden rolls the GM made.")] = 0
    hidden_rolls_revealed: Annotated[int, about("How many of them were revealed.")] = 0
    hidden_rolls_verified: Annotated[
        int, about("How many revealed ones match their commitment (and the hidden seed, once revealed).")
    ] = 0


# ---- errors -----------------------------------------------------------------------------------

ErrorCode = Literal[
    "bad_request",
    "unauthenticated",
    "forbidden",
    "not_found",
    "method_not_allowed",
    "seq_conflict",
    "command_id_reused",
    "resolution_pending",
    "commitment_moved",
    "closed",
    "too_large",
    "rule_violation",
    "reaction_pending",
    "dice_needed",
    "rate_limited",
    "internal",
    "storage_unavailable",
]


ERROR_CODE = 'What went wrong, for programs (API.md "Errors").'
ERROR_MESSAGE = "What went wrong, for people: which rule and why."
ERROR_DETAILS = "More for programs: the field at fault, the paths allowed ... (an empty object when none)."


class ErrorDetail(msgspec.Struct):
    code: Annotated[ErrorCode, about(ERROR_CODE)]
    message: Annotated[str, about(ERROR_MESSAGE)]
    details: Annotated[dict[str, Any], about(ERROR_DETAILS)]


class Error(msgspec.Struct):
    """Every error: `{"error": {"code", "message", "details"}}` (API.md "Errors")."""

    error: Annotated[ErrorDetail, about("The error.")]


class SeqConflictDetails(msgspec.Struct):
    expected: Annotated[int, about("The expected_seq you sent.")]
    actual: Annotated[int, about("The encounter's head seq now: read the state again, then resend.")]


class CommandIdReusedDetails(msgspec.Struct):
    command_id: Annotated[str | None, about("The command_id already used by a different command.")]


class CommitmentMovedDetails(msgspec.Struct):
    expected: Annotated[str, about("The expected_commitment you sent.")]
    actual: Annotated[
        str | None, about("The commitment in force now (null once closed): nothing was rolled.")
    ]


class ReactionPendingDetails(msgspec.Struct):
    pending: Annotated[list[PendingReaction], about("The reactions to answer (respond) first.")]


class RollWanted(msgspec.Struct):
    """One roll a manual-dice command must bring the faces of."""

    count: Annotated[int, about("How many dice: `dice` holds this many faces for it.")]
    sides: Annotated[int, about("Their sides: each face is 1..sides.")]
    purpose: Annotated[str, about("What the roll is for, as its DieRolled will say (e.g. hth_defense).")]
    combatant: Annotated[str | None, about("Whose roll it is (a combatant id); null: nobody's.")]
    label: Annotated[str, about("The same roll in words: the `needed` entry at the same place.")]


class DiceNeededDetails(msgspec.Struct):
    needed: Annotated[
        list[str],
        about(
            'The rolls whose faces are needed so far, in draw order, e.g. "1d6: troll\'s HTH defense roll".'
        ),
    ]
    rolls: Annotated[
        list[RollWanted],
        about(
            "The same rolls for programs, in the same order: resend the command with `dice` holding one list "
            "of `count` faces (1..`sides`) per roll, in this order."
        ),
    ]
    more_may_follow: Annotated[bool, about("true: the last roll's result decides whether more rolls follow.")]


class MethodNotAllowedDetails(msgspec.Struct):
    allowed: Annotated[list[str], about("The methods the path accepts.")]


class RateLimitedDetails(msgspec.Struct):
    retry_after: Annotated[int, about("Seconds to wait before trying again (also the Retry-After header).")]


# ---- Discord (docs/discord.md) ----------------------------------------------------------------------


class DiscordCodeRequest(msgspec.Struct, forbid_unknown_fields=True):
    kind: Annotated[
        Literal["bind", "link"] | None,
        about(
            "bind: a code for `/tussle bind` that binds a Discord channel to this encounter (GM only); link: a code "
            "for `/tussle link` that links a Discord user to the token's seat (the GM's: as the GM). Default: "
            "bind for the GM, link for a player."
        ),
    ] = None


class DiscordCode(msgspec.Struct):
    code: Annotated[str, about("The one-time code: it works once, within expires_in_s, and is no token.")]
    kind: Annotated[Literal["bind", "link"], about("What the code does.")]
    expires_in_s: Annotated[int, about("Seconds until the code is worth nothing.")]
    command: Annotated[str, about("The slash command to type in Discord, code included.")]


class DiscordLink(msgspec.Struct):
    user: Annotated[str, about("The Discord user's id (a snowflake).")]
    username: Annotated[str, about("The Discord user's name when the link was made.")]
    role: Annotated[Literal["gm", "player"], about("Whom the user acts as: a seat, or the GM.")]
    seat: Annotated[str | None, about("The seat the user acts as (null for the GM).")]


class DiscordLinkList(msgspec.Struct):
    links: Annotated[
        list[DiscordLink],
        about("The live links: a link ends when the token it was made under is rotated or revoked."),
    ]
