"""One sentence per event for the log (spec §9), with names, not ids."""

from __future__ import annotations

from typing import Any

from rules.plane import distance, inches, where
from rules.rogue_trader.models import name, unit_members, unit_of
from rules.rogue_trader.options import option
from rules.wording import names_and

State = dict[str, Any]

ROLL_WORDS = {
    "to_hit": "to hit",
    "to_hit_second": "the second to-hit die",
    "to_wound": "to wound",
    "save": "an armour save",
    "damage": "damage",
    "initiative_roll_off": "the initiative roll-off",
    "rout_test": "takes a rout test",
    "follow_up_hold": "tests to hold instead of following up",
    "variant": "the devil's variant",
}
PREFIX_WORDS = {"stand_fire_": "stand and fire: ", "free_blow_": "free blow: "}
MOVE_WORDS = {
    "charge": "charges",
    "run_away": "runs",
    "push_back": "is pushed back",
    "follow_up": "follows up",
    "disengage": "breaks off and retreats",
    "move": "moves",
}
CHARGED_WORDS = {"hold": "hold", "stand_and_fire": "stand and fire", "run_away": "run away"}
SPENT_WORDS = {
    "failed_charge": "failed to make contact and may do nothing else this turn",
    "opponents_slain": "has no opponent left and stays put for the rest of the turn",
    "opponent_broke_off": "stays put for the rest of the turn: the opponent broke off",
    "held_ground": "holds ground for the rest of the turn",
    "broke_off": "may not charge, shoot or do anything else this turn",
}
VARIANT_WORDS = {
    "female": "a female Catachan Devil (no claws)",
    "male": "an adult male Catachan Devil: 2 more claw attacks (D4)",
    "fiddler": "a fiddler Catachan Devil: an adult male whose claws do D6 and D4",
}
PHASE_WORDS = {"movement": "movement", "shooting": "shooting", "close_combat": "close combat", "end": "end"}
LEFT_WORDS = {
    "slain": "is out of the fight",
    "push_back": "is no longer in base contact",
    "rout": "flees the combat",
    "break_off": "breaks away from the combat",
    "follow_up": "steps out of base contact to follow up",
}


def unit_label(state: State, uid: str) -> str:
    """A unit for a sentence: its `unit_name`, else "unit R", in every sentence alike (issue 29 item 8: a lone
    model's unit read as the model's name while it lived and "unit c3" once slain, beside "unit R")."""
    unit = state.get("rules", {}).get("units", {}).get(uid) or {}
    if unit.get("name") and unit["name"] != uid:
        return unit["name"]
    return f"unit {uid}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _mods(mods: list[dict[str, Any]]) -> str:
    if not mods:
        return " (no modifiers)"
    return "".join(f" {m['value']:+d} ({m['reason']})" for m in mods)


def _roll(state: State, d: dict[str, Any]) -> str | None:
    purpose = d.get("purpose", "")
    prefix = next((p for p in PREFIX_WORDS if purpose.startswith(p)), "")
    base = purpose[len(prefix) :]
    if base not in ROLL_WORDS:
        return None
    who = name(state, d.get("combatant")) if d.get("combatant") else "The table"
    faces = d.get("faces", [])
    shown = "+".join(str(f) for f in faces)
    if base in ("rout_test", "follow_up_hold"):
        uid = unit_of(state, d["combatant"]) if d.get("combatant") else "?"
        sign = "≤" if d.get("total", 0) <= (d.get("target") or 0) else ">"
        follows = _test_follows(state, base, str(d.get("outcome")))
        return (
            f"{_cap(unit_label(state, uid))} {ROLL_WORDS[base]}: {shown} = {d.get('total')} {sign} Ld "
            f"{d.get('target')} — {follows}."
        )
    if base == "initiative_roll_off":
        return f"Initiative roll-off, {d.get('outcome')}: {shown}."
    if base == "damage":
        return f"{PREFIX_WORDS.get(prefix, '').capitalize()}{who} rolls {d.get('notation')} damage = {d.get('total')}."
    target = d.get("target")
    vs = f", needs {target}" if target is not None else ""
    total = d.get("total")
    shown_mods = _mods(d.get("modifiers", [])) if (base == "to_hit" or d.get("modifiers")) else ""
    head = f"{PREFIX_WORDS.get(prefix, '').capitalize()}{who} rolls {ROLL_WORDS[base]}: {shown}{shown_mods}"
    if d.get("modifiers"):
        head += f" = {total}"
    note = " (a natural 1 always fails)" if faces == [1] and base != "variant" else ""
    outcome = OUTCOME_WORDS.get(str(d.get("outcome", "")), str(d.get("outcome", "")).replace("_", " "))
    return f"{head}{vs} — {outcome}{note}."


OUTCOME_WORDS = {"six_rolled": "six rolled: a second die decides", "failed": "failed", "no_wound": "no wound"}


def _test_follows(state: State, base: str, outcome: str) -> str:
    """A Ld test's result and what follows from it (§Close Combat Results, §Follow-Ups, §Breaking Off)."""
    if base == "follow_up_hold":
        return "holds: it stays where it is" if outcome == "hold" else "fails: it must follow up"
    breaking_off = state.get("phase") == "movement"
    if outcome == "pass":
        return "passes: it retreats at double pace" if breaking_off else "passes: no rout"
    return "fails: the retreat turns into a rout" if breaking_off else "fails: it routs and flees"


def describe_event(state: State, event: Any) -> str | None:  # noqa: C901 - one sentence per event type
    """The log sentence for an event of this ruleset (or a common event it uses); None otherwise."""
    t, d = event.type, event.data
    n = lambda cid: name(state, cid)  # noqa: E731
    if t == "DieRolled":
        return _roll(state, d)
    if t == "RtChargeFailed":
        return (
            f"{n(d['charger'])} fails to reach {n(d['target'])}: {inches(d['needed_in'])} needed, "
            f"{inches(d['reach_in'])} reach."
        )
    if t == "RtChargeRetargeted":
        return f"{n(d['charger'])} changes target from {n(d['from_target'])} to {n(d['to_target'])}."
    if t == "RtAttacksAllocated":
        parts = [f"{a.get('weapon') or a['attack']} → {n(a['target'])}" for a in d["allocations"]]
        return f"{n(d['combatant'])} allocates attacks for round {d['round']}: {', '.join(parts) or 'none'}."
    if t == "RtStrikeStepStarted":
        waves = [names_and([n(m) for m in w]) for w in d["waves"]]
        verb = "strikes" if sum(len(w) for w in d["waves"]) == 1 else "strike"
        if d["basis"] == "charger_first" and len(waves) > 1:
            return (
                f"Round {d['round']}, initiative {d['initiative']}: the chargers strike first ({waves[0]}), "
                f"then {' then '.join(waves[1:])}."
            )
        if d["basis"] == "roll_off" and len(waves) > 1:
            return (
                f"Round {d['round']}, initiative {d['initiative']}: the roll-off winners strike first "
                f"({waves[0]}), then {' then '.join(waves[1:])}."
            )
        together = " at the same time (equal initiative)" if d["basis"] == "simultaneous" else ""
        return f"Round {d['round']}, initiative {d['initiative']}: {' then '.join(waves)} {verb}{together}."
    if t == "RtAttackResolved":
        return _attack_sentence(state, d)
    if t == "RtCombatRoundResolved":
        return _round_sentence(state, d)
    if t == "RtPushBackOwed":
        return f'{names_and([n(m) for m in d["models"]])} must be pushed back 2" (the round was lost).'
    if t == "RtFollowUpOwed":
        hold = (
            "; behind an obstacle or in a prepared position, it may hold without a test"
            if d["may_hold_without_test"]
            else ", unless it passes a Ld test to hold"
        )
        return (
            f"{_cap(unit_label(state, d['unit']))} must follow up ({names_and([n(m) for m in d['followers']])})"
            f"{hold}."
        )
    if t == "RtHeldGround":
        tested = "" if d.get("tested") else " (no test needed)"
        return f"{_cap(unit_label(state, d['unit']))} holds ground{tested} and stays put for the rest of the turn."
    if t == "RtCoherencyChecked":
        if not d["strays"]:
            return f'{_cap(unit_label(state, d["unit"]))} is in coherency (each model within 2" of another).'
        words = {
            "stray_rejoin": "can close up next turn and must move toward the unit",
            "stray_in_combat": "is out of coherency but fighting: ignored until free",
            "split": "is split off",
        }
        strays = "; ".join(f"{n(s['model'])} {words.get(s['status'], s['status'])}" for s in d["strays"])
        tie = " The main body is a tie: the GM must rule." if d.get("ruling_owed") else ""
        return f"{_cap(unit_label(state, d['unit']))} coherency: {strays}.{tie}"
    if t == "RtUnitSplit":
        verb = "splits" if len(d["models"]) == 1 else "split"
        return (
            f"{names_and([n(m) for m in d['models']])} {verb} from {unit_label(state, d['unit'])}, with no orders "
            "but to rejoin it."
        )
    if t == "RtUnitRejoined":
        return f"{_cap(unit_label(state, d['unit']))} rejoins {unit_label(state, d['into'])}."
    if t == "RtSituationSet":
        bits = []
        if d["uphill_over"]:
            bits.append("uphill of " + ", ".join(n(x) for x in d["uphill_over"]))
        if d["behind_obstacle"]:
            bits.append("behind a defended obstacle")
        if d["prepared_position"]:
            bits.append("in a prepared position")
        if not d["living"]:
            bits.append("not living")
        return f"{n(d['combatant'])}: {', '.join(bits) or 'no special situation'}."
    if t == "RtCreatureVariantDetermined":
        return f"{n(d['combatant'])} is {VARIANT_WORDS.get(d['variant'], 'a ' + d['variant'] + ' Catachan Devil')}."
    return _common(state, t, d)


def _common(state: State, t: str, d: dict[str, Any]) -> str | None:
    n = lambda cid: name(state, cid)  # noqa: E731
    if t == "Moved" and d.get("reason") in MOVE_WORDS:
        frm = d.get("from")
        dist = f" {inches(distance(frm, d['to']))}" if frm else ""
        return f"{n(d['combatant'])} {MOVE_WORDS[d['reason']]}{dist} from {where(frm) if frm else '?'} to {where(d['to'])}."
    if t == "PhaseStarted" and d.get("phase") in PHASE_WORDS:
        return f"The {PHASE_WORDS[d['phase']]} phase begins."
    if t == "ReactionRequested" and d.get("kind") == "charged":
        who = "the GM" if d.get("asked_of") == "gm" else _seat_name(state, d.get("asked_of"))
        words = [CHARGED_WORDS.get(o, o) for o in d.get("options", [])]
        choices = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)
        return (
            f"{n(d.get('combatant'))} is charged and may {choices}; {who} answers "
            f"(default: {CHARGED_WORDS.get(d.get('default', ''), d.get('default'))})."
        )
    if t == "ReactionAnswered" and (pending := _pending(state, d["id"])) and pending.get("kind") == "charged":
        by, who = str(d.get("by", "")), n(pending.get("combatant"))
        choice = CHARGED_WORDS.get(d["choice"], d["choice"])
        if by == "gm":
            return f"The GM answers the charge for {who}: {choice}."
        if by.startswith("seat:"):
            return f"{who}'s player answers the charge: {choice}."
        return f"{who}'s standing order answers the charge: {choice}."
    if t == "ReactionRequested" and d.get("kind") == "push_back_stop":
        r = d.get("resume") or {}
        return (
            f"{n(r.get('model'))}'s push-back would run into {n(r.get('blocker'))} after "
            f"{inches(r.get('meets_after', 0))}: the GM says where {n(r.get('model'))} stops."
        )
    if (
        t == "ReactionAnswered"
        and (pending := _pending(state, d["id"]))
        and pending.get("kind") == "push_back_stop"
    ):
        who = n((pending.get("resume") or {}).get("model"))
        if d["choice"] == "place":
            return f"The GM sets {who} down at {where((d.get('params') or {}).get('to') or [0, 0])}."
        return f"The GM rules that {who} stops where its base meets the model in its way."
    if t == "PushedBack":
        return f"{n(d['combatant'])} is pushed back {inches(d['distance'])} to {where(d['to'])}, still facing the same way."
    if t == "FollowedUp":
        return f"{n(d['combatant'])} follows up to {where(d['to'])}."
    if t == "ActionSpent" and d.get("why") in SPENT_WORDS:
        return f"{n(d['combatant'])} {SPENT_WORDS[d['why']]}."
    if t == "ActionDeclared":
        action = d.get("action")
        targets = names_and([n(x) for x in d.get("targets", [])])
        params = d.get("params") or {}
        if action == "charge":
            return f"{n(d['combatant'])} declares a charge at {targets} (reach {inches(params.get('reach', 0))})."
        if action in ("hold", "stand_and_fire", "run_away") and d.get("combatant"):
            turn = " turns to face the charger and" if params.get("turn_to_face") else ""
            words = {
                "hold": "holds",
                "stand_and_fire": f"stands and fires at {targets}"
                + (f" with the {params['weapon']}" if params.get("weapon") else "")
                + " (hurried: -1 to hit)",
                "run_away": f"runs away from {targets}",
            }[action]
            return f"{n(d['combatant'])}{turn} {words}."
        if action in ("hold", "follow_up", "break_off", "push_back"):
            uid = params.get("unit", "")
            words = {
                "hold": "tries to hold ground",
                "follow_up": "follows up",
                "break_off": "breaks off",
                "push_back": 'falls back 2"',
            }[action]
            if params.get("forced"):
                words = "is carried forward by the fight and must follow up"
            return f"{_cap(unit_label(state, uid))} {words}."
    if t == "CloseCombatJoined":
        a, b = d["combatants"][:2]
        return f"{n(a)} is in base contact with {n(b)}: both fight in the close combat phase."
    if t == "CloseCombatLeft":
        return f"{n(d['combatant'])} {LEFT_WORDS.get(d['how'], 'leaves close combat')}."
    if t == "Wounded":
        return f"{n(d['combatant'])} takes {d['amount']} wound{'s' if d['amount'] != 1 else ''}."
    if t == "ConditionChanged":
        if d["condition"] == "dead" and d["on"]:
            return f"{n(d['combatant'])} is slain."
        return f"{n(d['combatant'])} is {'now' if d['on'] else 'no longer'} {d['condition']}."
    if t == "FacingChanged":
        return f"{n(d['combatant'])} turns to face {d['facing']}°."
    return None


def _seat_name(state: State, seat: str | None) -> str:
    seats = state.get("seats") or {}
    found = seats.get(seat) if isinstance(seats, dict) else None
    return f"{found['name']}'s seat" if isinstance(found, dict) and found.get("name") else "the player"


# Leaving close combat that the sentence before already says: slain, pushed back, broken off.
TOLD_LEAVING = frozenset({"slain", "push_back", "break_off"})


def is_aside(state: State, t: str, d: dict[str, Any]) -> bool:
    """Bookkeeping a forum export folds into the sentence that already says it: the move of a push-back or
    follow-up (PushedBack / FollowedUp name the same hexes), leaving a fight one was slain, pushed back or broke
    off from, a slain model taken off the table, staying put after holding ground, a unit found in coherency,
    and the answer to a charge (the target's declared hold, fire or run says it)."""
    if t == "Moved":
        return d.get("reason") in ("push_back", "follow_up")
    if t == "CloseCombatLeft":
        return d.get("how") in TOLD_LEAVING
    if t == "CombatantRemoved":
        c = state.get("combatants", {}).get(d.get("combatant")) or {}
        return "dead" in (c.get("conditions") or [])
    if t == "ActionSpent":
        return d.get("why") == "held_ground"
    if t == "RtCoherencyChecked":
        return not d.get("strays") and not d.get("ruling_owed")
    if t == "ReactionAnswered":
        return (_pending(state, d["id"]) or {}).get("kind") == "charged"
    return False


def _pending(state: State, rid: str) -> dict[str, Any] | None:
    return next((p for p in state.get("pending", []) if p.get("id") == rid), None)


def _attack_sentence(state: State, d: dict[str, Any]) -> str:
    """One attack's whole account: what struck whom, each need and how it was reached, what came of it."""
    n = lambda cid: name(state, cid)  # noqa: E731
    what = d.get("weapon") or ("improvised attack" if d["kind"] == "improvised" else d["kind"])
    who, whom = n(d["attacker"]), n(d["target"])
    hit = f" ({d['hit_from']})" if d.get("hit_from") else ""
    wound = f" ({d['wound_from']})" if d.get("wound_from") else ""
    words = {
        "impossible": f"cannot hit {whom}{hit}: the need is beyond the 7+ chart",
        "miss": f"misses {whom}{hit}",
        "no_effect": f"hits {whom}{hit} but cannot wound{wound}: no effect",
        "no_wound": f"hits {whom}{hit} but does not wound{wound}",
        "saved": f"hits {whom}{hit} and wounds{wound}, but the armour saves",
        "wounded": f"hits {whom}{hit} and wounds{wound}: {d['wounds']} wound{'s' if d['wounds'] != 1 else ''}",
        "target_already_slain": f"has no one left to strike ({whom} is already slain)",
    }
    return f"{who}'s {what} {words.get(d['outcome'], d['outcome'].replace('_', ' '))}."


def _round_sentence(state: State, d: dict[str, Any]) -> str:
    """§Close Combat Results: wounds caused and received per unit, who won, and what follows."""
    caused: dict[str, int] = {}
    received: dict[str, int] = {}
    for p in d["pairs"]:
        caused[p["unit"]] = caused.get(p["unit"], 0) + p["caused"]
        received[p["unit"]] = received.get(p["unit"], 0) + p["received"]
    results = d["results"]
    order = sorted(results, key=lambda u: (results[u] != "won", u))
    tally = "; ".join(
        f"{unit_label(state, u)} caused {caused.get(u, 0)} wound{'s' if caused.get(u, 0) != 1 else ''} "
        f"and took {received.get(u, 0)}"
        for u in order
    )
    won = [unit_label(state, u) for u in order if results[u] == "won"]
    # A unit wiped out in the round has no model left to test or push back (it is gone: nothing follows).
    gone = {u for u in state.get("rules", {}).get("units", {}) if not unit_members(state, u)}
    wiped = [unit_label(state, u) for u in order if results[u] == "lost" and u in gone]
    lost = [unit_label(state, u) for u in order if results[u] == "lost" and u not in gone]
    messy = [unit_label(state, u) for u in order if results[u] == "messy_draw"]
    follows = []
    if won:
        follows.append(f"{names_and(won)} {'wins' if len(won) == 1 else 'win'} the round")
    if lost:
        then = "must take a rout test" if option(state, "rout_test_on_loss") else "must be pushed back"
        follows.append(f"{names_and(lost)} {'loses' if len(lost) == 1 else 'lose'} it and {then}")
    if wiped:
        follows.append(
            f"{names_and(wiped)} {'is' if len(wiped) == 1 else 'are'} wiped out: no rout test follows"
        )
    if messy:
        follows.append(f"{names_and(messy)} both won and lost: a messy draw, staying in place")
    if not follows:
        follows.append("a draw: nobody is pushed back")
    return f"Round {d['round']}: {tally} — {'; '.join(follows)}."
