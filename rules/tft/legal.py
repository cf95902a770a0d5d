"""What a figure may send now (spec section 3 "May do next": the preconditions of section 4)."""

from __future__ import annotations

from typing import Any

from rules.hexes import adjacent, distance
from rules.tft import figures as F
from rules.tft.attacking_the_fallen import attacker_problems, target_problems
from rules.tft.entering import common_entry_problems
from rules.tft.entry_conditions import choose_condition
from rules.tft.getting_up import within_reach
from rules.tft.initiative import slot_problems
from rules.tft.movement import move_limit
from rules.tft.options import option
from rules.tft.pins import HELD_TURNS_BEFORE_BREAK

ALWAYS = ("tft.consent_hth", "tft.set_hth_preferences")


def _can_enter(state: dict[str, Any], c: dict[str, Any], d: dict[str, Any]) -> bool:
    return (
        not common_entry_problems(state, c, d)
        and choose_condition(state, c, d, c.get("position"), None)[0] is not None
    )


def _adjacent_groups(state: dict[str, Any], c: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        g
        for g in state["groups"].values()
        if adjacent(g["at"], c.get("position"))
        and any(F.enemies(c, state["combatants"][m]) for m in g["combatants"] if m in state["combatants"])
    ]


def legal_now(state: dict[str, Any], cid: str) -> list[str]:
    """`legal_actions` (issue 13 item 4: no catch that would hide a bug; a ruling keeps the shapes it reads)."""
    return legal_actions(state, cid)


def legal_actions(state: dict[str, Any], cid: str) -> list[str]:
    """Command types this combatant may send now (targets still to be checked)."""
    c = state["combatants"].get(cid)
    if c is None or state.get("pending"):
        return []
    out = list(ALWAYS)
    if F.pin_holding(state, cid):
        out.append("tft.release_pin")
    if not F.conscious(c):
        return out
    rec = F.tft_record(state, cid)
    others = [o for oid, o in state["combatants"].items() if oid != cid]
    if (
        state.get("phase") == "movement"
        and not c.get("group")
        and not rec["movement_ended"]
        and not F.action_spent(state, cid)
    ):
        if rec["hexes_moved"] < move_limit(state, c):
            out.append("tft.move")
        if rec["hexes_moved"] + 1 <= F.half_move(c):
            if (
                option(state, "diving_for_legs")
                and c.get("posture") == "standing"
                and any(_can_enter(state, c, o) for o in others)
            ):
                out.append("tft.dive_for_legs")
            if _adjacent_groups(state, c):
                out.append("tft.join_hth")
    if state.get("phase") != "action" or slot_problems(state, cid):
        return out
    out.append("tft.pass")
    if F.judo(c) >= 2 and c.get("posture") == "prone" and not F.entry_turn(state, cid):
        out.append("tft.defend")
    if not c.get("group"):
        if rec["hexes_moved"] <= F.half_move(c):
            if any(_can_enter(state, c, o) for o in others):
                out.append("tft.enter_hth")
            if _adjacent_groups(state, c):
                out.append("tft.join_hth")
        groups = [g for g in state["groups"].values() if c.get("position")]
        if any(distance(g["at"], c["position"]) <= 3 for g in groups):
            out.append("tft.strike_into_hth")
        if any(distance(g["at"], c["position"]) > 3 for g in groups):
            out.append("tft.missile_into_hth_far")
        if not attacker_problems(state, c) and any(not target_problems(state, c, o) for o in others):
            out.append("tft.attack_fallen")
        if F.is_down(c):
            out.append("tft.stand_up")
        if within_reach(state, c):
            out.append("tft.pick_up")
        if (
            F.judo(c) >= 2
            and c.get("posture") == "prone"
            and not rec["hexes_moved"]
            and any(adjacent(o.get("position"), c.get("position")) for o in others)
        ):
            out.append("tft.prone_unarmed_attack")
        return out
    pin = F.pin_on(state, cid)
    entry = F.entry_turn(state, cid)
    if pin:
        out.append("tft.cast_spell_in_hth")
        holder = state["combatants"].get(pin["holder"])
        if (
            option(state, "pins")
            and state.get("turn", 0) >= pin["turn"] + HELD_TURNS_BEFORE_BREAK
            and holder
            and F.hth_st(state, c) >= F.hth_st(state, holder)
        ):
            out.append("tft.break_pin")
        return out
    if F.pin_holding(state, cid):
        return out
    out.append("tft.hth_attack")
    if (
        F.carried_daggers(c)
        and not any(F.hth_usable(w) for w in F.ready_weapons(c))
        and (not entry or option(state, "first_turn_draw"))
    ):
        out.append("tft.draw_dagger")
    if entry:
        return out
    out += ["tft.cast_spell_in_hth", "tft.disengage"]
    if F.worn_shield(c):
        out.append("tft.drop_shield")
    group = F.group_of(state, cid)
    if option(state, "pins") and group and not F.group_standing(state, group):
        out.append("tft.pin")
    return out
