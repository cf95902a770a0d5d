"""One sentence per event for the log (spec §9), with names, not ids."""

from __future__ import annotations

from typing import Any

from rules.plane import inches, where
from rules.rogue_trader.models import name, unit_name, unit_of

State = dict[str, Any]

ROLL_WORDS = {
    "to_hit": "to hit", "to_hit_second": "the second to-hit die", "to_wound": "to wound", "save": "an armour save",
    "damage": "damage", "initiative_roll_off": "the initiative roll-off", "rout_test": "take a rout test",
    "follow_up_hold": "test to hold instead of following up", "variant": "the devil's variant",
}
PREFIX_WORDS = {"stand_fire_": "stand and fire: ", "free_blow_": "free blow: "}
MOVE_WORDS = {
    "charge": "charges", "run_away": "runs", "push_back": "is pushed back", "follow_up": "follows up",
    "disengage": "breaks off and retreats", "move": "moves",
}
SPENT_WORDS = {
    "failed_charge": "failed to make contact and may do nothing else this turn",
    "opponents_slain": "has slain its opponents and stays where it is this turn",
    "opponent_broke_off": "stays where it is this turn (its opponent broke off)",
    "held_ground": "holds its ground this turn",
    "broke_off": "may not charge, shoot or do anything else this turn",
}


def _mods(mods: list[dict[str, Any]]) -> str:
    if not mods:
        return " (no modifiers)"
    return "".join(f" {m['value']:+d} ({m['reason']})" for m in mods)


def _roll(state: State, d: dict[str, Any]) -> str | None:
    purpose = d.get("purpose", "")
    prefix = next((p for p in PREFIX_WORDS if purpose.startswith(p)), "")
    base = purpose[len(prefix):]
    if base not in ROLL_WORDS:
        return None
    who = name(state, d.get("combatant")) if d.get("combatant") else "The table"
    faces = d.get("faces", [])
    shown = "+".join(str(f) for f in faces)
    if base in ("rout_test", "follow_up_hold"):
        uid = unit_of(state, d["combatant"]) if d.get("combatant") else "?"
        sign = "≤" if d.get("total", 0) <= (d.get("target") or 0) else ">"
        return (f"{unit_name(state, uid)} {ROLL_WORDS[base]}: {shown} = {d.get('total')} {sign} Ld {d.get('target')}"
                f" — {d.get('outcome')}.")
    if base == "initiative_roll_off":
        return f"Initiative roll-off, {d.get('outcome')}: {shown}."
    if base == "damage":
        return f"{PREFIX_WORDS.get(prefix, '').capitalize()}{who} rolls {d.get('notation')} damage = {d.get('total')}."
    target = d.get("target")
    vs = f" vs {target}+" if base != "to_hit" else f" vs {target}"
    total = d.get("total")
    shown_mods = _mods(d.get("modifiers", [])) if (base == "to_hit" or d.get("modifiers")) else ""
    head = f"{PREFIX_WORDS.get(prefix, '').capitalize()}{who} rolls {ROLL_WORDS[base]}: {shown}{shown_mods}"
    if d.get("modifiers"):
        head += f" = {total}"
    note = " (a natural 1 always fails)" if faces == [1] and base != "variant" else ""
    return f"{head}{vs} — {str(d.get('outcome', '')).replace('_', ' ')}{note}."


def describe_event(state: State, event: Any) -> str | None:  # noqa: C901 - one sentence per event type
    """The log sentence for an event of this ruleset (or a common event it uses); None otherwise."""
    t, d = event.type, event.data
    n = lambda cid: name(state, cid)  # noqa: E731
    if t == "DieRolled":
        return _roll(state, d)
    if t == "RtChargeFailed":
        return (f"{n(d['charger'])} fails to reach {n(d['target'])}: {inches(d['needed_in'])} needed, "
                f"{inches(d['reach_in'])} reach.")
    if t == "RtChargeRetargeted":
        return f"{n(d['charger'])} changes target from {n(d['from_target'])} to {n(d['to_target'])}."
    if t == "RtAttacksAllocated":
        parts = [f"{a.get('weapon') or a['attack']} → {n(a['target'])}" for a in d["allocations"]]
        return f"{n(d['combatant'])} allocates attacks for round {d['round']}: {', '.join(parts) or 'none'}."
    if t == "RtStrikeStepStarted":
        waves = " then ".join(", ".join(n(m) for m in w) for w in d["waves"])
        basis = {"charger_first": "chargers strike first", "simultaneous": "simultaneous",
                 "roll_off": "roll-off winners first", "single": "one side"}.get(d["basis"], d["basis"])
        return f"Round {d['round']}, initiative {d['initiative']} ({basis}): {waves} strike."
    if t == "RtAttackResolved":
        words = {"impossible": "cannot hit (needs more than the 7+ chart allows)", "miss": "misses",
                 "no_effect": "hits but cannot wound (no effect)", "no_wound": "hits but does not wound",
                 "saved": "wounds, but the armour saves", "wounded": f"wounds for {d['wounds']}",
                 "target_already_slain": "has no one left to strike (target already slain)"}
        what = d.get("weapon") or d["kind"]
        return f"{n(d['attacker'])}'s {what} attack on {n(d['target'])} {words.get(d['outcome'], d['outcome'])}."
    if t == "RtCombatRoundResolved":
        parts = [f"{unit_name(state, p['unit'])} caused {p['caused']} vs {unit_name(state, p['vs'])} "
                 f"({p['received']} received)" for p in d["pairs"]]
        res = ", ".join(f"{unit_name(state, u)} {r.replace('_', ' ')}" for u, r in d["results"].items())
        return f"Round {d['round']}: {'; '.join(parts)} — {res}."
    if t == "RtPushBackOwed":
        return f"{unit_name(state, d['unit'])} must be pushed back: {', '.join(n(m) for m in d['models'])}."
    if t == "RtFollowUpOwed":
        hold = " (may hold without a test)" if d["may_hold_without_test"] else ""
        return f"{unit_name(state, d['unit'])} must follow up or test to hold{hold}: {', '.join(n(m) for m in d['followers'])}."
    if t == "RtHeldGround":
        return f"{unit_name(state, d['unit'])} hold their ground and stay where they are."
    if t == "RtCoherencyChecked":
        if not d["strays"]:
            return f"{unit_name(state, d['unit'])} is in coherency."
        words = {"stray_rejoin": "can close up next turn and must move toward the unit",
                 "stray_in_combat": "is out of coherency but fighting: ignored until free", "split": "is split off"}
        strays = "; ".join(f"{n(s['model'])} {words.get(s['status'], s['status'])}" for s in d["strays"])
        tie = " The main body is a tie: the GM must rule." if d.get("ruling_owed") else ""
        return f"{unit_name(state, d['unit'])} coherency: {strays}.{tie}"
    if t == "RtUnitSplit":
        return f"{', '.join(n(m) for m in d['models'])} split from {unit_name(state, d['unit'])} and try to rejoin it."
    if t == "RtUnitRejoined":
        return f"{unit_name(state, d['unit'])} rejoins {unit_name(state, d['into'])}."
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
        return f"{n(d['combatant'])} is a {d['variant']} Catachan Devil."
    return _common(state, t, d)


def _common(state: State, t: str, d: dict[str, Any]) -> str | None:
    n = lambda cid: name(state, cid)  # noqa: E731
    if t == "Moved" and d.get("reason") in MOVE_WORDS:
        frm = d.get("from")
        dist = ""
        return f"{n(d['combatant'])} {MOVE_WORDS[d['reason']]}{dist} from {where(frm) if frm else '?'} to {where(d['to'])}."
    if t == "PushedBack":
        return f"{n(d['combatant'])} is pushed back {inches(d['distance'])} to {where(d['to'])}, still facing the same way."
    if t == "FollowedUp":
        return f"{n(d['combatant'])} follows up to {where(d['to'])}."
    if t == "ActionSpent" and d.get("why") in SPENT_WORDS:
        return f"{n(d['combatant'])} {SPENT_WORDS[d['why']]}."
    if t == "ActionDeclared":
        action = d.get("action")
        targets = ", ".join(n(x) for x in d.get("targets", []))
        if action == "charge":
            return f"{n(d['combatant'])} charges {targets} ({inches(d['params'].get('reach', 0))} reach)."
        if action in ("hold", "stand_and_fire", "run_away") and d.get("combatant"):
            turn = " turns to face and" if d.get("params", {}).get("turn_to_face") else ""
            words = {"hold": "holds", "stand_and_fire": "stands and fires", "run_away": "runs away"}[action]
            return f"{n(d['combatant'])}{turn} {words}."
        if action in ("hold", "follow_up", "break_off", "push_back"):
            uid = d.get("params", {}).get("unit", "")
            words = {"hold": "try to hold", "follow_up": "follow up", "break_off": "break off",
                     "push_back": "are pushed back"}[action]
            if d.get("params", {}).get("forced"):
                words = "are carried forward and must follow up"
            return f"{unit_name(state, uid)} {words}."
    if t == "CloseCombatJoined":
        a, b = d["combatants"][:2]
        return f"{n(a)} and {n(b)} are in base contact."
    if t == "CloseCombatLeft":
        return f"{n(d['combatant'])} leaves close combat ({d['how'].replace('_', ' ')})."
    if t == "Wounded":
        return f"{n(d['combatant'])} takes {d['amount']} wound{'s' if d['amount'] != 1 else ''}."
    if t == "ConditionChanged":
        if d["condition"] == "dead" and d["on"]:
            return f"{n(d['combatant'])} is slain."
        return f"{n(d['combatant'])} is {'now' if d['on'] else 'no longer'} {d['condition']}."
    if t == "FacingChanged":
        return f"{n(d['combatant'])} turns to face {d['facing']}°."
    return None
