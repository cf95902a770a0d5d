"""One log sentence per skirmish event, in the seed's words (spec section 7; issue 18 item 4): names, not ids; a
figure is "they" unless its `pronoun` stat says otherwise; no internal names; each contest says who won and
what follows; each roll shows how its total and target were reached."""

from __future__ import annotations

from typing import Any

from rules.plane import inches, where
from rules.skirmish.deck import SKIP_CONDITIONS
from rules.skirmish.figures import WEAPON_NAMES, card_label, is_down, name_of, pronoun
from rules.wording import names_and

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
    "evade (attacker)": "the evade, trying to catch the evader",
    "evade (defender)": "the evade",
    "damage evaluation": "damage evaluation",
    "one-storey fall": "a one-storey fall",
    "morale": "morale",
}
# A roll's stored outcome ("parry: wins", a chart result, "pass") in words.
OUTCOME_WORDS = {"wins": "wins", "loses": "loses", "pass": "passed", "fail": "failed", **RESULT_WORDS}
HTH_ENDINGS = {
    "damage evaluated": "after the damage evaluation",
    "counterstrike failed": "the counterstrike failed, and both wait for the next card",
    "evaded": "the defender got away",
    "grapple over": "both are down",
    "cancelled": "cancelled",
}
BLOW_ACCEPTED = {
    "unconscious": "is unconscious",
    "held and down": "is held and down",
    "pinned and down": "is pinned and down",
    "pinned and a prisoner": "is pinned and a prisoner",
}
POSTURE_WORDS = {
    "standing": "stands up",
    "kneeling": "kneels",
    "prone": "goes prone",
    "on_back": "falls on {their} back",
    "on_stomach": "falls on {their} stomach",
}
ACTIVATION_ENDS = {
    "activation ended": "{who}'s activation is over.",
    "grappled": "{who}'s activation ends with the grapple.",
}


def _signed(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _outcome(outcome: Any) -> str:
    """ "parry: wins" -> "wins the parry"; "light" -> "a light wound"; "pass" -> "passed"."""
    text = str(outcome)
    if ": " in text:
        kind, result = text.split(": ", 1)
        return f"{OUTCOME_WORDS.get(result, result)} the {kind}"
    return OUTCOME_WORDS.get(text, text)


def _is_free_blow(state: dict[str, Any], striker: str | None) -> bool:
    ex = state.get("rules", {}).get("exchange") or {}
    return ex.get("kind") == "grapple" and ex.get("defender") == striker


def roll_sentence(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    """The sentence for a DieRolled of this ruleset's purposes: faces, modifiers with reasons, total, target and
    outcome (the engine adds that physical dice are not verifiable)."""
    purpose = d.get("purpose")
    if purpose not in ROLL_PURPOSES:
        return None
    who = name_of(state, d.get("combatant")) if d.get("combatant") else "The GM"
    faces = ", ".join(str(f) for f in d.get("faces", []))
    if purpose == "card draw":
        card = str(d.get("outcome", "")).removeprefix("card ")
        return (
            f"The deck: {d.get('notation')} over {_plural(d.get('sides') or 0, 'undrawn card')} gives [{faces}]: "
            f"{card_label(state, card)}."
        )
    mods = " ".join(f"{_signed(m['value'])} {m['reason']}" for m in d.get("modifiers", []))
    total = f"[{faces}] {mods} = {d.get('total')}" if mods else f"[{faces}] = {d.get('total')}"
    target = ""
    if d.get("target") is not None:
        target = f" against {'morale ' if purpose == 'morale' else ''}{d['target']}"
    what = ROLL_PURPOSES[purpose]
    if purpose == "damage evaluation" and _is_free_blow(state, d.get("combatant")):
        what = "the free blow against the grappler (damage evaluation)"
    outcome = f": {_outcome(d['outcome'])}" if d.get("outcome") else ""
    return f"{who} rolls {d.get('notation')} for {what}: {total}{target}{outcome}."


def _exchange(state: dict[str, Any], d: dict[str, Any]) -> str:
    a, b = name_of(state, d["attacker"]), name_of(state, d["defender"])
    at, dt = d["attacker_total"], d["defender_total"]
    won = d["winner"] == d["attacker"]
    score = f"{a} {at} against {b} {dt}"
    if d["kind"] == "parry":
        if won:
            return f"Parry: {score}. {a} wins: the parry fails and the blow goes to damage evaluation."
        tie = " (a tie goes to the defender)" if at == dt else ""
        return f"Parry: {score}. {b} wins{tie}: the blow does no damage, and {b} counterstrikes."
    if d["kind"] == "counterstrike":
        if won:
            return f"Counterstrike: {score}. {a} wins and strikes home: damage evaluation follows."
        return f"Counterstrike: {score}. {a} does not win: the hand to hand is over."
    if won:
        return f"Evade: {score}. {a} wins, catches {b}, and the blow goes to damage evaluation."
    tie = " (a tie goes to the evader)" if at == dt else ""
    return f"Evade: {score}. {b} wins{tie} and slips one move away."


def _card_drawn(state: dict[str, Any], d: dict[str, Any]) -> str:
    left = (
        f"({_plural(d['undrawn_left'], 'card')} left this turn)"
        if d["undrawn_left"]
        else "(the turn's last card)"
    )
    acting = [c for c in d["combatants"] if not any(x in SKIP_CONDITIONS for x in _conditions(state, c))]
    names = " and ".join(name_of(state, c) for c in acting)
    acts = f": {names} {'acts' if len(acting) == 1 else 'act'}" if acting else ""
    if d["combatants"] == [d["card"]]:
        label = card_label(state, d["card"])
        return f"{label[:1].upper() + label[1:]} is drawn {left}{acts}."
    return f"The card “{d['card']}” is drawn {left}{acts or ': nobody on it can act'}."


def _conditions(state: dict[str, Any], cid: str) -> list[str]:
    return (state.get("combatants", {}).get(cid) or {}).get("conditions") or []


def _reached(d: dict[str, Any]) -> str:
    if d.get("distance") is not None and d.get("reach") is not None:
        return f": {inches(d['distance'])} to go, and one move is {inches(d['reach'])}"
    return f" ({d['why']})"


def sentence(state: dict[str, Any], etype: str, d: dict[str, Any]) -> str | None:  # noqa: C901 - one line per event
    """The log sentence for one event (None: the engine's sentence)."""
    n = lambda key: name_of(state, d.get(key))  # noqa: E731 - a short local for readability
    if etype == "DieRolled":
        return roll_sentence(state, d)
    if etype == "CardDrawn":
        return _card_drawn(state, d)
    if etype == "ActivationSkipped":
        what = "a prisoner, moving only on the captor's cards" if d["why"] == "prisoner" else d["why"]
        return f"{n('combatant')} is {what}, and does not act on this card."
    if etype == "HandToHandImpossible":
        return f"{n('attacker')} cannot reach {n('defender')}{_reached(d)}. No hand to hand occurs."
    if etype == "SkirmishDefenceAwaited":
        return f"{n('attacker')} strikes at {n('defender')}."
    if etype == "BlowAccepted":
        why = BLOW_ACCEPTED.get(d["why"], "is " + d["why"])
        return f"{n('defender')} {why} and must accept {n('attacker')}'s blow: it goes to damage evaluation."
    if etype == "ExchangeResolved":
        return _exchange(state, d)
    if etype == "DamageEvaluated":
        result = RESULT_WORDS.get(d["result"], d["result"]) if d.get("result") else "the GM reads the chart"
        return f"Damage: {n('striker')}'s blow on {n('target')} totals {d['total']}: {result}."
    if etype == "DamageResultAwaited":
        return f"The GM is asked what {d['total']} gives on the damage chart for {n('striker')}'s blow on {n('target')}."
    if etype == "FallResultAwaited":
        return f"The GM is asked what a fall roll of {d['total']} does to {n('combatant')}."
    if etype == "MoraleAwaited":
        return f"The GM is asked whether {n('combatant')} passes the morale test."
    if etype == "WoundLevelChanged":
        return f"{n('combatant')} is now {WOUND_WORDS.get(d['to'], d['to'])} (was {WOUND_WORDS.get(d['from'], d['from'])})."
    if etype == "GrappleAborted":
        return f"{n('attacker')}'s grapple on {n('defender')} is over before it began: {d['why']}."
    if etype == "HandToHandEnded":
        return f"The hand to hand between {n('attacker')} and {n('defender')} ends: {HTH_ENDINGS.get(d['why'], d['why'])}."
    if etype == "PrisonerTaken":
        return (
            f"The grapple succeeds: {n('prisoner')} is {n('captor')}'s prisoner, and moves on {n('captor')}'s cards "
            "till liberated."
        )
    if etype == "PrisonerLiberated":
        return f"{n('prisoner')} is no longer {n('captor')}'s prisoner ({d['how']})."
    if etype == "ActionDeclared":
        return _declared(state, d)
    return _common(state, etype, d)


def _item_name(state: dict[str, Any], cid: str, item: str) -> str:
    c = state.get("combatants", {}).get(cid) or {}
    found = next((it for it in c.get("items") or [] if it.get("id") == item), {})
    name = found.get("name") or item
    return WEAPON_NAMES.get(name, name)  # a stream of version 1 named a given "other" weapon "other"


def _pending_kind(state: dict[str, Any], rid: str) -> str | None:
    return next((p.get("kind") for p in state.get("pending", []) if p["id"] == rid), None)


def _defence_kind(state: dict[str, Any], rid: str) -> bool:
    return _pending_kind(state, rid) == "hth_defence"


# The results the GM owes, as the log names them.
GM_READINGS = {
    "damage_result": "damage chart result",
    "fall_result": "fall result",
    "morale": "morale test result",
}


def _common(state: dict[str, Any], etype: str, d: dict[str, Any]) -> str | None:  # noqa: C901 - one line per event
    """Sentences for the common events whose skirmish meaning is worth saying in the game's words."""
    n = lambda key: name_of(state, d.get(key))  # noqa: E731 - a short local for readability
    if etype == "PostureChanged":
        words = POSTURE_WORDS.get(d["posture"], "is now " + d["posture"].replace("_", " "))
        return f"{n('combatant')} {words.format(their=pronoun(state, d['combatant'])[1])}."
    if etype == "ItemDropped":
        their = pronoun(state, d["combatant"])[1]
        return f"{n('combatant')} drops {their} {_item_name(state, d['combatant'], d['item'])}."
    if etype == "Moved":
        return _moved(state, d)
    if etype == "CloseCombatJoined":
        return _close_combat(state, d)
    if etype == "FacingChanged" and isinstance(d.get("facing"), int):
        return f"{n('combatant')} turns to face {d['facing']}° (0° = +x, counter-clockwise)."
    if etype == "PinHeld":
        return f"{n('holder')} keeps the hold on {n('pinned')}."
    if etype == "PinApplied":
        return f"{n('holder')} falls holding {n('pinned')}, preventing any movement."
    if etype == "Wounded":
        return _wounded(state, d)
    if etype == "ConditionChanged" and d.get("condition") == "prisoner":
        return f"{n('combatant')} {'is taken prisoner' if d.get('on') else 'is no longer a prisoner'}."
    if etype == "PinReleased":
        if d.get("why") == "captor stood":
            return f"{n('holder')} lets go of {n('pinned')} to stand up; {n('pinned')} is still a prisoner."
        return f"{n('holder')} lets go of {n('pinned')}" + (f" ({d['why']})." if d.get("why") else ".")
    if etype == "ActionSpent" and d.get("why") in ACTIVATION_ENDS:
        return ACTIVATION_ENDS[d["why"]].format(who=n("combatant"))
    if etype == "ReactionRequested" and d.get("kind") == "hth_defence":
        by = "the GM" if d.get("asked_of") == "gm" else f"{n('combatant')}'s player"
        return f"{n('combatant')} must choose: {' or '.join(d['options'])} (asked of {by}; default {d['default']})."
    if etype == "ReactionAnswered" and _defence_kind(state, d["id"]):
        return f"{_answerer(state, d.get('by') or '')} answers for the defender: {d['choice']}."
    if etype == "ReactionRequested" and d.get("kind") in GM_READINGS:
        choices = ", ".join(OUTCOME_WORDS.get(o, o) for o in d["options"])
        return f"(The GM's choices: {choices}; default {OUTCOME_WORDS.get(d['default'], d['default'])}.)"
    if etype == "ReactionAnswered" and _pending_kind(state, d["id"]) in GM_READINGS:
        what = GM_READINGS[_pending_kind(state, d["id"])]
        return f"{_answerer(state, d.get('by') or '')} gives the {what}: {OUTCOME_WORDS.get(d['choice'], d['choice'])}."
    return None


def is_aside(state: dict[str, Any], etype: str, d: dict[str, Any]) -> bool:
    """Bookkeeping a forum export folds into the sentence that already says it: the defender's answer (his
    declared parry or evade says it) and the GM's list of chart results (the question before it says what is
    asked). The rest is the ruleset's `bookkeeping` types."""
    if etype == "ReactionAnswered":
        return _defence_kind(state, d["id"])
    if etype == "ReactionRequested":
        return d.get("kind") in GM_READINGS
    return False


def _answerer(state: dict[str, Any], by: str) -> str:
    if by.startswith("seat:"):
        seat = state.get("seats", {}).get(by.removeprefix("seat:")) or {}
        return f"{seat.get('name', 'A player')}'s seat"
    return "The GM" if by == "gm" else "A standing order"


def _moved(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    who = name_of(state, d.get("combatant"))
    ex = state.get("rules", {}).get("exchange") or {}
    if d.get("reason") == "evade":
        return f"{who} slips away to {_inches(d['to'])}."
    if d.get("reason") == "pulled":
        return f"{who} is dragged along by the captor to {_inches(d['to'])}."
    if ex.get("attacker") == d.get("combatant") and d.get("from") is not None:
        gap = _gap(d["from"], d["to"])
        return f"{who} moves {gap} to touch {name_of(state, ex.get('defender'))}, at {_inches(d['to'])}."
    return None


def _close_combat(state: dict[str, Any], d: dict[str, Any]) -> str:
    """Figures touch on the table, each at its own spot (the event's `at` is the defender's): say where
    each stands, and which of them are down (a fall comes before the event)."""
    figures = [(cid, state.get("combatants", {}).get(cid) or {}) for cid in d["combatants"]]
    names = [name_of(state, cid) for cid, _ in figures]
    down = [name_of(state, cid) for cid, c in figures if is_down(c)]
    spots = [f"{name_of(state, cid)} at {where(c['position'])}" for cid, c in figures if c.get("position")]
    ground = " on the ground" if down and len(down) == len(figures) else ""
    told = (
        f"; {names_and(down)} {'is' if len(down) == 1 else 'are'} on the ground"
        if down and not ground
        else ""
    )
    return (
        f"{names_and(names)} are in close combat{ground}"
        + (f", {names_and(spots)}" if spots else "")
        + f"{told}."
    )


def _gap(a: Any, b: Any) -> str:
    if isinstance(a, list) and isinstance(b, list):
        return inches(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
    return "up"


def _wounded(state: dict[str, Any], d: dict[str, Any]) -> str:
    """`Wounded.amount` is wound levels added; its source is the striker's id or "one-storey fall"."""
    source = d.get("source") or ""
    if source in state.get("combatants", {}):
        cause = f"{name_of(state, source)}'s blow"
    else:
        cause = f"a {source}" if source else "a wound"
    return f"({_plural(d['amount'], 'wound level')} for {name_of(state, d['combatant'])}, from {cause}.)"


def _inches(p: Any) -> str:
    if isinstance(p, list) and len(p) == 2:
        return where(p)
    return "a new spot"


def _declared(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    who = name_of(state, d.get("combatant"))
    target = name_of(state, (d.get("targets") or [None])[0])
    action = d.get("action")
    if action == "hth_strike":
        return f"{who} closes with {target} to strike a blow."
    if action == "hth_grapple":
        return f"{who} closes with {target} to grapple instead of striking."
    if action in ("parry", "evade"):
        params = d.get("params") or {}
        if params.get("forced"):
            return f"{who} {'parries' if action == 'parry' else 'evades'}: the only defence open."
        where = f", naming {_inches(params['to'])} to go to" if action == "evade" and params.get("to") else ""
        return f"{who} chooses to {action}{where}."
    if action == "captor_acts":
        params = d.get("params") or {}
        what = "gets up" if params.get("stand_up") else "stays down, holding the prisoner"
        if params.get("moves"):
            what += " to move, pulling the prisoner along"
        return f"{who}, as captor, {what}."
    return None
