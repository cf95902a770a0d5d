"""The common state fold: the ruleset-agnostic core, with `state["rules"]` for the ruleset (in rules/, since deciding folds too).

`evolve(state, event, ruleset)` is pure and total: it copies what it changes (the rest is shared)
and never re-judges an event; an event whose subject is gone is skipped and listed in
`inconsistencies`. Shape (all JSON):

    stream, name, ruleset, ruleset_version, options, geometry, dice, public, commitment, closed,
    seq, hash, turn, phase, initiative,
    combatants: {id: {id, name, side, controller, stats, position, facing, posture, wounds,
                      conditions: [..], items: [{id, ..., state, at?}], talents, reactions, group}},
    groups: {group: {group, combatants, at, standing}},
    pins: [{holder, pinned, turn, turns_held, last_held_turn}],
    push_backs: [{combatant, from, to, distance}]   (this turn)
    actions_spent: {combatant: why}                 (this turn)
    pending: [ReactionRequested data], seats: {seat: {seat, name, combatants, revoked}},
    webhooks: {id: {webhook, seat, deliver, format, host}}   (the live ones: none of a revoked seat)
    inconsistencies: [{seq, type, reason}], voided: [seq], rules: {...},
    dice_draws?: {command_id: next draw}   (the dice keys waiting reactions name, rules/dice_keys.py;
                                            absent when none)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

import msgspec

from events.envelope import Event
from events.gc_pause import gc_paused
from rules.dice_keys import fold_draws
from rules.interface import Ruleset, SubjectGone
from rules.merge_patch import merge_patch

State = dict[str, Any]

# The version of this fold (with `voided_seqs`): bump it with any change to what a stream folds to here,
# so that saved snapshots of states folded by the older code are discarded (server/encounters/snapshots.py).
FOLD_VERSION = 2


def initial_state() -> State:
    """The state before `EncounterCreated`."""
    return {
        "stream": None,
        "name": None,
        "ruleset": None,
        "ruleset_version": None,
        "options": {},
        "geometry": {},
        "dice": "server",
        "public": False,
        "commitment": None,
        "closed": False,
        "seq": 0,
        "hash": "0" * 64,
        "turn": 0,
        "phase": None,
        "initiative": [],
        "combatants": {},
        "groups": {},
        "pins": [],
        "push_backs": [],
        "actions_spent": {},
        "pending": [],
        "seats": {},
        "webhooks": {},
        "inconsistencies": [],
        "voided": [],
        "rules": {},
    }


def _with_combatant(s: State, cid: str, **changes: Any) -> State:
    c = {**s["combatants"][cid], **changes}
    s["combatants"] = {**s["combatants"], cid: c}
    return s


def _items_changed(s: State, cid: str, item_id: str, change: Callable[[dict], dict | None]) -> bool:
    items = s["combatants"][cid]["items"]
    for i, it in enumerate(items):
        if it.get("id") == item_id:
            new = change(it)
            new_items = list(items[:i]) + ([new] if new is not None else []) + list(items[i + 1 :])
            _with_combatant(s, cid, items=new_items)
            return True
    return False


def _inconsistent(s: State, e: Event, reason: str) -> State:
    s["inconsistencies"] = [*s["inconsistencies"], {"seq": e.seq, "type": e.type, "reason": reason}]
    return s


def _missing(s: State, e: Event, *ids: str | None) -> str | None:
    for cid in ids:
        if cid is not None and cid not in s["combatants"]:
            return f"combatant {cid!r} is not in the encounter"
    return None


def _leave_group(s: State, gid: str, cid: str) -> None:
    g = s["groups"].get(gid)
    if g is None:
        return
    members = [m for m in g["combatants"] if m != cid]
    groups = dict(s["groups"])
    if cid in s["combatants"]:
        _with_combatant(s, cid, group=None)
    if len(members) < 2:
        del groups[gid]
        for m in members:
            if m in s["combatants"]:
                _with_combatant(s, m, group=None)
    else:
        groups[gid] = {**g, "combatants": members}
    s["groups"] = groups


def _core(s: State, e: Event) -> State:
    """Apply a common event to a shallow copy `s` of the state (copy-on-write below the top)."""
    d = e.data
    t = e.type
    if t == "EncounterCreated":
        s.update(
            stream=e.stream,
            name=d["name"],
            ruleset=d["ruleset"],
            ruleset_version=d["ruleset_version"],
            options=d["options"],
            geometry=d["geometry"],
            dice=d["dice"],
            public=d.get("public", False),
            commitment=d["commitment"],
        )
        if d.get("hidden_commitment"):  # streams written before hidden rolls have none, and fold as they did
            s["hidden_commitment"] = d["hidden_commitment"]
    elif t == "RulesetUpgraded":
        s["ruleset_version"] = d["version"]
    elif t == "OptionsChanged":
        s["options"] = {**s["options"], **d["options"]}
    elif t == "EncounterClosed":
        s["closed"] = True
    elif t == "DiceSeedRotated":
        s["commitment"] = d["commitment"]
    elif t == "HiddenRollMade":  # only what the chain shows: the faces stay behind the screen
        roll = {
            "seq": e.seq,
            "expression": d["expression"],
            "purpose": d["purpose"],
            "combatant": d.get("combatant"),
            "entropy": d["entropy"],
            "keyed_command_id": d["keyed_command_id"],
            "revealed": False,
        }
        s["hidden_rolls"] = [*s.get("hidden_rolls", []), roll]
    elif t == "HiddenRollRevealed":
        s["hidden_rolls"] = [
            {**r, "revealed": True} if r["seq"] == d["seq"] else r for r in s.get("hidden_rolls", [])
        ]
    elif t in ("SeatCreated", "SeatChanged"):
        s["seats"] = {
            **s["seats"],
            d["seat"]: {
                "seat": d["seat"],
                "name": d["name"],
                "combatants": list(d["combatants"]),
                "revoked": False,
            },
        }
    elif t == "SeatRevoked":
        if d["seat"] in s["seats"]:
            s["seats"] = {**s["seats"], d["seat"]: {**s["seats"][d["seat"]], "revoked": True}}
        s["webhooks"] = {k: w for k, w in s["webhooks"].items() if w["seat"] != d["seat"]}
    elif t in ("WebhookCreated", "WebhookEnabled"):
        s["webhooks"] = {**s["webhooks"], d["webhook"]: dict(d)}
    elif t in ("WebhookDeleted", "WebhookDisabled"):
        s["webhooks"] = {k: w for k, w in s["webhooks"].items() if k != d["webhook"]}
    elif t == "CombatantJoined":
        c = dict(d)
        c.update(wounds=0, conditions=[], group=None)
        s["combatants"] = {**s["combatants"], d["id"]: c}
    elif t == "CombatantRemoved":
        cid = d["combatant"]
        if cid not in s["combatants"]:
            return _inconsistent(s, e, f"combatant {cid!r} is not in the encounter")
        gid = s["combatants"][cid].get("group")
        if gid:
            _leave_group(s, gid, cid)
        s["combatants"] = {k: v for k, v in s["combatants"].items() if k != cid}
        s["pins"] = [p for p in s["pins"] if cid not in (p["holder"], p["pinned"])]
    elif t == "TurnStarted":
        # A new turn starts in no phase: the GM starts its first one (`start_phase`), as the guides say.
        s.update(turn=d["turn"], phase=None, push_backs=[], actions_spent={})
    elif t == "PhaseStarted":
        s["phase"] = d["phase"]
    elif t == "InitiativeSet":
        s["initiative"] = list(d["order"])
    elif t == "ReactionRequested":
        s["pending"] = [*s["pending"], dict(d)]
        fold_draws(s, e)
    elif t in ("ReactionAnswered", "ReactionCancelled"):
        s["pending"] = [p for p in s["pending"] if p["id"] != d["id"]]
        fold_draws(s, e)
    elif t == "DieRolled":
        fold_draws(s, e)
    elif t == "EventVoided":
        s["voided"] = sorted({*s["voided"], *d["seqs"]})
    elif t == "RulingMade":
        for key, patch in (d.get("overrides") or {}).items():
            if key == "combatants":
                combatants = dict(s["combatants"])
                for cid, cpatch in patch.items():
                    if cid in combatants:
                        combatants[cid] = merge_patch(combatants[cid], cpatch)
                    else:
                        _inconsistent(s, e, f"ruling names combatant {cid!r}, who is not in the encounter")
                s["combatants"] = combatants
            elif key == "rules":
                s["rules"] = merge_patch(s["rules"], patch)
    elif t in _COMBATANT_EVENTS:
        return _combatant_event(s, e)
    return s


def _combatant_event(s: State, e: Event) -> State:
    d = e.data
    t = e.type
    if t in ("PinApplied", "PinHeld", "PinBroken", "PinReleased"):
        missing = _missing(s, e, d["holder"], d["pinned"])
        if missing:
            return _inconsistent(s, e, missing)
        if t == "PinApplied":
            s["pins"] = [p for p in s["pins"] if p["pinned"] != d["pinned"]] + [
                {
                    "holder": d["holder"],
                    "pinned": d["pinned"],
                    "turn": d["turn"],
                    "turns_held": 0,
                    "last_held_turn": d["turn"],
                }
            ]
        elif t == "PinHeld":
            s["pins"] = [
                {**p, "turns_held": p["turns_held"] + 1, "last_held_turn": d["turn"]}
                if p["pinned"] == d["pinned"] and p["holder"] == d["holder"]
                else p
                for p in s["pins"]
            ]
        else:
            s["pins"] = [
                p for p in s["pins"] if not (p["pinned"] == d["pinned"] and p["holder"] == d["holder"])
            ]
        return s
    if t == "CloseCombatJoined":
        missing = _missing(s, e, *d["combatants"])
        if missing:
            return _inconsistent(s, e, missing)
        gid = d["group"]
        old = s["groups"].get(gid)
        members = list(old["combatants"]) if old else []
        members += [m for m in d["combatants"] if m not in members]
        for m in members:
            prev = s["combatants"][m].get("group")
            if prev and prev != gid:
                _leave_group(s, prev, m)
        s["groups"] = {
            **s["groups"],
            gid: {"group": gid, "combatants": members, "at": d["at"], "standing": d["standing"]},
        }
        for m in members:
            _with_combatant(s, m, group=gid)
        return s
    cid = d["combatant"]
    if cid not in s["combatants"]:
        return _inconsistent(s, e, f"combatant {cid!r} is not in the encounter")
    c = s["combatants"][cid]
    if t in ("Moved", "PushedBack", "FollowedUp"):
        changes: dict[str, Any] = {"position": d["to"]}
        if d.get("facing") is not None:
            changes["facing"] = d["facing"]
        _with_combatant(s, cid, **changes)
        if t == "PushedBack":
            s["push_backs"] = [
                *s["push_backs"],
                {"combatant": cid, "from": d.get("from"), "to": d["to"], "distance": d["distance"]},
            ]
    elif t == "PostureChanged":
        _with_combatant(s, cid, posture=d["posture"])
    elif t == "FacingChanged":
        _with_combatant(s, cid, facing=d["facing"])
    elif t == "StandingOrdersSet":
        _with_combatant(s, cid, reactions=dict(d["reactions"]))
    elif t == "Wounded":
        _with_combatant(s, cid, wounds=c["wounds"] + d["amount"])
    elif t == "ConditionChanged":
        conds = [x for x in c["conditions"] if x != d["condition"]]
        if d["on"]:
            conds.append(d["condition"])
        _with_combatant(s, cid, conditions=conds)
    elif t == "ActionSpent":
        s["actions_spent"] = {**s["actions_spent"], cid: d["why"]}
    elif t == "CloseCombatLeft":
        _leave_group(s, d["group"], cid)
    elif t == "ItemDropped":
        if not _items_changed(s, cid, d["item"], lambda it: {**it, "state": "dropped", "at": d["at"]}):
            return _inconsistent(s, e, f"{c['name']} has no item {d['item']!r}")
    elif t == "ItemReadied":
        if not _items_changed(
            s, cid, d["item"], lambda it: {k: v for k, v in it.items() if k != "at"} | {"state": "ready"}
        ):
            return _inconsistent(s, e, f"{c['name']} has no item {d['item']!r}")
    elif t == "ItemPickedUp":
        if not _items_changed(
            s, cid, d["item"], lambda it: {k: v for k, v in it.items() if k != "at"} | {"state": "carried"}
        ):
            owner = next(
                (
                    o
                    for o in s["combatants"]
                    if any(i.get("id") == d["item"] for i in s["combatants"][o]["items"])
                ),
                None,
            )
            if owner is None:
                return _inconsistent(s, e, f"no item {d['item']!r} lies in the encounter")
            item = next(i for i in s["combatants"][owner]["items"] if i.get("id") == d["item"])
            _items_changed(s, owner, d["item"], lambda it: None)
            new = {k: v for k, v in item.items() if k != "at"} | {"state": "carried"}
            _with_combatant(s, cid, items=[*s["combatants"][cid]["items"], new])
    return s


_COMBATANT_EVENTS = frozenset(
    {
        "Moved",
        "PushedBack",
        "FollowedUp",
        "PostureChanged",
        "FacingChanged",
        "StandingOrdersSet",
        "Wounded",
        "ConditionChanged",
        "ActionSpent",
        "CloseCombatLeft",
        "CloseCombatJoined",
        "ItemDropped",
        "ItemReadied",
        "ItemPickedUp",
        "PinApplied",
        "PinHeld",
        "PinBroken",
        "PinReleased",
    }
)


class EventNotFoldable(Exception):
    """A stored event of a type the fold handles cannot be applied: a bug, never a silently wrong state.
    Reads of the encounter answer 500 naming the seq."""

    def __init__(self, event: Event, cause: BaseException):
        super().__init__(
            f"event {event.seq} ({event.type}) of encounter {event.stream} cannot be folded: "
            f"{type(cause).__name__}: {cause}"
        )
        self.stream = event.stream
        self.seq = event.seq
        self.type = event.type


def _mirrored(s: State, stat: str, values: dict[str, Any]) -> State:
    """The combatants' `stats[stat]` set to the ruleset's live values (`Ruleset.live_stats`), so a client
    reading a combatant's stats sees the value the rules use, not the one it joined with."""
    stale = {
        cid: v
        for cid, v in values.items()
        if cid in s["combatants"] and (s["combatants"][cid].get("stats") or {}).get(stat) != v
    }
    if not stale:
        return s
    combatants = dict(s["combatants"])
    for cid, value in stale.items():
        c = combatants[cid]
        combatants[cid] = {**c, "stats": {**(c.get("stats") or {}), stat: value}}
    return {**s, "combatants": combatants}


class Folds(Protocol):
    """What `evolve` asks of a ruleset: its own fold (a `Ruleset`, or rules/working.py's fold of one)."""

    def evolve(self, rules_state: dict[str, Any], event: Event) -> dict[str, Any]: ...


def evolve(state: State, event: Event, ruleset: Folds | None) -> State:
    """The state after one event: the common core, then the ruleset's own part.

    An event whose subject a void removed is recorded in `inconsistencies` (the ruleset says so by
    raising `SubjectGone` from an explicit check); any other failure is `EventNotFoldable`."""
    s = dict(state)
    if (
        "declaration" in event.data
    ):  # the replay audit's record of the command (rules/pipeline.py), not a fact
        event = msgspec.structs.replace(
            event, data={k: v for k, v in event.data.items() if k != "declaration"}
        )
    try:
        s = _core(s, event)
        if ruleset is not None:
            try:
                s["rules"] = ruleset.evolve(s["rules"], event)
            except SubjectGone as gone:
                if not any(i["seq"] == event.seq for i in s["inconsistencies"]):
                    _inconsistent(s, event, gone.reason)
            for stat, kept in getattr(ruleset, "live_stats", {}).items():
                s = _mirrored(s, stat, s["rules"].get(kept) or {})
    except Exception as exc:  # noqa: BLE001 - re-raised, naming the event: a fold bug must be loud
        raise EventNotFoldable(event, exc) from exc
    s["seq"] = event.seq
    s["hash"] = event.hash
    return s


def voided_seqs(events: Iterable[Event], at: int | None = None) -> set[int]:
    """Seqs voided by `EventVoided` events with seq <= at."""
    out: set[int] = set()
    for e in events:
        if e.type == "EventVoided" and (at is None or e.seq <= at):
            out.update(e.data["seqs"])
    return out


def replay(events: list[Event], ruleset_for: Callable[[Event], Any], at: int | None = None) -> State:
    """Fold the stream up to `at`, skipping voided events. `ruleset_for` resolves the ruleset from
    `EncounterCreated` (the first event)."""
    return fold_onto(initial_state(), None, events, ruleset_for, voided_seqs(events, at), at)


def fold_onto(
    state: State,
    ruleset: Ruleset | None,
    events: Iterable[Event],
    ruleset_for: Callable[[Event], Any],
    voided: set[int],
    at: int | None = None,
) -> State:
    """Fold `events` (up to `at`) onto `state`, whose ruleset is `ruleset`, skipping the seqs in `voided`
    (only seq and hash move, as `replay` does): a replay from a snapshot, or one piece of a replay."""
    with gc_paused():  # the fold builds many long-lived objects: see events/gc_pause.py
        for e in events:
            if at is not None and e.seq > at:
                break
            if e.type == "EncounterCreated":
                ruleset = ruleset_for(e)
                state = dict(state)
                state["rules"] = ruleset.initial_state(e.data["options"]) if ruleset else {}
            if e.seq in voided:
                state = {**state, "seq": e.seq, "hash": e.hash}
                if e.type == "DieRolled":  # a voided die's draws stay spent (rules/dice_keys.py)
                    fold_draws(state, e)
                continue
            state = evolve(state, e, ruleset)
    return state
