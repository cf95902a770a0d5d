"""The narrative log projection (DESIGN.md "Projections"): one human sentence per event, grouped by turn.

A ruleset's `describe(state_before, event)` speaks first; the engine's sentences below cover the common
events (and any event a ruleset leaves undescribed). Every roll reads as faces, each modifier with its
reason, total, target and outcome, and a manual roll says it cannot be verified.

Voided events are skipped (the state they are described against skips them too, exactly as
`rules.state.replay` does), and the `EventVoided` entry shows what was voided and the GM's reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from events.envelope import Event
from events.hidden_rolls import shown
from rules.interface import Ruleset
from rules.plane import inches
from rules.state import EventNotFoldable, evolve, initial_state, voided_seqs
from rules.wording import names_and

State = dict[str, Any]
Entry = dict[str, Any]
MANUAL_MARK = "(manual dice, not verifiable)"


# ---- naming --------------------------------------------------------------------------------------


def name_of(state: State, combatant: str | None) -> str:
    """A combatant's name (its id when it is unknown)."""
    if combatant is None:
        return "someone"
    c = state["combatants"].get(combatant)
    return c["name"] if c else str(combatant)


def actor_name(state: State, actor: str) -> str:
    """`gm`, `seat:<id>`, `system` or `standing_order` as words."""
    if actor == "gm":
        return "the GM"
    if actor == "system":
        return "the server"
    if actor == "standing_order":
        return "a standing order"
    if actor.startswith("seat:"):
        seat = state["seats"].get(actor[5:])
        return seat["name"] if seat else actor[5:]
    return actor


def _names(state: State, ids: Iterable[str]) -> str:
    return names_and([name_of(state, i) for i in ids])


# Postures whose state name reads badly in a sentence ("is now on back").
POSTURE_WORDS = {"on_back": "lying on their back", "on_stomach": "lying on their stomach"}


def distance(state: State, value: Any) -> str:
    """A distance in the encounter's units: table-top hundredths as inches, hexes counted."""
    if not isinstance(value, int) or isinstance(value, bool):
        return str(value)
    if state["geometry"].get("kind") == "plane":
        return inches(value)
    return f"{value} hex{'es' if value != 1 else ''}"


def place(state: State, position: Any) -> str:
    """A position in the encounter's units: hexes as [q, r], table-top hundredths as inches."""
    if not isinstance(position, list) or len(position) != 2:
        return str(position)
    if state["geometry"].get("kind") == "plane":
        return "(" + ", ".join(f'{v / 100:g}"' for v in position) + ")"
    return f"[{position[0]}, {position[1]}]"


def _override_value(state: State, field: str, value: Any) -> str:
    if field == "position":
        return place(state, value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(
            f"{name_of(state, k) if k in state['combatants'] else k} {v}" for k, v in value.items()
        )
    return str(value)


def overrides_text(state: State, overrides: dict[str, Any]) -> str:
    """What a ruling's overrides set, in words ("sets Troll's posture to prone"), not the state's key names."""
    parts = []
    for cid, fields in (overrides.get("combatants") or {}).items():
        for field, value in (fields or {}).items() if isinstance(fields, dict) else ():
            what = f"{name_of(state, cid)}'s {field.replace('_', ' ')}"
            parts.append(
                f"clears {what}"
                if value is None
                else f"sets {what} to {_override_value(state, field, value)}"
            )
    parts += [
        f"sets {k.replace('_', ' ')} to {_override_value(state, k, v)}"
        for k, v in overrides.items()
        if k != "combatants"
    ]
    return "; ".join(parts) or "changes nothing"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


# ---- rolls ---------------------------------------------------------------------------------------


def modifiers_text(modifiers: list[dict[str, Any]]) -> str:
    """Each modifier with its reason, or "(no modifiers)"."""
    real = [m for m in modifiers if m.get("value")]
    if not real:
        return "(no modifiers)"
    return " ".join(f"{'+' if m['value'] >= 0 else '-'} {abs(m['value'])} ({m['reason']})" for m in real)


def roll_sentence(state: State, e: Event) -> str:
    """The engine's sentence for a `DieRolled`: who, what, faces, modifiers, total, target, outcome."""
    d = e.data
    # A gone figure is named by its id as every other sentence names it, never re-capitalised (issue 29 item
    # 10: "Kon rolls" beside "kon fails" after a void); a present one's name starts the sentence with a capital
    # ("The troll rolls"), as "the GM" and the like do.
    combatant = d.get("combatant")
    if combatant and combatant not in state["combatants"]:
        who = name_of(state, combatant)
    else:
        who = _cap(name_of(state, combatant) if combatant else actor_name(state, e.actor))
    purpose = d.get("purpose") or ""
    notation = d.get("notation") or f"{len(d['faces'])}d{d['sides']}"
    what = f" for {purpose}" if purpose and purpose != notation and not purpose.startswith(notation) else ""
    faces = ", ".join(str(f) for f in d["faces"])
    kept = d.get("kept")
    if kept is not None and len(kept) != len(d["faces"]):
        faces += " (keeping " + ", ".join(str(d["faces"][i]) for i in kept) + ")"
    text = f"{who} rolls {notation}{what}: {faces} {modifiers_text(d.get('modifiers') or [])} = {d['total']}"
    if d.get("target") is not None:
        text += f" vs {d['target']}"
    outcome = d.get("outcome") or ""
    # The freeform roll's outcome only restates "expression = total".
    if outcome and not (d.get("target") is None and outcome.endswith(f"= {d['total']}")):
        text += f" — {outcome}"
    if d.get("source") == "manual":
        text += f" {MANUAL_MARK}"
    return text + "."


# ---- the engine's sentences for common events ----------------------------------------------------


def _options(opts: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sorted(opts.items())) or "nothing"


def _seed_rotated(state: State, e: Event) -> str:
    d = e.data
    old = state["commitment"]
    revealed = f"The dice seed behind commitment {old} is revealed: {d['revealed_seed']}"
    if d.get("commitment") is None:
        return revealed + "; every server roll can now be checked."
    return revealed + f"; the new commitment is {d['commitment']}."


def _reaction_kind(state: State, rid: str) -> str:
    p = next((p for p in state["pending"] if p["id"] == rid), None)
    return p["kind"].replace("_", " ") if p else "question"


def engine_sentence(state: State, e: Event, voided_texts: dict[int, str] | None = None) -> str:
    """The engine's sentence for an event, with names (never ids where a name is known)."""
    d = e.data
    t = e.type
    n = lambda cid: name_of(state, cid)  # noqa: E731 - short local alias keeps the table readable
    actor = actor_name(state, e.actor)
    if t == "EncounterCreated":
        dice = d["dice"] + " dice" + (f", dice commitment {d['commitment']}" if d.get("commitment") else "")
        return f"The encounter “{d['name']}” opens ({d['ruleset']} rules, {dice})."
    if t == "OptionsChanged":
        return f"The GM changes the options: {_options(d['options'])}."
    if t == "EncounterClosed":
        return "The encounter is closed" + (f": {d['reason']}." if d.get("reason") else ".")
    if t == "DiceSeedRotated":
        return _seed_rotated(state, e)
    if t == "HiddenRollMade":
        why = "" if d["purpose"] in ("", d["expression"]) else f": {d['purpose']}"
        return f"The GM rolls behind the screen ({d['expression']}){why}."
    if t == "HiddenRollRevealed":
        return f"The GM reveals the roll at seq {d['seq']}: {shown(d['faces'], d['total'])}."
    if t == "HiddenSeedRevealed":
        return (
            f"The hidden seed behind commitment {d['commitment']} is revealed: {d['revealed_seed']}; every "
            "hidden roll can now be checked."
        )
    if t == "RulesetUpgraded":
        return (
            f"The server now plays {d['ruleset']} version {d['version']} (this encounter began under version "
            f"{d['previous']}): commands from here on are decided by it."
        )
    if t == "SeatCreated":
        return f"The GM makes a seat for {d['name']} (controls {_names(state, d['combatants'])})."
    if t == "SeatChanged":
        return f"Seat {d['name']} now controls {_names(state, d['combatants'])}."
    if t == "SeatRevoked":
        return f"The GM revokes the seat of {actor_name(state, 'seat:' + d['seat'])}."
    if t == "SeatTokenRotated":
        return f"The GM issues a new token for the seat of {actor_name(state, 'seat:' + d['seat'])}."
    if t == "ReadTokenCreated":
        return "The GM makes an observer token."
    if t == "ReadTokenRevoked":
        return "The GM revokes an observer token."
    if t == "FirehoseGranted":
        return "The GM lets a server reader token (the firehose) read this encounter."
    if t == "FirehoseRevoked":
        return "The GM takes back a server reader token's grant."
    if t == "GmTokenRotated":
        return "The GM token is replaced."
    if t == "WebhookCreated":
        whose = f"the seat of {actor_name(state, 'seat:' + d['seat'])}" if d.get("seat") else "the table"
        return (
            f"{_cap(actor)} adds a webhook to {d['host']} for {whose} "
            f"({', '.join(d['deliver'])}, {d['format']})."
        )
    if t == "WebhookDeleted":
        return f"{_cap(actor)} removes a webhook."
    if t == "WebhookSecretRotated":
        return f"{_cap(actor)} replaces a webhook's signing secret."
    if t == "WebhookDisabled":
        return f"A webhook is disabled: {d['reason']}."
    if t == "WebhookEnabled":
        return (
            f"{_cap(actor)} re-enables the webhook to {d['host']}; its undelivered messages are sent again."
        )
    if t == "CombatantJoined":
        at = f" at {place(state, d['position'])}" if d.get("position") is not None else ""
        return f"{d['name']} joins the fight on side {d['side']}{at}."
    if t == "CombatantRemoved":
        return f"{n(d['combatant'])} leaves the encounter."
    if t == "StandingOrdersSet":
        orders = ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in sorted(d["reactions"].items())) or "none"
        return f"{n(d['combatant'])} sets standing orders ({orders})."
    if t == "TurnStarted":
        return f"Turn {d['turn']} begins."
    if t == "PhaseStarted":
        return f"The {d['phase']} phase begins."
    if t == "InitiativeSet":
        return f"Initiative order: {', '.join(n(c) for c in d['order'])}."
    if t == "ActionDeclared":
        against = f" against {_names(state, d['targets'])}" if d.get("targets") else ""
        who = n(d["combatant"]) if d.get("combatant") else _cap(actor)
        return f"{who} declares {str(d['action']).replace('_', ' ')}{against}."
    if t == "DieRolled":
        return roll_sentence(state, e)
    if t == "ReactionRequested":
        about = f" for {n(d['combatant'])}" if d.get("combatant") else ""
        question = f" “{d['question']}”" if d.get("question") else ""
        return (
            f"{_cap(actor_name(state, 'seat:' + d['asked_of']) if d['asked_of'] != 'gm' else 'the GM')} "
            f"must choose {d['kind'].replace('_', ' ')}{about}:{question} {' or '.join(d['options'])} "
            f"(default {d['default']})."
        )
    if t == "ReactionAnswered":
        return (
            f"{_cap(actor_name(state, d['by']))} answers the {_reaction_kind(state, d['id'])}: {d['choice']}."
        )
    if t == "ReactionCancelled":
        return f"The {_reaction_kind(state, d['id'])} is withdrawn: {d['reason']}."
    if t == "Moved":
        why = f" ({d['reason'].replace('_', ' ')})" if d.get("reason", "move") != "move" else ""
        facing = f", facing {d['facing']}" if d.get("facing") is not None else ""
        start = f" from {place(state, d['from'])}" if d.get("from") is not None else ""
        return f"{n(d['combatant'])} moves{start} to {place(state, d['to'])}{why}{facing}."
    if t == "PostureChanged":
        return (
            f"{n(d['combatant'])} is now {POSTURE_WORDS.get(d['posture'], d['posture'].replace('_', ' '))}."
        )
    if t == "FacingChanged":
        return f"{n(d['combatant'])} turns to face {d['facing']}."
    if t == "ItemDropped":
        return f"{n(d['combatant'])} drops {d['item']} at {place(state, d.get('at'))}."
    if t == "ItemReadied":
        return f"{n(d['combatant'])} readies {d['item']}."
    if t == "ItemPickedUp":
        return f"{n(d['combatant'])} picks up {d['item']}."
    if t == "CloseCombatJoined":
        how = "" if d.get("standing") else " on the ground"
        verb = "is" if len(d["combatants"]) == 1 else "are"
        return f"{_names(state, d['combatants'])} {verb} in close combat{how} at {place(state, d.get('at'))}."
    if t == "CloseCombatLeft":
        return f"{n(d['combatant'])} leaves the close combat ({d['how'].replace('_', ' ')})."
    if t == "PinApplied":
        return f"{n(d['holder'])} pins {n(d['pinned'])}."
    if t == "PinHeld":
        return f"{n(d['holder'])} holds the pin on {n(d['pinned'])} (turn {d['turn']})."
    if t == "PinBroken":
        return f"{n(d['pinned'])} breaks {n(d['holder'])}'s pin."
    if t == "PinReleased":
        return f"{n(d['holder'])} releases {n(d['pinned'])}."
    if t == "Wounded":
        source = f" ({d['source']})" if d.get("source") else ""
        return f"{n(d['combatant'])} takes {d['amount']} damage{source}."
    if t == "ConditionChanged":
        cond = d["condition"].replace("_", " ")
        return f"{n(d['combatant'])} is {'now' if d['on'] else 'no longer'} {cond}."
    if t == "PushedBack":
        return (
            f"{n(d['combatant'])} is pushed back {distance(state, d['distance'])} to {place(state, d['to'])}."
        )
    if t == "FollowedUp":
        return f"{n(d['combatant'])} follows up to {place(state, d['to'])}."
    if t == "ActionSpent":
        return f"{n(d['combatant'])} has spent the action of turn {d['turn']} ({d['why']})."
    if t == "RulingMade":
        overrides = f" ({overrides_text(state, d['overrides'])})" if d.get("overrides") else ""
        return f"GM ruling: {d['text']}{overrides}"
    if t == "EventVoided":
        return void_sentence(d, voided_texts or {})
    if t == "NotePosted":
        return f"{_cap(actor)} notes: “{d['text']}”"
    return f"{t} ({actor})."


def void_sentence(data: dict[str, Any], voided_texts: dict[int, str]) -> str:
    """The retcon as the log shows it: what was voided and the GM's reason."""
    seqs = data["seqs"]
    label = f"seq {seqs[0]}" if len(seqs) == 1 else "seqs " + ", ".join(str(s) for s in seqs)
    what = "; ".join(voided_texts[s].rstrip(".") for s in seqs if s in voided_texts)
    what = f" ({what})" if what else ""
    return f"Retcon: the GM voids {label}{what}. Reason: {data['reason']}"


# ---- the projection ------------------------------------------------------------------------------


def sentence(ruleset: Ruleset | None, state: State, e: Event, voided_texts: dict[int, str]) -> str:
    """The ruleset's sentence when it has one, else the engine's; manual rolls always say so."""
    text = None
    if ruleset is not None and e.type != "EventVoided":
        text = ruleset.describe(state, e)
    if not text:
        text = engine_sentence(state, e, voided_texts)
    elif e.type == "DieRolled" and e.data.get("source") == "manual" and MANUAL_MARK not in text:
        text = text.rstrip(".") + f" {MANUAL_MARK}."
    return text


class NarrativeLog:
    """Builds the log event by event, skipping the seqs in `voided`.

    `state` follows exactly what `replay` computes (voided events only move seq and hash), so describe
    sees the same state the HTTP /state shows as of each seq.
    """

    def __init__(self, ruleset_for: Callable[[Event], Any], voided: set[int] | None = None):
        self.ruleset_for = ruleset_for
        self.voided = set(voided or ())
        self.state: State = initial_state()
        self.ruleset: Any = None
        self.entries: list[Entry] = []
        self.voided_texts: dict[int, str] = {}

    def apply(self, e: Event, after: State | None = None) -> Entry | None:
        """Fold one event (or take `after`, the state after it that whoever appended it folded already);
        its log entry, or None when it is voided."""
        if e.type == "EncounterCreated":
            self.ruleset = self.ruleset_for(e)
            self.state = {
                **self.state,
                "rules": self.ruleset.initial_state(e.data["options"]) if self.ruleset else {},
            }
        before = self.state
        try:
            text = sentence(self.ruleset, before, e, self.voided_texts)
        except Exception as exc:  # noqa: BLE001 - re-raised naming the event (a 500 naming its seq): a bug, loud
            raise EventNotFoldable(e, exc) from exc
        if e.seq in self.voided:
            self.voided_texts[e.seq] = text
            self.state = {**before, "seq": e.seq, "hash": e.hash}
            return None
        self.state = after if after is not None else evolve(before, e, self.ruleset)
        entry = {
            "seq": e.seq,
            "turn": self.state["turn"],
            "type": e.type,
            "actor": e.actor,
            "ts": e.ts,
            "hash": e.hash,
            "text": text,
        }
        aside = getattr(self.ruleset, "aside", None)
        if aside is not None and e.type != "EventVoided" and aside(before, e):
            entry["aside"] = True  # bookkeeping another sentence already says: forum exports leave it out
        self.entries.append(entry)
        return entry


def build_log(
    events: Iterable[Event], ruleset_for: Callable[[Event], Any], at: int | None = None
) -> NarrativeLog:
    """The log (and its state) as of seq `at`, applying only the voids with seq <= at."""
    events = [e for e in events if at is None or e.seq <= at]
    log = NarrativeLog(ruleset_for, voided_seqs(events, at))
    for e in events:
        log.apply(e)
    return log


def group_by_turn(entries: list[Entry]) -> list[dict[str, Any]]:
    """Entries grouped by consecutive turn: [{turn, entries}]."""
    out: list[dict[str, Any]] = []
    for entry in entries:
        if not out or out[-1]["turn"] != entry["turn"]:
            out.append({"turn": entry["turn"], "entries": []})
        out[-1]["entries"].append(entry)
    return out
