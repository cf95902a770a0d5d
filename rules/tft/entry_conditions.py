"""The four entry conditions C1-C4 (spec 4.1; seed §Entering). At least one must hold."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from rules.hexes import as_list, label, neighbour
from rules.tft import figures as F


def rear_hex(pos: list[int], facing: int) -> list[int]:
    """The one rear hex of a figure at `pos` facing `facing` (direction facing+3)."""
    return as_list(neighbour(pos, facing + 3))


class Check(NamedTuple):
    """A condition's verdict with the words the log and a refusal use."""

    holds: bool
    why: str


def _ma(c: dict[str, Any]) -> int:
    # Sprinting does not count, magical speed does (§Entering; A22: both sides).
    return int(F.stat(c, "ma", 10)) - int(F.stat(c, "sprint_bonus", 0))


def c1_faster(state: dict[str, Any], e: dict[str, Any], d: dict[str, Any], from_hex: Any) -> Check:
    if _ma(e) > _ma(d):
        return Check(True, f"{e['name']}'s MA {_ma(e)} is higher than {d['name']}'s {_ma(d)}")
    return Check(
        False,
        f"C1: {e['name']}'s MA {_ma(e)} is not higher than {d['name']}'s {_ma(d)} "
        "(sprinting bonus not counted)",
    )


def c2_wall_or_down(state: dict[str, Any], e: dict[str, Any], d: dict[str, Any], from_hex: Any) -> Check:
    if F.stat(d, "back_to_wall", False):
        return Check(True, f"{d['name']}'s back is to a wall")
    if F.is_down(d):
        return Check(True, f"{d['name']} is {d['posture'].replace('_', ' ')}")
    return Check(
        False, f"C2: {d['name']}'s back is not to a wall and {d['name']} is not lying down or kneeling"
    )


def c3_rear(state: dict[str, Any], e: dict[str, Any], d: dict[str, Any], from_hex: Any) -> Check:
    if F.judo(d) >= 2:
        return Check(False, f"C3: {d['name']} has Judo 2 and so no rear hex")
    if d.get("facing") is None or d.get("position") is None:
        return Check(False, f"C3: {d['name']} has no facing, so no rear hex")
    rear = rear_hex(d["position"], d["facing"])
    if list(from_hex) == rear:
        return Check(True, f"{e['name']} comes from {d['name']}'s rear hex")
    return Check(False, f"C3: {e['name']} is not in {d['name']}'s rear hex ({label(rear)})")


def c4_consent(state: dict[str, Any], e: dict[str, Any], d: dict[str, Any], from_hex: Any) -> Check:
    for c in state.get("rules", {}).get("consents", []):
        if c["defender"] == d["id"] and c["entrant"] == e["id"] and c["turn"] == state.get("turn"):
            return Check(True, f"{d['name']} agreed")
    return Check(False, f"C4: {d['name']} has not agreed this turn to let {e['name']} try")


# The table of 4.1, in the seed's order.
ENTRY_CONDITIONS: dict[str, Callable[[dict[str, Any], dict[str, Any], dict[str, Any], Any], Check]] = {
    "C1": c1_faster,
    "C2": c2_wall_or_down,
    "C3": c3_rear,
    "C4": c4_consent,
}


def from_rear(d: dict[str, Any], from_hex: Any) -> bool:
    """Whether an entrant steps in from the defender's rear hex (none against Judo 2, §Judo-2)."""
    return (
        F.judo(d) < 2
        and d.get("facing") is not None
        and d.get("position") is not None
        and list(from_hex) == rear_hex(d["position"], d["facing"])
    )


def choose_condition(
    state: dict[str, Any], e: dict[str, Any], d: dict[str, Any], from_hex: Any, named: str | None
) -> tuple[str | None, str, list[str]]:
    """(condition, why it holds, failures): the named condition verified, or the first that holds."""
    if named is not None:
        check = ENTRY_CONDITIONS[named](state, e, d, from_hex)
        return (named, check.why, []) if check.holds else (None, "", [check.why])
    failures = []
    for code, fn in ENTRY_CONDITIONS.items():
        check = fn(state, e, d, from_hex)
        if check.holds:
            return code, check.why, []
        failures.append(check.why)
    return None, "", failures
