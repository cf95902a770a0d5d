"""The common event vocabulary (DESIGN.md "Common event vocabulary").

Rulesets emit these where the meaning fits, so the ruleset-agnostic projections (state, log, VTT
feeds) work for every ruleset. An event's type name is its class name.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice import DieRolled, Modifier

Position = list[int]


# Round 3: every die of a resolution is drawn from the commitment in force when its starting command was
# accepted (DESIGN.md "Dice"); a verifier checks it in streams whose EncounterCreated says 3 or more.
STREAM_RULES = 3


class EncounterCreated(msgspec.Struct, frozen=True):
    """The encounter began: its ruleset, resolved options, geometry and dice commitment."""

    name: str
    ruleset: str
    ruleset_version: str
    options: dict[str, Any]
    geometry: dict[str, Any]
    commitment: str | None
    dice: str
    public: bool = False
    # The second seed's commitment, behind the GM's hidden rolls (events/hidden_rolls.py), revealed only
    # at close. Absent in streams written before hidden rolls existed.
    hidden_commitment: str | None = None
    # The verification rules the stream is written under (docs/verifying.md "Stream rules"): absent in
    # streams written before round 3, which verify as they always did.
    stream_rules: int | None = None


class RulesetUpgraded(msgspec.Struct, frozen=True):
    """A server with a newer version of the ruleset first wrote to this encounter: from here on its
    commands are decided, and declared, under `version` (docs/verifying.md "Versions")."""

    ruleset: str
    version: str
    previous: str


def newer_version(installed: str | None, announced: str | None) -> bool:
    """Whether the installed ruleset version is past the one the encounter announced (numbers compare as
    numbers; a version that is no number counts as newer when it differs)."""
    if not isinstance(installed, str) or announced is None or installed == announced:
        return False
    if installed.isdigit() and announced.isdigit():
        return int(installed) > int(announced)
    return True


class OptionsChanged(msgspec.Struct, frozen=True):
    """The GM changed options (set_options); the new values apply from here on."""

    options: dict[str, Any]


class EncounterClosed(msgspec.Struct, frozen=True):
    """The encounter is over (close): no more commands; its dice seed is revealed."""

    reason: str = ""


class DiceSeedRotated(msgspec.Struct, frozen=True):
    """The dice seed was revealed (rolls so far can be checked) and a new one committed."""

    revealed_seed: str
    commitment: str | None


class HiddenRollMade(msgspec.Struct, frozen=True):
    """The GM rolled behind the screen: the faces come from the hidden seed, keyed by this command's
    command_id (`keyed_command_id`) and entropy; the chain holds only `commitment`, sha256 of the faces
    and a salt (events/hidden_rolls.py), never the faces."""

    expression: str
    purpose: str
    entropy: str
    keyed_by: str
    keyed_command_id: str
    commitment: str
    combatant: str | None = None


class HiddenRollRevealed(msgspec.Struct, frozen=True):
    """The faces of the hidden roll at `seq` with the salt they were committed with (reveal_roll, close)."""

    seq: int
    faces: list[list[int]]
    salt: str
    total: int


class HiddenSeedRevealed(msgspec.Struct, frozen=True):
    """At close: the hidden seed, so anyone can recompute every hidden roll's faces and salt."""

    commitment: str
    revealed_seed: str


class SeatCreated(msgspec.Struct, frozen=True):
    """The GM made a seat for a player, naming the combatants it controls."""

    seat: str
    name: str
    combatants: list[str]


class SeatChanged(msgspec.Struct, frozen=True):
    """A seat's name or combatants changed."""

    seat: str
    name: str
    combatants: list[str]


class SeatRevoked(msgspec.Struct, frozen=True):
    """A seat was revoked: its token no longer works."""

    seat: str


class SeatTokenRotated(msgspec.Struct, frozen=True):
    """A seat's token was replaced; the old one no longer works."""

    seat: str


class ReadTokenCreated(msgspec.Struct, frozen=True):
    """An observer token (read only) was made."""

    token_id: str


class ReadTokenRevoked(msgspec.Struct, frozen=True):
    """An observer token was revoked."""

    token_id: str


class FirehoseGranted(msgspec.Struct, frozen=True):
    """The GM let a server-level reader token (the firehose's, made by the admin) read this encounter."""

    token_id: str


class FirehoseRevoked(msgspec.Struct, frozen=True):
    """The GM took back a reader token's grant: the firehose no longer carries this encounter to it."""

    token_id: str


class GmTokenRotated(msgspec.Struct, frozen=True):
    """The GM token was replaced; the old one no longer works."""

    pass


class WebhookCreated(msgspec.Struct, frozen=True):
    """A subscription: `host` only, since a webhook URL's path and query are secrets (a Discord token)."""

    webhook: str
    seat: str | None
    deliver: list[str]
    format: str
    host: str


class WebhookDeleted(msgspec.Struct, frozen=True):
    """A webhook was removed."""

    webhook: str


class WebhookSecretRotated(msgspec.Struct, frozen=True):
    """A webhook's signing secret was replaced."""

    webhook: str


class WebhookDisabled(msgspec.Struct, frozen=True):
    """A webhook stopped being called (it failed for too long)."""

    webhook: str
    reason: str


class WebhookEnabled(msgspec.Struct, frozen=True):
    """A disabled webhook is called again (the GM re-enabled it): what it delivers, as when created."""

    webhook: str
    seat: str | None
    deliver: list[str]
    format: str
    host: str


class CombatantJoined(msgspec.Struct, frozen=True):
    """A combatant joined, with its side, position, facing and stats as the ruleset completed them."""

    id: str
    name: str
    side: str
    controller: str | None
    stats: dict[str, Any]
    position: Any
    facing: int | None
    posture: str
    items: list[dict[str, Any]]
    talents: dict[str, Any]
    reactions: dict[str, str]


class CombatantRemoved(msgspec.Struct, frozen=True):
    """A combatant left the encounter."""

    combatant: str


class StandingOrdersSet(msgspec.Struct, frozen=True):
    """A combatant's standing answers to reactions (kind -> choice), used instead of asking."""

    combatant: str
    reactions: dict[str, str]


class TurnStarted(msgspec.Struct, frozen=True):
    """A new turn began (start_turn): per-turn counts start again."""

    turn: int


class PhaseStarted(msgspec.Struct, frozen=True):
    """A phase of the turn began (start_phase)."""

    phase: str


class InitiativeSet(msgspec.Struct, frozen=True):
    """The order in which combatants act."""

    order: list[str]


class ActionDeclared(msgspec.Struct, frozen=True):
    """A combatant declared an action: what it does, to whom, with which parameters."""

    combatant: str | None
    action: str
    targets: list[str] = []
    params: dict[str, Any] = {}


class ReactionRequested(msgspec.Struct, frozen=True):
    """A rule needs someone's choice: who is asked, the choices, the default and any deadline."""

    id: str
    kind: str
    combatant: str | None
    asked_of: str
    options: list[str]
    default: str
    allows: list[str] = []
    resume: dict[str, Any] = {}
    question: str = ""
    # The command keying the resolution's dice, so its answer draws under it (rules/dice_keys.py):
    # {command_id, entropy, keyed_by, next_draw}; set by the pipeline, null in older streams.
    dice_key: dict[str, Any] | None = None


class ReactionAnswered(msgspec.Struct, frozen=True):
    """A reaction was answered (by its seat, a standing order, the GM or the deadline's default)."""

    id: str
    choice: str
    params: dict[str, Any]
    by: str


class ReactionCancelled(msgspec.Struct, frozen=True):
    """A pending reaction no longer applies; why is given."""

    id: str
    reason: str


class Moved(msgspec.Struct, frozen=True):
    """A combatant moved to a new position (and why: a move, a push, a throw ...)."""

    combatant: str
    to: Any
    reason: str = "move"
    facing: int | None = None
    from_: Any = msgspec.field(default=None, name="from")


class PostureChanged(msgspec.Struct, frozen=True):
    """A combatant's posture changed (standing, kneeling, prone ...)."""

    combatant: str
    posture: str


class FacingChanged(msgspec.Struct, frozen=True):
    """A combatant turned to a new facing."""

    combatant: str
    facing: int


class ItemDropped(msgspec.Struct, frozen=True):
    """An item was dropped at a position."""

    combatant: str
    item: str
    at: Any


class ItemReadied(msgspec.Struct, frozen=True):
    """An item was readied for use."""

    combatant: str
    item: str


class ItemPickedUp(msgspec.Struct, frozen=True):
    """An item was picked up from the ground."""

    combatant: str
    item: str


class CloseCombatJoined(msgspec.Struct, frozen=True):
    """Combatants are now in close combat (hand-to-hand) as one group."""

    group: str
    combatants: list[str]
    at: Any
    standing: bool


class CloseCombatLeft(msgspec.Struct, frozen=True):
    """A combatant left close combat (or the group ended), and how."""

    group: str
    combatant: str
    how: str


class PinApplied(msgspec.Struct, frozen=True):
    """One combatant pinned another."""

    holder: str
    pinned: str
    turn: int


class PinHeld(msgspec.Struct, frozen=True):
    """A pin was held through another turn."""

    holder: str
    pinned: str
    turn: int


class PinBroken(msgspec.Struct, frozen=True):
    """A pinned combatant broke free."""

    pinned: str
    holder: str


class PinReleased(msgspec.Struct, frozen=True):
    """The holder let a pinned combatant go."""

    pinned: str
    holder: str
    why: str = ""


class Wounded(msgspec.Struct, frozen=True):
    """A combatant took damage: how much, and what is left. A ruleset whose armor stops part of a hit says
    what the hit did (`damage`) and what stopped how much of it (`stopped`: [{by, amount}], in order);
    `amount` is what is left. Unset (absent from the event) where the ruleset does not say."""

    combatant: str
    amount: int
    source: str = ""
    damage: int | msgspec.UnsetType = msgspec.UNSET
    stopped: list[dict[str, Any]] | msgspec.UnsetType = msgspec.UNSET


class ConditionChanged(msgspec.Struct, frozen=True):
    """A condition (stunned, unconscious, dead ...) was set or cleared."""

    combatant: str
    condition: str
    on: bool


class PushedBack(msgspec.Struct, frozen=True):
    """A combatant was pushed back to a new position."""

    combatant: str
    to: Any
    distance: int
    from_: Any = msgspec.field(default=None, name="from")


class FollowedUp(msgspec.Struct, frozen=True):
    """The winner of a push followed the loser into the hex it left."""

    combatant: str
    to: Any
    from_: Any = msgspec.field(default=None, name="from")


class ActionSpent(msgspec.Struct, frozen=True):
    """A combatant's action for this turn is used up, and why."""

    combatant: str
    turn: int
    why: str


class RulingMade(msgspec.Struct, frozen=True):
    """The GM ruled: the words, and any state overrides it applies."""

    text: str
    overrides: dict[str, Any] = {}


class EventVoided(msgspec.Struct, frozen=True):
    """An earlier event was voided by the GM: it no longer counts (the log keeps it, struck)."""

    seqs: list[int]
    reason: str


class NotePosted(msgspec.Struct, frozen=True):
    """A note for the log; it changes nothing."""

    text: str


COMMON_EVENTS: tuple[type, ...] = (
    EncounterCreated,
    RulesetUpgraded,
    OptionsChanged,
    EncounterClosed,
    DiceSeedRotated,
    HiddenRollMade,
    HiddenRollRevealed,
    HiddenSeedRevealed,
    SeatCreated,
    SeatChanged,
    SeatRevoked,
    SeatTokenRotated,
    ReadTokenCreated,
    ReadTokenRevoked,
    FirehoseGranted,
    FirehoseRevoked,
    GmTokenRotated,
    WebhookCreated,
    WebhookDeleted,
    WebhookSecretRotated,
    WebhookDisabled,
    WebhookEnabled,
    CombatantJoined,
    CombatantRemoved,
    StandingOrdersSet,
    TurnStarted,
    PhaseStarted,
    InitiativeSet,
    ActionDeclared,
    DieRolled,
    ReactionRequested,
    ReactionAnswered,
    ReactionCancelled,
    Moved,
    PostureChanged,
    FacingChanged,
    ItemDropped,
    ItemReadied,
    ItemPickedUp,
    CloseCombatJoined,
    CloseCombatLeft,
    PinApplied,
    PinHeld,
    PinBroken,
    PinReleased,
    Wounded,
    ConditionChanged,
    PushedBack,
    FollowedUp,
    ActionSpent,
    RulingMade,
    EventVoided,
    NotePosted,
)

__all__ = [c.__name__ for c in COMMON_EVENTS] + ["Modifier", "COMMON_EVENTS", "Position", "newer_version"]
