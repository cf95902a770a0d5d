"""Log sentences (spec section 8): one per tft event, per tft roll, and for the actions tft declares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.tft import figures as F
from rules.tft.dx_in_hth import adj_dx, hth_modifiers, initiative_dx
from rules.tft.pins import HELD_TURNS_BEFORE_BREAK

PURPOSE_WORDS: dict[str, str] = {
    "hth_defense": "the HTH defense",
    "hth_defense_reroll": "the HTH defense (reroll)",
    "free_hit_damage": "the free hit's damage",
    "throw_damage": "the Judo throw's damage",
    "hth_attack": "an HTH attack",
    "damage": "damage",
    "cast_spell": "a spell in HTH",
    "draw_dagger": "drawing a dagger",
    "drop_shield": "wiggling free of a shield",
    "disengage": "disengaging",
    "pin_attempt": "the pin",
    "pin_resist": "resisting the pin",
    "break_pin": "breaking the pin",
    "stay_standing": "remaining standing",
    "take_down_puller": "the Take Down (pulling)",
    "take_down_stander": "the Take Down (standing)",
    "dx_tie": "the DX tie roll-off",
    "strike_into_hth": "a strike into the brawl",
    "strike_into_hth_to_miss": "missing a friend in the brawl",
    "missile_into_hth": "a shot into the brawl",
    "random_victim": "which figure in the brawl is hit",
    "prone_unarmed_attack": "a punch from the ground",
    "attack_fallen": "an attack on a fallen figure",
}

DEFENSE_OUTCOME_WORDS: dict[str, str] = {
    "enter_no_draw": "{e} gets in; {d} gets no free dagger draw",
    "enter_may_draw": "{e} gets in; {d} may draw a dagger",
    "knocked_back": "{e} is knocked back and loses the action",
    "knocked_back_free_hit": "{e} is knocked back, loses the action, and {d} gets a free hit",
    "judo_throw_or_free_hit": "{e} is knocked back; {d} may throw {e} (Judo) or take a free hit",
    "reroll": "{e} came from the rear hex, so the 6 is rolled again",
}

ENTRY_RESULT_WORDS: dict[str, str] = {
    "enter_no_draw": "{e} gets into HTH with {d}; {d} gets no free dagger draw.",
    "enter_may_draw": "{e} gets into HTH with {d}; {d} may ready a dagger, free.",
    "knocked_back": "{d} knocks {e} back; {e}'s action is lost.",
    "knocked_back_free_hit": "{d} knocks {e} back and gets a free hit; {e}'s action is lost.",
    "thrown": "{d} throws {e} (Judo); {e}'s action is lost.",
}

ACTION_WORDS: dict[str, str] = {
    "enter_hth": "{c} tries to get into HTH with {t}",
    "dive_for_legs": "{c} dives for {t}'s legs",
    "join_hth": "{c} joins the brawl with {t}",
    "hth_attack": "{c} attacks {t} in HTH",
    "cast_spell_in_hth": "{c} casts a spell in HTH",
    "draw_dagger": "{c} tries to draw a dagger",
    "drop_shield": "{c} tries to wiggle free of a worn shield",
    "disengage": "{c} tries to disengage",
    "pin": "{c} tries to pin {t}",
    "break_pin": "{c} tries to break {t}'s pin",
    "strike_into_hth": "{c} strikes into the brawl at {t}",
    "missile_into_hth_far": "{c} shoots into the brawl at {t}",
    "prone_unarmed_attack": "{c} punches {t} from the ground",
    "attack_fallen": "{c} attacks {t}, fallen and out of HTH",
    "defend": "{c} defends on the ground (unarmed attacks on {c} roll 4 dice)",
    "stand_up": "{c} stands up",
    "pick_up": "{c} reaches for a dropped item",
}

# What follows a roll of 3 (or more) dice against DX or ST, in the seed's words, by purpose and outcome
# (a contest's winner is named by the roll that settles it: the resisting roll, or the result event).
OUTCOME_WORDS: dict[str, dict[str, str]] = {
    "draw_dagger": {"success": "the dagger is drawn", "failure": "no dagger drawn; the action is spent"},
    "drop_shield": {
        "success": "{c} is free of the shield",
        "failure": "the shield stays on; the action is spent",
    },
    "disengage": {"success": "{c} gets out of the brawl", "failure": "{c} stays in the brawl"},
    "cast_spell": {"success": "the spell is cast", "failure": "the spell fails"},
    "break_pin": {"success": "{c} breaks the pin", "failure": "{c} stays pinned"},
    "stay_standing": {
        "success": "{c} stays on their feet",
        "failure": "{c} falls, and the whole brawl goes down with them",
    },
    "pin_attempt": {"success": "{c} makes the pin roll", "failure": "{c} misses the pin roll: no pin"},
    "pin_resist": {"success": "{c} resists the pin: no pin", "failure": "{c} fails to resist"},
    "take_down_puller": {"success": "{c} makes the roll", "failure": "{c} misses the roll: no Take Down"},
    "take_down_stander": {"success": "{c} makes the roll too", "failure": "{c} misses the roll"},
}
# Rolls made against ST (§Break-Pin 4vsST, §Take-Down X:X+2vsST); every other target is DX.
ST_ROLLS = frozenset({"break_pin", "take_down_puller", "take_down_stander"})

# Why an action was spent, where no declared action says it already (4.0; issue 18: no internal names).
SPENT_WORDS: dict[str, str] = {
    "pass": "{c} passes: no action this turn",
    "knocked back": "{c}'s action is lost (knocked back)",
    "dive knocked back": "{c}'s action is lost (knocked back from the dive)",
    "thrown": "{c}'s action is lost (thrown)",
    "pinned": "{c} is pinned and loses the action",
    "holding pin": "holding the pin is {c}'s action",
}


def _hex(pos: Any) -> str:
    """A hex as the engine's sentences write it: [q, r]."""
    return f"[{pos[0]}, {pos[1]}]" if isinstance(pos, list) and len(pos) == 2 else "nowhere"


def _mods(mods: list[dict[str, Any]]) -> str:
    return " ".join(f"{m['value']:+d} ({m['reason']})" for m in mods) if mods else "(no modifiers)"


def _reached(purpose: str, target: int, mods: list[dict[str, Any]]) -> str:
    """How a roll's target was reached: "DX 13 − 4 (entered HTH this turn) = 9", or "DX 13"."""
    stat = "ST" if purpose in ST_ROLLS else "DX"
    real = [m for m in mods if m.get("value")]
    if not real:
        return f"{stat} {target}"
    base = target - sum(m["value"] for m in real)
    steps = " ".join(f"{'+' if m['value'] >= 0 else '−'} {abs(m['value'])} ({m['reason']})" for m in real)
    return f"{stat} {base} {steps} = {target}"


def _outcome(state: dict[str, Any], d: dict[str, Any]) -> str:
    words = OUTCOME_WORDS.get(d.get("purpose", ""), {}).get(d.get("outcome", ""))
    return words.format(c=F.name(state, d.get("combatant"))) if words else d["outcome"]


def _purpose_words(state: dict[str, Any], purpose: str) -> str:
    """What a roll is for; a roll of a strike into HTH names the figure it is against (4.13)."""
    strike = state.get("rules", {}).get("strike") or {}
    order, rolled = strike.get("order") or [], strike.get("rolled", 0)
    if not purpose.startswith("strike_into_hth") or rolled >= len(order):
        return PURPOSE_WORDS[purpose]
    who = F.name(state, order[rolled])
    if purpose == "strike_into_hth_to_miss":
        return f"missing {who}, a friend in the brawl (above the target hits {who})"
    return (
        f"a strike into the brawl at {who}"
        if rolled == 0
        else f"a strike into the brawl at the next enemy, {who}"
    )


def _die_rolled(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    purpose = d.get("purpose")
    if purpose not in PURPOSE_WORDS:
        return None
    who = F.name(state, d.get("combatant")) if d.get("combatant") else "The GM"
    faces = ",".join(str(f) for f in d["faces"])
    # A manual roll: the log adds "(manual dice, not verifiable)" to every one.
    head = f"{who} rolls {d['notation']} for {_purpose_words(state, purpose)}: [{faces}]"
    if purpose.startswith("hth_defense"):
        e, dfn = _entry_names(state, d.get("combatant"))
        words = DEFENSE_OUTCOME_WORDS.get(d["outcome"], d["outcome"]).format(e=e, d=dfn)
        return f"{head} {_mods(d['modifiers'])} = {d['total']} — {words}."
    if d.get("target") is None:
        return f"{head} {_mods(d['modifiers'])} = {d['total']}: {d['outcome']}."
    return f"{head} = {d['total']} vs {_reached(purpose, d['target'], d['modifiers'])}: {_outcome(state, d)}."


def _entry_names(state: dict[str, Any], defender: str | None) -> tuple[str, str]:
    """The entrant of the entry now under way (the figure that just charged into the defender's hex)."""
    dpos = state["combatants"].get(defender or "", {}).get("position")
    others = F.occupants(state, dpos, but=(defender or "",)) if dpos else []
    return (F.name(state, others[-1]) if others else "the entrant"), F.name(state, defender)


def _initiative(state: dict[str, Any], d: dict[str, Any]) -> str:
    parts = []
    for cid in d["order"]:
        if cid not in state["combatants"]:
            continue
        if state["combatants"][cid].get("group"):
            mods = hth_modifiers(state, cid, "attack")
            why = ", ".join(f"{m.value:+d} {m.reason}" for m in mods)
            parts.append(
                f"{F.name(state, cid)} {initiative_dx(state, cid)}"
                + (f" ({adj_dx(state['combatants'][cid])}, {why})" if why else "")
            )
        else:
            parts.append(f"{F.name(state, cid)} {initiative_dx(state, cid)}")
    return "Order of action by DX: " + ", ".join(parts) + "."


def _action(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    words = ACTION_WORDS.get(d.get("action", ""))
    if words is None:
        return None
    t = F.name(state, d["targets"][0]) if d.get("targets") else ""
    text = words.format(c=F.name(state, d["combatant"]), t=t)
    allowed = d.get("params", {}).get("allowed")
    return text + (f" (allowed: {allowed})." if allowed else ".")


def _group_again(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    """A group re-emitted with its own members changes only its standing; joins keep the generic sentence."""
    g = state["groups"].get(d["group"])
    if (
        g is None
        or set(d["combatants"]) - set(g["combatants"])
        or bool(g.get("standing")) == bool(d["standing"])
    ):
        return None
    return f"The brawl at {_hex(g.get('at'))} is " + (
        "on its feet." if d["standing"] else "now on the ground."
    )


def _pin_outlook(state: dict[str, Any], holder: str, pinned: str, since: int) -> str:
    """When the pinned figure may first try to break free (§Break-Pin), or why it never can (A31)."""
    h, p = state["combatants"].get(holder), state["combatants"].get(pinned)
    if h is None or p is None:
        return ""
    mine, theirs = F.hth_st(state, p), F.hth_st(state, h)
    if mine < theirs:
        return f" {p['name']} is too weak to break the pin (ST in HTH {mine} against {theirs})."
    first = since + HELD_TURNS_BEFORE_BREAK
    if state.get("turn", 0) >= first:
        return f" {p['name']} may try to break free."
    return f" {p['name']} may try to break free from turn {first}."


def _pin_applied(state: dict[str, Any], d: dict[str, Any]) -> str:
    turn = d["turn"]
    return (
        f"{F.name(state, d['holder'])} pins {F.name(state, d['pinned'])} (turn {turn}): "
        f"{F.name(state, d['pinned'])} may act only without motion on turns {turn + 1} and {turn + 2}."
        + _pin_outlook(state, d["holder"], d["pinned"], turn)
    )


def _pin_held(state: dict[str, Any], d: dict[str, Any]) -> str:
    pin = next(
        (p for p in state.get("pins", []) if p["holder"] == d["holder"] and p["pinned"] == d["pinned"]), None
    )
    held = (pin["turns_held"] if pin else 0) + 1
    since = pin["turn"] if pin else d["turn"] - 1
    holder = F.name(state, d["holder"])
    return (
        f"{holder} holds {F.name(state, d['pinned'])} (turn {d['turn']}, held {held} turn"
        f"{'s' if held != 1 else ''}; {holder}'s action is spent)."
        + _pin_outlook({**state, "turn": d["turn"]}, d["holder"], d["pinned"], since)
    )


def _wounded(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    c = state["combatants"].get(d["combatant"])
    if c is None:
        return None
    left = F.remaining_st(c) - d["amount"]
    stopped = [s for s in d.get("stopped") or [] if s["amount"]]
    if stopped:  # tft 5: what the hit did and what armor or a shield stopped of it (4.6)
        hit = f"{d['source']} does {d['damage']}" if d.get("source") else f"the hit does {d['damage']}"
        stops = " and ".join(f"{c['name']}'s {s['by']} stops {s['amount']}" for s in stopped)
        return f"{hit[0].upper()}{hit[1:]}; {stops}; {c['name']} takes {d['amount']}, {left} ST left."
    source = f" ({d['source']})" if d.get("source") else ""
    return f"{c['name']} takes {d['amount']} damage{source}; {left} ST left."


def _action_spent(state: dict[str, Any], d: dict[str, Any]) -> str:
    """Bookkeeping (forum exports fold it into the action's sentence): whose action of which turn is spent."""
    c = F.name(state, d["combatant"])
    words = SPENT_WORDS.get(d.get("why", ""))
    if words:
        return words.format(c=c) + f" (turn {d['turn']})."
    return f"{c} has used the action of turn {d['turn']}."


def _moved_so_far(state: dict[str, Any], d: dict[str, Any]) -> str:
    n = d["hexes_moved"]
    hexes = f"{n} hex{'es' if n != 1 else ''}"
    c = state["combatants"].get(d["combatant"])
    ma = f" of MA {F.stat(c, 'ma', 10)}" if c else ""
    return f"{F.name(state, d['combatant'])} has moved {hexes}{ma} this turn."


def _item_name(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    c = state["combatants"].get(d["combatant"])
    item = next((i for i in (c or {}).get("items", []) if i.get("id") == d["item"]), None)
    return item.get("name", d["item"]) if item else None


def _item_dropped(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    item = _item_name(state, d)
    return f"{F.name(state, d['combatant'])} drops {item} at {_hex(d.get('at'))}." if item else None


def _item_readied(state: dict[str, Any], d: dict[str, Any]) -> str | None:
    item = _item_name(state, d)
    return f"{F.name(state, d['combatant'])} readies {item}." if item else None


SENTENCES: dict[str, Callable[[dict[str, Any], dict[str, Any]], str | None]] = {
    "CloseCombatJoined": _group_again,
    "DieRolled": _die_rolled,
    "ActionDeclared": _action,
    "InitiativeSet": _initiative,
    "HthEntryResolved": lambda s, d: (
        ENTRY_RESULT_WORDS.get(d["result"], d["result"])
        .format(e=F.name(s, d["entrant"]), d=F.name(s, d["defender"]))
        .rstrip(".")
        + f" (HTH defense total {d['total']})."
    ),
    "HthFirstTurn": lambda s, d: (
        f"{F.name(s, d['combatant'])} got into HTH on turn {d['turn']}: this turn "
        f"{F.name(s, d['combatant'])} may only attack, at -4 DX."
    ),
    "HthConsentGiven": lambda s, d: (
        f"{F.name(s, d['defender'])} lets {F.name(s, d['entrant'])} try to get into HTH this turn."
    ),
    "HthPreferencesSet": lambda s, d: (
        f"{F.name(s, d['combatant'])}'s HTH preferences: wishes to {d['hth_wish']}, entry dagger {d['entry_dagger']}, "
        f"Judo throw {d['judo_throw']}, Judo 1 defense {'used' if d['use_judo1_defense'] else 'declined'}, "
        f"Judo 2 shift {d['judo2_shift_defense']:+d}, Take Down dice {d['take_down_dice']}."
    ),
    "StandingCheckResolved": lambda s, d: (
        f"The brawl at {_hex(s['groups'].get(d['group'], {}).get('at'))} "
        + ("stays on its feet" if d["standing"] else "goes to the ground")
        + f" (standing case {d['case']})."
    ),
    "TakeDownResolved": lambda s, d: (
        f"Take Down, {F.name(s, d['puller'])} ({d['puller_dice']} dice) pulling against {F.name(s, d['stander'])} "
        f"({d['stander_dice']} dice) standing: "
        + (
            f"{F.name(s, d['puller'])} wins and the brawl goes to the ground."
            if d["taken_down"]
            else f"{F.name(s, d['stander'])} resists, and the brawl stays on its feet (a free action: no actions "
            "used)."
        )
    ),
    "TftMoveCounted": _moved_so_far,
    "ActionSpent": _action_spent,
    "PinApplied": _pin_applied,
    "PinHeld": _pin_held,
    "Wounded": _wounded,
    "ItemDropped": _item_dropped,
    "ItemReadied": _item_readied,
}


def describe(state: dict[str, Any], event: Any) -> str | None:
    """The sentence for an event (None for events tft leaves to the engine's generic sentence)."""
    t = getattr(event, "type", None) or (event.get("type") if isinstance(event, dict) else None)
    d = getattr(event, "data", None) or (event.get("data") if isinstance(event, dict) else None) or {}
    fn = SENTENCES.get(t or "")
    if fn is None:
        return None
    return fn(state, d)
