"""The skirmish part of the state, `state["rules"]` (spec section 3). Pure and total: each branch copies what
it changes, and an event about a figure who is gone changes nothing it cannot find."""

from __future__ import annotations

from typing import Any

RulesState = dict[str, Any]

# The declared hand-to-hand actions: the exchange kind they open, and its first step.
_STEP_AFTER_STRIKE_DECLARED = {
    "hth_strike": ("strike", "awaiting_defence"),
    "hth_grapple": ("grapple", "damage_eval"),
}


def initial(options: dict[str, Any]) -> RulesState:
    """The rules state before any figure joins."""
    deck = options.get("deck")
    return {
        "custom_deck": deck is not None,
        "join_order": [],
        **_fresh_deck(_cards(deck) if deck else []),
        "wound_levels": {},
        "exchange": None,
        "prisoners": [],
        "holds": [],
    }


def _cards(deck: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"card": d["card"], "combatants": list(d["combatants"])} for d in deck]


def _fresh_deck(cards: list[dict[str, Any]]) -> RulesState:
    """A deck of these cards, none drawn yet: no card out, no holders, nobody has fought on it."""
    return {
        "deck": cards,
        "undrawn": [c["card"] for c in cards],
        "drawn": [],
        "card": None,
        "holders": [],
        "fought": [],
    }


def _default_deck(join_order: list[str]) -> list[dict[str, Any]]:
    return [{"card": cid, "combatants": [cid]} for cid in join_order]


def _without(items: list[Any], value: Any) -> list[Any]:
    return [x for x in items if x != value]


def _exchange_step(r: RulesState, step: str, **extra: Any) -> RulesState:
    if r.get("exchange") is None:
        return r
    return {**r, "exchange": {**r["exchange"], "step": step, **extra}}


def evolve(r: RulesState, event: Any) -> RulesState:
    """The rules state after one event (its type and data only; nothing is re-judged)."""
    return _evolve(r or initial({}), event.type, event.data or {})


def _evolve(r: RulesState, t: str, d: dict[str, Any]) -> RulesState:
    if t == "OptionsChanged" and "deck" in d.get("options", {}):
        deck = d["options"]["deck"]
        cards = _cards(deck) if deck else _default_deck(r["join_order"])
        return {**r, "custom_deck": deck is not None, **_fresh_deck(cards)}
    if t == "CombatantJoined":
        cid = d["id"]
        r = {
            **r,
            "join_order": [*_without(r["join_order"], cid), cid],
            "wound_levels": {**r["wound_levels"], cid: (d.get("stats") or {}).get("wound_level", "none")},
        }
        if not r["custom_deck"] and not any(c["card"] == cid for c in r["deck"]):
            r = {
                **r,
                "deck": [*r["deck"], {"card": cid, "combatants": [cid]}],
                "undrawn": [*r["undrawn"], cid],
            }
        return r
    if t == "CombatantRemoved":
        return _removed(r, d["combatant"])
    if t == "TurnStarted":
        return {
            **r,
            "undrawn": [c["card"] for c in r["deck"]],
            "drawn": [],
            "card": None,
            "holders": [],
            "fought": [],
        }
    if t == "CardDrawn":
        return {
            **r,
            "undrawn": _without(r["undrawn"], d["card"]),
            "drawn": [*r["drawn"], d["card"]],
            "card": d["card"],
            "holders": list(d["combatants"]),
            "fought": [],
        }
    if t == "ActivationSkipped":
        return {**r, "holders": _without(r["holders"], d["combatant"])}
    if t == "ActionDeclared":
        return _declared(r, d)
    if t == "SkirmishDefenceAwaited":
        return _exchange_step(r, "awaiting_defence", options=list(d["options"]))
    if t == "BlowAccepted":
        return _exchange_step(r, "damage_eval")
    if t == "ExchangeResolved":
        if d["kind"] == "parry" and d["winner"] == d["defender"]:
            return _exchange_step(r, "counterstrike")
        return _exchange_step(r, "damage_eval")
    if t == "DamageEvaluated":
        return _exchange_step(r, "damage_eval")
    if t in ("DamageResultAwaited", "FallResultAwaited"):
        return _exchange_step(
            r, "awaiting_gm_result", awaiting="damage" if t == "DamageResultAwaited" else "fall"
        )
    if t == "MoraleAwaited":
        return _exchange_step(r, "morale", awaiting="morale")
    if t == "WoundLevelChanged":
        return {**r, "wound_levels": {**r["wound_levels"], d["combatant"]: d["to"]}}
    if t in ("HandToHandEnded", "GrappleAborted"):
        return {**r, "exchange": None}
    if t == "PrisonerTaken":
        keep = [p for p in r["prisoners"] if p["prisoner"] != d["prisoner"]]
        return {**r, "prisoners": [*keep, {"prisoner": d["prisoner"], "captor": d["captor"]}]}
    if t == "PrisonerLiberated":
        return {**r, "prisoners": [p for p in r["prisoners"] if p["prisoner"] != d["prisoner"]]}
    if t == "PinApplied":
        keep = [h for h in r["holds"] if h["held"] != d["pinned"]]
        return {**r, "holds": [*keep, {"holder": d["holder"], "held": d["pinned"]}]}
    if t in ("PinReleased", "PinBroken"):
        return {
            **r,
            "holds": [h for h in r["holds"] if not (h["held"] == d["pinned"] and h["holder"] == d["holder"])],
        }
    return r


def _declared(r: RulesState, d: dict[str, Any]) -> RulesState:
    action = d.get("action")
    if action in _STEP_AFTER_STRIKE_DECLARED:
        kind, step = _STEP_AFTER_STRIKE_DECLARED[action]
        attacker = d["combatant"]
        targets = d.get("targets") or [None]
        return {
            **r,
            "exchange": {"attacker": attacker, "defender": targets[0], "kind": kind, "step": step},
            "fought": [*_without(r["fought"], attacker), attacker],
        }
    if action == "captor_acts":  # the captor's act takes his card, as a hand to hand does (prisoners.py)
        return {**r, "fought": [*_without(r["fought"], d["combatant"]), d["combatant"]]}
    ex = r.get("exchange")
    if action in ("parry", "evade") and ex and ex.get("defender") == d.get("combatant"):
        return _exchange_step(r, action)
    return r


def _removed(r: RulesState, cid: str) -> RulesState:
    deck = [{**c, "combatants": _without(c["combatants"], cid)} for c in r["deck"]]
    gone = {c["card"] for c in deck if not c["combatants"]}
    ex = r.get("exchange")
    return {
        **r,
        "join_order": _without(r["join_order"], cid),
        "deck": [c for c in deck if c["card"] not in gone],
        "undrawn": [c for c in r["undrawn"] if c not in gone],
        "holders": _without(r["holders"], cid),
        "fought": _without(r["fought"], cid),
        "wound_levels": {k: v for k, v in r["wound_levels"].items() if k != cid},
        "exchange": None if ex and cid in (ex.get("attacker"), ex.get("defender")) else ex,
        "prisoners": [p for p in r["prisoners"] if cid not in (p["prisoner"], p["captor"])],
        "holds": [h for h in r["holds"] if cid not in (h["holder"], h["held"])],
    }
