"""The log sentences of gurps events (spec section 7), in the seed's words: names, never ids or a
guessed pronoun; no internal names; every target shown as it was reached ("DX 12 + 5 (from behind)
= 17"); every contest saying who won and what follows."""

from __future__ import annotations

from typing import Any

from rules.gurps.combatant_stats import is_lying, name
from rules.hexes import neighbour
from rules.wording import names_and

# What each of our DieRolled purposes is for, in words, and what the roll's base score is.
ROLL_PURPOSES: dict[str, tuple[str, str]] = {
    "evade": ("the evade", "DX"),
    "evade_resist": ("stopping the evader", "DX"),
    "attack": ("the attack", "skill"),
    "grapple": ("the grapple", "skill"),
    "dodge": ("a dodge", "Dodge"),
    "parry": ("a parry", "Parry"),
    "block": ("a block", "Block"),
    "damage": ("damage", ""),
    "ready": ("readying in close combat", "DX"),
    "fast_draw": ("Fast-Draw", "Fast-Draw"),
    "drop_shield": ("getting rid of the shield", "DX"),
    "takedown": ("the takedown", "score"),
    "takedown_resist": ("resisting the takedown", "score"),
    "pin": ("the pin", "score"),
    "pin_resist": ("resisting the pin", "score"),
    "break_free": ("breaking free", "score"),
    "break_free_resist": ("keeping hold", "score"),
}

MANEUVER_WORDS: dict[str, str] = {
    "do_nothing": "Do Nothing",
    "move": "Move",
    "change_posture": "Change Posture",
    "aim": "Aim",
    "evaluate": "Evaluate",
    "attack": "Attack",
    "feint": "Feint",
    "all_out_attack": "All-Out Attack",
    "move_and_attack": "Move and Attack",
    "all_out_defense": "All-Out Defense",
    "concentrate": "Concentrate",
    "ready": "Ready",
    "wait": "Wait",
}

CONTEST_WORDS: dict[str, str] = {
    "evade": "DX (evade)",
    "takedown": "the takedown",
    "pin": "the pin",
    "break_free": "breaking free",
}

# How a figure left a close combat (CloseCombatLeft.how), as the verb of the sentence.
LEAVING_WORDS: dict[str, str] = {
    "move": "moves out of the close combat",
    "step": "steps out of the close combat",
    "retreat": "retreats out of the close combat",
    "evade": "leaves the close combat past the foe",
    "thrown": "is thrown out of the close combat",
    "held": "is pulled back out of the close combat by a grapple",
    "stopped": "is stopped and falls back out of the close combat",
    "moved": "is moved out of the close combat by the GM",
    "placed": "is placed out of the close combat by the GM",
}

# GrappleReleased.why of version-1 streams, with a pronoun guessed, and what they say now.
OLD_WHY: dict[str, str] = {
    "he was taken down": "taken down",
    "his takedown failed": "the takedown failed",
    "he left the hex": "left the hex",
}


def _hex(h: Any) -> str:
    return f"[{h[0]}, {h[1]}]" if isinstance(h, list) and len(h) == 2 else str(h)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word.endswith("x") else f"{n} {word}s"


def reached(base_label: str, base: int, mods: list[dict[str, Any]], target: int) -> str:
    """ "DX 12 + 5 (foe lying down) − 2 (shield) = 15", or "DX 12" with no modifier."""
    head = f"{base_label} {base}".strip()
    if not mods:
        return head
    adds = "".join(f" {'+' if m['value'] >= 0 else '−'} {abs(m['value'])} ({m['reason']})" for m in mods)
    return f"{head}{adds} = {target}"


def describe_roll(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    """ "Ana rolls 3d6 for the evade: [4, 5, 3] = 12 vs DX 12 + 5 (foe lying down) + 5 (from behind)
    = 22 — success by 10"."""
    known = ROLL_PURPOSES.get(d.get("purpose", ""))
    if known is None:
        return None
    what, label = known
    who = name(state, d.get("combatant"))
    faces = ", ".join(str(f) for f in d["faces"])
    mods = d.get("modifiers") or []
    if d.get("target") is None:
        adds = "".join(f" {'+' if m['value'] >= 0 else '−'} {abs(m['value'])} ({m['reason']})" for m in mods)
        return f"{who} rolls {d['notation']} for {what}: [{faces}]{adds} = {d['total']} — {d['outcome']}."
    base = d["target"] - sum(m["value"] for m in mods)
    return (
        f"{who} rolls {d['notation']} for {what}: [{faces}] = {d['total']} vs "
        f"{reached(label, base, mods, d['target'])} — {d['outcome']}."
    )


def _contest(n: Any, d: dict[str, Any]) -> str:
    """Who won the Quick Contest and what follows (the acting side is listed first)."""
    sides = d["sides"]
    first, second = sides[0]["combatant"], sides[1]["combatant"]
    rolls = "; ".join(
        f"{n(s['combatant'])} {s['roll']} vs {s['effective']}, "
        f"{'success' if s['success'] else 'failure'} by {abs(s['margin'])}"
        for s in sides
    )
    kind = d["kind"]
    winner = d["winner"]
    won = f"{n(winner)} wins by {d['margin_of_victory']}" if winner else "A tie"
    acting_won = winner == first
    follows = {
        "evade": (f"{n(first)} gets past {n(second)}" if acting_won else f"{n(first)} is stopped"),
        "takedown": (
            f"{n(second)} is taken down"
            if acting_won
            else f"the takedown fails and {n(first)} falls"
            if winner
            else "nothing happens"
        ),
        "pin": f"{n(second)} is pinned" if acting_won else "no pin",
        "break_free": (
            f"{n(first)} breaks free of {n(second)}" if acting_won else f"{n(first)} is still held"
        ),
    }.get(kind, "")
    return f"Quick Contest of {CONTEST_WORDS.get(kind, kind.replace('_', ' '))}: {rolls}. {won}" + (
        f": {follows}." if follows else "."
    )


def _declared(state: dict[str, Any], n: Any, d: dict[str, Any]) -> str | None:
    who, action = n(d.get("combatant")), d["action"]
    targets = d.get("targets") or []
    target = names_and([n(t) for t in targets]) if targets else "someone"
    extra = d.get("params") or {}
    helpers = extra.get("helpers") or []
    helped = f", helped by {names_and([n(h) for h in helpers])}" if helpers else ""
    return {
        "close_combat_attack": f"{who} attacks {target} with the {extra.get('weapon')}.",
        "step_out_attack": f"{who} steps out of the hex to {_hex(extra.get('to'))} and strikes at {target} "
        f"with the {extra.get('weapon')}.",
        "grapple": f"{who} tries to grapple {target}.",
        "takedown": f"{who} tries to take {target} down{helped}.",
        "pin": f"{who} tries to pin {target}{helped}.",
        "break_free": f"{who} tries to break free of {target}.",
    }.get(action)


def _half(n: Any, d: dict[str, Any]) -> str:
    toward = _hex(list(neighbour(d["hex"], d["entry_edge"])))
    if d.get("declared_adjacent"):
        return f"{n(d['combatant'])} declares close combat from the next hex, on the half of {_hex(d['hex'])} toward {toward}."
    return f"{n(d['combatant'])} holds the half of {_hex(d['hex'])} toward {toward}."


def _joined(state: dict[str, Any], n: Any, d: dict[str, Any]) -> str:
    """Who is in the close combat, and which of them lie on the ground (a fall comes before the event)."""
    members = list(d["combatants"])
    lying = [m for m in members if is_lying(state["combatants"].get(m) or {})]
    where = f" at {_hex(d.get('at'))}" if d.get("at") is not None else ""
    verb = "is" if len(members) == 1 else "are"
    if lying and len(lying) == len(members):
        return f"{names_and([n(m) for m in members])} {verb} in close combat on the ground{where}."
    down = (
        f"; {names_and([n(m) for m in lying])} {'is' if len(lying) == 1 else 'are'} on the ground"
        if lying
        else ""
    )
    return f"{names_and([n(m) for m in members])} {verb} in close combat{where}{down}."


def _moved(n: Any, d: dict[str, Any]) -> str | None:
    who, to, came = n(d["combatant"]), _hex(d["to"]), _hex(d.get("from"))
    return {
        "evade": f"{who} goes on past, from {came} to {to}.",
        "disengage": f"{who} moves from {came} to {to}.",
        "thrown": f"{who} lands in {to}.",
        "held": f"{who} is caught by the grapple and pulled back from {came} into {to}.",
    }.get(d.get("reason", "move"))


def _question(state: dict[str, Any], n: Any, d: dict[str, Any]) -> str | None:
    if d["kind"] not in ("evade_stop", "defence", "fall_hex", "gm_ruling"):
        return None
    asked = (
        "The GM"
        if d["asked_of"] == "gm"
        else (state["seats"].get(d["asked_of"]) or {}).get("name", d["asked_of"])
    )
    about = f" (for {n(d['combatant'])})" if d.get("combatant") and d["asked_of"] == "gm" else ""
    return f"{asked} is asked{about}: {d['question']} (default: {d['default'].replace('_', ' ')})."


def describe_event(state: dict[str, Any], t: str, d: dict[str, Any]) -> str | None:
    """One sentence for one event (None for events we leave to the engine)."""
    n = lambda cid: name(state, cid)  # noqa: E731 - short local alias keeps the table readable
    if t == "ManeuverChosen":
        m = MANEUVER_WORDS.get(d["maneuver"], d["maneuver"])
        return f"{n(d['combatant'])} takes {'an' if m[0] in 'AE' else 'a'} {m} maneuver: {_plural(d['movement'], 'hex')} of movement."
    if t == "GurpsMovementUsed":
        extra = f" plus {d['extra_cost']} for turning or sidestepping" if d["extra_cost"] else ""
        if d.get("stopped"):
            return f"{n(d['combatant'])} stops there: {_plural(d['hexes'], 'hex')}{extra} used, the rest of the movement lost."
        return (
            f"{n(d['combatant'])} has used {_plural(d['hexes'], 'hex')} of movement{extra}, {d['left']} left."
        )
    if t == "HalfHexTaken":
        return _half(n, d)
    if t == "EvadeChallenged":
        return f"{n(d['mover'])} tries to go past {n(d['foe'])} in {_hex(d['at'])}, approaching {_approach(n(d['foe']), d['approach'])}."
    if t == "EvadeAnswered":
        if d["stop"]:
            return f"{n(d['foe'])} tries to stop {n(d['mover'])}: a Quick Contest of DX."
        return f"{n(d['foe'])} lets {n(d['mover'])} pass: no roll."
    if t == "EvadeStopped":
        return f"{n(d['foe'])} gets in the way: {n(d['mover'])} is stopped in {_hex(d['at'])}."
    if t == "QuickContestResolved":
        return _contest(n, d)
    if t == "GurpsDefenceAwaited":
        block = "" if "block" in d["options"] else " (no block in close combat)"
        # A grapple is its own weapon: "Bram's grapple hits", not "Bram's grapple with the grapple hits".
        weapon = f" with the {d['weapon']}" if d.get("weapon") and d["weapon"] != d["attack"] else ""
        return (
            f"{n(d['attacker'])}'s {d['attack']}{weapon} hits; {n(d['target'])} may "
            f"{' or '.join(d['options'])}{block}."
        )
    if t == "Grappled":
        return f"{n(d['grappler'])} grapples {n(d['target'])}: -4 DX, and no leaving the hex until breaking free."
    if t == "GrappleReleased":
        why = OLD_WHY.get(d.get("why", ""), d.get("why", ""))
        return f"{n(d['grappler'])} no longer grapples {n(d['target'])}" + (f" ({why})." if why else ".")
    if t == "AssistCommitted":
        cost = (
            f"; {n(d['helper'])}'s turn {d['owed_turn']} is spent helping"
            if d.get("owed_turn") is not None
            else ""
        )
        return f"{n(d['helper'])} helps {n(d['lead'])}'s {d['action'].replace('_', ' ')} on {n(d['target'])}{cost}."
    if t == "DieRolled":
        return describe_roll(state, d)
    if t == "ActionDeclared":
        return _declared(state, n, d)
    if t == "ActionSpent":
        why = d.get("why") or "turn over"
        why = why.replace("dropped his shield", "dropped the shield").replace("his shield", "the shield")
        return (
            f"{n(d['combatant'])}'s turn is over."
            if why == "turn over"
            else f"{n(d['combatant'])}'s turn is over: {why}."
        )
    if t == "CloseCombatJoined":
        return _joined(state, n, d)
    if t == "CloseCombatLeft":
        if d["how"] == "no foe left":
            return f"{n(d['combatant'])} is no longer in close combat: no foe is left in the hex."
        verb = LEAVING_WORDS.get(d["how"])
        return f"{n(d['combatant'])} {verb}." if verb else None
    if t == "Moved":
        return _moved(n, d)
    if t == "ItemReadied":
        return f"{n(d['combatant'])} readies the {d['item']}."
    if t == "FacingChanged":
        foes = _foes_beside(state, d["combatant"])
        return f"{n(d['combatant'])} turns to face {names_and([n(f) for f in foes])}." if foes else None
    if t == "ReactionRequested":
        return _question(state, n, d)
    return None


def _foes_beside(state: dict[str, Any], cid: str) -> list[str]:
    """Foes in his close-combat hex."""
    for h in (state.get("rules") or {}).get("hexes", {}).values():
        if cid in h["occupants"]:
            side = state["combatants"][cid]["side"]
            return [
                o
                for o in h["occupants"]
                if o in state["combatants"] and state["combatants"][o]["side"] != side
            ]
    return []


def _approach(foe: str, approach: str) -> str:
    return {
        "front": "from the front",
        "left": f"from {foe}'s left side",
        "right": f"from {foe}'s right side",
        "back": "from behind",
    }.get(approach, approach)


# Our reactions, whose question and answer the events around them already tell.
TOLD_REACTIONS = frozenset({"evade_stop", "defence"})


def is_aside(state: dict[str, Any], t: str, d: dict[str, Any]) -> bool:
    """Bookkeeping that a forum export folds into the action's own sentence: the halves of a hex
    (the join and the move say it), movement points left, a turn that ends because the next figure
    chose, and the questions and answers the evade and defence sentences already give."""
    if t in ("HalfHexTaken",):
        return True
    if t == "GurpsMovementUsed":
        return not d.get("stopped")
    if t == "ActionSpent":
        return (d.get("why") or "turn over") == "turn over"
    if t == "ReactionRequested":
        return d.get("kind") in TOLD_REACTIONS
    if t == "ReactionAnswered":
        pending = next((p for p in state.get("pending", []) if p["id"] == d["id"]), None)
        return pending is not None and pending.get("kind") in TOLD_REACTIONS and not d.get("params")
    return False
