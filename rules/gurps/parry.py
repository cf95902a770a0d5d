"""Which defences a figure has (§Defense in Close Combat): in close combat he may dodge, and parry
only "using an empty hand or a weapon with reach C" that is ready; he cannot block. Outside close
combat (a foe who stepped out and struck at reach 1) he may parry with any ready weapon, and block
with a worn shield when his stats give a Block (BASE)."""

from __future__ import annotations

from typing import Any

from rules.gurps.combatant_stats import (
    is_unarmed,
    not_ready_reason,
    stats,
    weapon_is_ready,
    weapon_named,
    weapons,
    worn_shield,
)
from rules.gurps.hex_sharing import in_close_combat
from rules.gurps.weapons import reach_words
from rules.interface import BadCommand, RuleError


def parry_problems(state: dict[str, Any], cid: str, weapon: dict[str, Any]) -> list[str]:
    """Why he cannot parry with this weapon now (empty when he can)."""
    c = state["combatants"][cid]
    if weapon.get("kind") != "melee" or weapon.get("parry") is None:
        return [f"the {weapon['name']} has no parry value"]
    problems = []
    if (
        in_close_combat(state, cid)
        and not is_unarmed(weapon)
        and "C" not in [str(r).upper() for r in weapon.get("reach") or []]
    ):
        problems.append(
            f"in close combat only an empty hand or a reach-C weapon parries, and the "
            f"{weapon['name']}'s {reach_words(weapon)} lacks C"
        )
    if not weapon_is_ready(c, weapon):
        problems.append(not_ready_reason(c, weapon))
    return problems


def legal_parries(state: dict[str, Any], cid: str) -> list[dict[str, Any]]:
    """The weapons (empty hands included) he may parry with now."""
    return [w for w in weapons(state["combatants"][cid]) if not parry_problems(state, cid, w)]


def no_parry_reason(state: dict[str, Any], cid: str) -> str:
    """Why he has no parry at all, weapon by weapon (for the defence question)."""
    ws = weapons(state["combatants"][cid])
    if not ws:
        return f"{state['combatants'][cid]['name']} lists no weapon or empty hand"
    return "; ".join(f"the {w['name']}: {', '.join(parry_problems(state, cid, w))}" for w in ws)


def block_problems(state: dict[str, Any], cid: str) -> list[str]:
    """Why he cannot block now (empty when he can)."""
    c = state["combatants"][cid]
    if in_close_combat(state, cid):
        return ["no block in close combat (§Defense in Close Combat)"]
    if worn_shield(c) is None:
        return [f"{c['name']} wears no shield to block with"]
    if not isinstance(stats(c).get("block"), int):
        return [f"{c['name']}'s stats give no block score (stats.block)"]
    return []


def defence_options(state: dict[str, Any], cid: str) -> list[str]:
    """What the target of a hit may answer: dodge always; parry and block when he can."""
    return (
        ["dodge"]
        + (["parry"] if legal_parries(state, cid) else [])
        + ([] if block_problems(state, cid) else ["block"])
    )


def parry_weapon(state: dict[str, Any], cid: str, wanted: Any) -> dict[str, Any]:
    """The weapon he parries with: the one named, else his best legal parry."""
    t = state["combatants"][cid]
    if wanted is not None:
        if not isinstance(wanted, str):
            raise BadCommand("weapon must be the name of one of the parrying figure's weapons", "weapon")
        w = weapon_named(t, wanted)
        if w is None:
            raise RuleError(f"{t['name']} has no weapon named {wanted!r}")
        problems = parry_problems(state, cid, w)
        if problems:
            others = [x["name"] for x in legal_parries(state, cid)]
            alternative = f"dodge or parry with the {' or the '.join(others)}" if others else "only dodge"
            raise RuleError(
                f"{t['name']} cannot parry with the {w['name']}: {'; '.join(problems)}. "
                f"{t['name']} may {alternative}"
            )
        return w
    legal = legal_parries(state, cid)
    if not legal:
        raise RuleError(f"{t['name']} has no ready empty hand or reach-C weapon to parry with: only a dodge")
    return max(legal, key=lambda w: int(w["parry"]))


def refused_defence(state: dict[str, Any], pending: dict[str, Any], choice: str) -> str | None:
    """Why a defence the question does not offer is closed (for `Ruleset.refused_choice`)."""
    if pending.get("kind") != "defence":
        return None
    cid = (pending.get("resume") or {}).get("target")
    if cid not in state["combatants"]:
        return None
    who = state["combatants"][cid]["name"]
    open_ = " or ".join(pending["options"])
    if choice == "parry":
        return (
            f"{who} cannot parry (§Defense in Close Combat: only with an empty hand or a ready weapon of "
            f"reach C): {no_parry_reason(state, cid)}. {who} may {open_}."
        )
    if choice == "block":
        return f"{who} cannot block: {'; '.join(block_problems(state, cid))}. {who} may {open_}."
    return None
