"""Unit coherency checks at the end of movement and close combat (spec 4.13; §Unit Coherency in
Push-Backs, §Unit Coherency During Charges)."""

from __future__ import annotations

from typing import Any

from rules.rogue_trader.events import RtCoherencyChecked, RtUnitRejoined, RtUnitSplit
from rules.rogue_trader.models import contacts_of, effective_move, gap_between, turn, unit_members
from rules.rogue_trader.tables import COHERENCY_GAP
from rules.working import Working

State = dict[str, Any]
EPS = 1e-6


def _components(state: State, ids: list[str]) -> list[list[str]]:
    """Groups of models linked by gaps of 2" or less."""
    left = set(ids)
    out = []
    while left:
        seed = min(left)
        comp = {seed}
        frontier = [seed]
        left.discard(seed)
        while frontier:
            a = frontier.pop()
            for b in sorted(left):
                if gap_between(state["combatants"][a], state["combatants"][b]) <= COHERENCY_GAP + EPS:
                    comp.add(b)
                    left.discard(b)
                    frontier.append(b)
        out.append(sorted(comp))
    return sorted(out, key=lambda g: (-len(g), g))


def check_all(t: Working) -> None:
    """Rejoin split-off units that are back within 2", then check every unit of two or more models."""
    units = t.state["rules"].get("units", {})
    for uid in sorted(units):
        unit = t.state["rules"]["units"].get(uid)
        if not unit or not unit.get("split_from"):
            continue
        parent = unit["split_from"]
        mine, theirs = unit_members(t.state, uid), unit_members(t.state, parent)
        if (
            mine
            and theirs
            and any(
                gap_between(t.state["combatants"][a], t.state["combatants"][b]) <= COHERENCY_GAP + EPS
                for a in mine
                for b in theirs
            )
        ):
            t.emit(RtUnitRejoined(unit=uid, into=parent))
    for uid in sorted(t.state["rules"].get("units", {})):
        members = unit_members(t.state, uid)
        if len(members) >= 2:
            _check_unit(t, uid, members)


def _check_unit(t: Working, uid: str, members: list[str]) -> None:
    """Main body (the leader's group, else the largest; a tie is the GM's call) and the four ordered
    options for each stray."""
    s = t.state
    comps = _components(s, members)
    leader = s["rules"]["units"][uid].get("leader")
    tie = False
    if leader in members:
        main = next(g for g in comps if leader in g)
    else:
        main = comps[0]
        tie = len(comps) > 1 and len(comps[1]) == len(main)
    strays = []
    split: list[str] = []
    for m in members:
        if m in main:
            continue
        c = s["combatants"][m]
        nearest = min(gap_between(c, s["combatants"][o]) for o in main)
        # Option 2 before option 1: a stray in base contact may not move away (it must break off), so
        # whether one move would bring it back is asked only once the combat is resolved.
        if contacts_of(s, m):
            status = "stray_in_combat"
        elif nearest - COHERENCY_GAP <= effective_move(c) * 100 + EPS:
            status = "stray_rejoin"
        else:
            status = "split"
            split.append(m)
        strays.append({"model": m, "status": status})
    t.emit(RtCoherencyChecked(unit=uid, main_body=main, strays=strays, ruling_owed=tie))
    if split and not tie:
        for n, group in enumerate(_components(s, split), start=1):
            t.emit(
                RtUnitSplit(unit=uid, new_unit=f"{uid}.split{turn(s)}.{n}", models=group, intentional=False)
            )
