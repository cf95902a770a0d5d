"""One log sentence per skirmish event, with names, not ids (spec section 7)."""

from __future__ import annotations

from typing import Any

from rules.skirmish.figures import name_of

WOUND_WORDS = {
    "none": "unwounded",
    "light": "lightly wounded",
    "serious": "seriously wounded",
    "critical": "critically wounded",
    "mortal": "mortally wounded",
}
RESULT_WORDS = {
    "no_effect": "no effect",
    "light": "a light wound",
    "serious": "a serious wound",
    "critical": "a critical wound",
    "mortal": "a mortal wound",
    "unconscious": "knocked unconscious",
    "dead": "killed",
}
ROLL_PURPOSES = {
    "card draw": "the card draw",
    "parry (attacker)": "the parry, as attacker",
    "parry (defender)": "the parry, as defender",
    "counterstrike (counterstriker)": "the counterstrike",
    "counterstrike (original attacker)": "the counterstrike, against it",
    "evade (attacker)": "the evade, trying to catch him",
    "evade (defender)": "the evade",
    "damage evaluation": "damage evaluation",
    "one-storey fall": "a one-storey fall",
    "morale": "morale",
}
HTH_ENDINGS = {
    "damage evaluated": "after the damage evaluation",
    "counterstrike failed": "the counterstrike failed",
    "evaded": "the defender evaded",
    "grapple over": "both men are down",
    "cancelled": "cancelled",
}


def _signed(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)


def roll_sentence(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    """The sentence for a DieRolled of this ruleset's purposes: faces, modifiers with reasons, total, target and
    outcome."""
    purpose = d.get("purpose")
    if purpose not in ROLL_PURPOSES:
        return None
    who = name_of(state, d.get("combatant")) if d.get("combatant") else "The GM"
    faces = ", ".join(str(f) for f in d.get("faces", []))
    mods = (
        " ".join(f"{_signed(m['value'])} {m['reason']}" for m in d.get("modifiers", [])) or "(no modifiers)"
    )
    if purpose == "card draw":
        undrawn = d.get("sides")
        card = str(d.get("outcome", "")).removeprefix("card ")
        return f"The deck: {d.get('notation')} over {undrawn} undrawn card(s) gives [{faces}]: {card_label(state, card)}."
    target = f" against {d['target']}" if d.get("target") is not None else ""
    manual = " (physical dice)" if d.get("source") == "manual" else ""
    outcome = f": {d['outcome']}" if d.get("outcome") else ""
    return (
        f"{who} rolls {d.get('notation')} for {ROLL_PURPOSES[purpose]}{manual}: [{faces}] {mods} = "
        f"{d.get('total')}{target}{outcome}."
    )


def card_label(state: dict[str, Any], card: str) -> str:
    """A default card is named by its figure's id: the log says "Sgt Hale's card"; a GM's card keeps its name."""
    if card in state.get("combatants", {}):
        return f"{name_of(state, card)}'s card"
    return f"card {card}"


def _exchange(state: dict[str, Any], d: dict[str, Any]) -> str:
    a, b = name_of(state, d["attacker"]), name_of(state, d["defender"])
    at, dt = d["attacker_total"], d["defender_total"]
    won = d["winner"] == d["attacker"]
    if d["kind"] == "parry":
        tail = f"the parry fails and {a}'s blow lands" if won else f"parried; {b} counterstrikes"
        return f"Parry: {a} {at} against {b} {dt}: {tail}."
    if d["kind"] == "counterstrike":
        tail = f"{a} wins and strikes home" if won else f"{a} does not win, and the blows are spent"
        return f"Counterstrike: {a} {at} against {b} {dt}: {tail}."
    tail = f"{a} catches {b}, and his blow lands" if won else f"{b} slips away"
    return f"Evade: {a} {at} against {b} {dt}: {tail}."


def sentence(state: dict[str, Any], etype: str, d: dict[str, Any]) -> str | None:  # noqa: C901 - one line per event
    """The log sentence for one event (None: not one this ruleset describes)."""
    n = lambda key: name_of(state, d.get(key))  # noqa: E731 - a short local for readability
    if etype == "DieRolled":
        return roll_sentence(state, d)
    if etype == "CardDrawn":
        names = ", ".join(name_of(state, c) for c in d["combatants"]) or "nobody left in the fight"
        left = f"({d['undrawn_left']} card(s) left this turn)"
        if d["combatants"] == [d["card"]]:
            return f"{card_label(state, d['card'])} is drawn {left}."
        return f"Card {d['card']} is drawn: {names} {'holds' if len(d['combatants']) <= 1 else 'hold'} the card {left}."
    if etype == "ActivationSkipped":
        what = "a prisoner" if d["why"] == "prisoner" else d["why"]
        return f"{n('combatant')} is {what} and does not act."
    if etype == "HandToHandImpossible":
        if d.get("distance") is not None and d.get("reach") is not None:
            return (
                f'{n("attacker")} cannot reach {n("defender")}: {d["distance"] / 100:.2f}" to go and one move '
                f'is {d["reach"] / 100:.2f}". No hand to hand occurs.'
            )
        return f"{n('attacker')} cannot reach {n('defender')} ({d['why']}). No hand to hand occurs."
    if etype == "SkirmishDefenceAwaited":
        return f"{n('attacker')} strikes at {n('defender')}. {n('defender')} must choose: {' or '.join(d['options'])}."
    if etype == "BlowAccepted":
        return f"{n('defender')} is {d['why']} and must accept {n('attacker')}'s blow."
    if etype == "ExchangeResolved":
        return _exchange(state, d)
    if etype == "DamageEvaluated":
        result = (
            RESULT_WORDS.get(d["result"], d["result"])
            if d.get("result")
            else "awaiting the GM's chart result"
        )
        return f"Damage: {n('striker')} against {n('target')}, total {d['total']}: {result}."
    if etype == "DamageResultAwaited":
        return f"The GM is asked what {d['total']} gives on the damage chart for {n('striker')}'s blow on {n('target')}."
    if etype == "FallResultAwaited":
        return f"The GM is asked what a fall roll of {d['total']} does to {n('combatant')}."
    if etype == "MoraleAwaited":
        return f"The GM is asked whether {n('combatant')} passes his morale test."
    if etype == "WoundLevelChanged":
        return f"{n('combatant')} is now {WOUND_WORDS.get(d['to'], d['to'])} (was {WOUND_WORDS.get(d['from'], d['from'])})."
    if etype == "GrappleAborted":
        return f"{n('attacker')}'s grapple on {n('defender')} is aborted: {d['why']}."
    if etype == "HandToHandEnded":
        return f"The hand to hand between {n('attacker')} and {n('defender')} ends: {HTH_ENDINGS.get(d['why'], d['why'])}."
    if etype == "PrisonerTaken":
        return f"{n('captor')} pins {n('prisoner')}, who is now his prisoner."
    if etype == "PrisonerLiberated":
        return f"{n('prisoner')} is no longer {n('captor')}'s prisoner ({d['how']})."
    if etype == "ActionDeclared":
        return _declared(state, d)
    return _common(state, etype, d)


POSTURE_WORDS = {
    "standing": "stands up",
    "kneeling": "kneels",
    "prone": "goes prone",
    "on_back": "falls on his back",
    "on_stomach": "falls on his stomach",
}


def _item_name(state: dict[str, Any], cid: str, item: str) -> str:
    c = state.get("combatants", {}).get(cid) or {}
    found = next((it for it in c.get("items") or [] if it.get("id") == item), {})
    return found.get("name") or item


def _common(state: dict[str, Any], etype: str, d: dict[str, Any]) -> str | None:
    """Sentences for the common events whose skirmish meaning is worth saying in the game's words."""
    n = lambda key: name_of(state, d.get(key))  # noqa: E731 - a short local for readability
    if etype == "PostureChanged":
        return f"{n('combatant')} {POSTURE_WORDS.get(d['posture'], 'is now ' + d['posture'])}."
    if etype == "ItemDropped":
        return f"{n('combatant')} drops his {_item_name(state, d['combatant'], d['item'])}."
    if etype == "Moved" and d.get("reason") == "evade":
        return f"{n('combatant')} slips away to {_inches(d['to'])}."
    if etype == "Moved" and d.get("reason") == "pulled":
        return f"{n('combatant')} is dragged along by his captor to {_inches(d['to'])}."
    if etype == "PinHeld":
        return f"{n('holder')} keeps his hold on {n('pinned')}."
    if etype == "Wounded":
        return _wounded(state, d)
    if etype == "ConditionChanged" and d.get("condition") == "prisoner":
        return f"{n('combatant')} {'is taken prisoner' if d.get('on') else 'is no longer a prisoner'}."
    if etype == "PinReleased":
        if d.get("why") == "captor stood":
            return f"{n('holder')} lets go of {n('pinned')} to stand up."
        return f"{n('holder')} lets go of {n('pinned')}" + (f" ({d['why']})." if d.get("why") else ".")
    return None


def _wounded(state: dict[str, Any], d: dict[str, Any]) -> str:
    """`Wounded.amount` is wound levels added; its source is the striker's id or "one-storey fall"."""
    source = d.get("source") or ""
    cause = (
        name_of(state, source)
        if source in state.get("combatants", {})
        else f"a {source}"
        if source
        else "a wound"
    )
    levels = d["amount"]
    return f"{name_of(state, d['combatant'])} takes {levels} wound level{'' if levels == 1 else 's'} from {cause}."


def _inches(p: Any) -> str:
    if isinstance(p, list) and len(p) == 2:
        return f'({p[0] / 100:.2f}", {p[1] / 100:.2f}")'
    return "a new spot"


def _declared(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    who = name_of(state, d.get("combatant"))
    target = name_of(state, (d.get("targets") or [None])[0])
    action = d.get("action")
    if action == "hth_strike":
        return f"{who} closes with {target} and strikes."
    if action == "hth_grapple":
        return f"{who} closes with {target} and grapples him."
    if action in ("parry", "evade"):
        forced = " (his only choice)" if (d.get("params") or {}).get("forced") else ""
        return f"{who} chooses to {action}{forced}."
    if action == "captor_acts":
        params = d.get("params") or {}
        what = "stands up" if params.get("stand_up") else "keeps his hold"
        if params.get("moves"):
            what += " and moves, pulling his prisoner along"
        return f"{who} {what}."
    return None
