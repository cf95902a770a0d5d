"""The log sentences of gurps events (spec section 7), with names, never ids."""

from __future__ import annotations

from typing import Any

from rules.gurps.combatant_stats import name

# What each of our DieRolled purposes is for, in words.
ROLL_PURPOSES: dict[str, str] = {
    "evade": "the evade (DX)",
    "evade_resist": "stopping the evader (DX)",
    "attack": "a close-combat attack",
    "grapple": "a grapple",
    "dodge": "a dodge",
    "parry": "a parry",
    "damage": "damage",
    "ready": "readying in close combat (DX)",
    "fast_draw": "Fast-Draw",
    "drop_shield": "getting rid of his shield (DX)",
    "takedown": "a takedown",
    "takedown_resist": "resisting the takedown",
    "pin": "a pin",
    "pin_resist": "resisting the pin",
    "break_free": "breaking free",
    "break_free_resist": "keeping his hold",
}

MANEUVER_WORDS: dict[str, str] = {
    "do_nothing": "Do Nothing", "move": "Move", "change_posture": "Change Posture", "aim": "Aim",
    "evaluate": "Evaluate", "attack": "Attack", "feint": "Feint", "all_out_attack": "All-Out Attack",
    "move_and_attack": "Move and Attack", "all_out_defense": "All-Out Defense", "concentrate": "Concentrate",
    "ready": "Ready", "wait": "Wait",
}


def _signed(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)


def _hex(h: Any) -> str:
    return f"[{h[0]}, {h[1]}]" if isinstance(h, list) and len(h) == 2 else str(h)


def describe_roll(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    """"Ana rolls 3d6 for the evade (DX): [4, 5, 3] = 12 vs 22 (base 12, +5 from behind, +5 foe lying
    down) — success by 10"."""
    what = ROLL_PURPOSES.get(d.get("purpose", ""))
    if what is None:
        return None
    who = name(state, d.get("combatant"))
    faces = ", ".join(str(f) for f in d["faces"])
    mods = d.get("modifiers") or []
    if d.get("target") is None:
        adds = "".join(f" {_signed(m['value'])} ({m['reason']})" for m in mods)
        text = f"{who} rolls {d['notation']} for {what}: [{faces}]{adds} = {d['total']} — {d['outcome']}"
    else:
        base = d["target"] - sum(m["value"] for m in mods)
        parts = [f"base {base}"] + [f"{_signed(m['value'])} {m['reason']}" for m in mods]
        text = (f"{who} rolls {d['notation']} for {what}: [{faces}] = {d['total']} vs {d['target']} "
                f"({', '.join(parts) if mods else f'base {base}, no modifiers'}) — {d['outcome']}")
    return text + "."


def describe_event(state: dict[str, Any], t: str, d: dict[str, Any]) -> str | None:
    """One sentence for one of our events (None for events we leave to the engine)."""
    n = lambda cid: name(state, cid)  # noqa: E731 - short local alias keeps the table readable
    if t == "ManeuverChosen":
        return (f"Turn {d['turn']}: {n(d['combatant'])} takes {MANEUVER_WORDS.get(d['maneuver'], d['maneuver'])}"
                f" (movement {d['movement']}).")
    if t == "GurpsMovementUsed":
        extra = f" plus {d['extra_cost']} for turning or sidestepping" if d["extra_cost"] else ""
        stop = ", and stops: the rest of his movement is lost" if d.get("stopped") else ""
        return f"{n(d['combatant'])} uses {d['hexes']} hex(es) of movement{extra}{stop}; {d['left']} left."
    if t == "HalfHexTaken":
        if d.get("declared_adjacent"):
            return (f"{n(d['combatant'])} declares himself in close combat from the next hex, "
                    f"on the half of {_hex(d['hex'])} toward his own hex.")
        if d.get("moved_in"):
            return f"{n(d['combatant'])} enters {_hex(d['hex'])} and takes the near half (edge {d['entry_edge']})."
        return f"{n(d['combatant'])} holds the other half of {_hex(d['hex'])} (edge {d['entry_edge']})."
    if t == "EvadeChallenged":
        return f"{n(d['mover'])} tries to go past {n(d['foe'])} in {_hex(d['at'])}, approaching {_approach(d['approach'])}."
    if t == "EvadeAnswered":
        if d["stop"]:
            return f"{n(d['foe'])} tries to stop {n(d['mover'])}: a Quick Contest of DX."
        return f"{n(d['foe'])} lets {n(d['mover'])} pass: no roll."
    if t == "EvadeStopped":
        return f"{n(d['foe'])} gets in the way: {n(d['mover'])} is stopped in close combat at {_hex(d['at'])}."
    if t == "QuickContestResolved":
        sides = "; ".join(
            f"{n(s['combatant'])} {s['roll']} vs {s['effective']}, "
            f"{'success' if s['success'] else 'failure'} by {abs(s['margin'])}" for s in d["sides"])
        if d["winner"] is None:
            return f"Quick Contest ({d['kind']}): {sides}. A tie: nobody wins."
        return f"Quick Contest ({d['kind']}): {sides}. {n(d['winner'])} wins by {d['margin_of_victory']}."
    if t == "GurpsDefenceAwaited":
        return (f"{n(d['attacker'])}'s {d['attack']} with the {d['weapon']} hits; {n(d['target'])} may "
                f"{' or '.join(d['options'])} (no block in close combat).")
    if t == "Grappled":
        return f"{n(d['grappler'])} grapples {n(d['target'])}: -4 DX, and he cannot leave the hex until he breaks free."
    if t == "GrappleReleased":
        why = f" ({d['why']})" if d.get("why") else ""
        return f"{n(d['grappler'])} no longer grapples {n(d['target'])}{why}."
    if t == "AssistCommitted":
        cost = (f"; his turn {d['owed_turn']} is spent helping" if d.get("owed_turn") is not None else "")
        return f"{n(d['helper'])} helps {n(d['lead'])}'s {d['action']} on {n(d['target'])}{cost}."
    if t == "DieRolled":
        return describe_roll(state, d)
    return None


def _approach(approach: str) -> str:
    return {"front": "from the front", "left": "from his left side", "right": "from his right side",
            "back": "from behind"}.get(approach, approach)
