"""rules/working.py: a decision sees the state its earlier events lead to, and never changes its input."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from events.common import CombatantJoined, ConditionChanged, EncounterCreated, Wounded
from events.envelope import Event
from rules.interface import SubjectGone, require_present
from rules.state import evolve, initial_state
from rules.working import Working, folded


def _count_wounds(rules: dict[str, Any], event: Event) -> dict[str, Any]:
    """A ruleset's own fold for the test: it counts wounds per combatant, refusing a gone one."""
    if event.type != "Wounded":
        return rules
    cid = event.data["combatant"]
    require_present(rules.get("alive", []), cid)
    return {
        **rules,
        "hits": {**rules.get("hits", {}), cid: rules.get("hits", {}).get(cid, 0) + event.data["amount"]},
    }


class _Rules:
    evolve = staticmethod(_count_wounds)


def _state() -> dict[str, Any]:
    s = initial_state()
    for seq, (t, ev) in enumerate(
        [
            ("EncounterCreated", EncounterCreated("e", "probe", "1", {}, {}, None, "server")),
            (
                "CombatantJoined",
                CombatantJoined("a", "Alda", "x", None, {}, None, None, "standing", [], {}, {}),
            ),
        ],
        1,
    ):
        s = evolve(s, Event("st", seq, t, msgspec.to_builtins(ev), "gm", "", "", "", f"h{seq}"), _Rules)
    return {**s, "rules": {"alive": ["a"]}}


def test_each_event_is_folded_before_the_next_step_looks() -> None:
    start = _state()
    w = Working(start, _count_wounds)
    w.emit(Wounded("a", 2))
    assert w.state["rules"]["hits"] == {"a": 2} and w.combatant("a")["wounds"] == 2
    w.extend([Wounded("a", 3), ConditionChanged("a", "stunned", True)])
    assert w.state["rules"]["hits"] == {"a": 5} and "stunned" in w.combatant("a")["conditions"]
    assert [type(e).__name__ for e in w.events] == ["Wounded", "Wounded", "ConditionChanged"]
    assert w.state["seq"] == start["seq"] + 3, "the provisional seqs follow the stream's"
    assert "rules" in start and "hits" not in start["rules"] and start["combatants"]["a"]["wounds"] == 0


def test_folded_is_the_working_state_and_leaves_its_input_alone() -> None:
    start = _state()
    after = folded(start, [Wounded("a", 1), Wounded("a", 1)], _count_wounds)
    assert after["rules"]["hits"] == {"a": 2} and start["rules"] == {"alive": ["a"]}
    assert folded(start, [], _count_wounds) == start


def test_a_subject_gone_is_recorded_as_the_store_would() -> None:
    after = folded(_state(), [Wounded("zed", 1)], _count_wounds)
    assert (
        after["inconsistencies"][-1]["type"] == "Wounded" and "zed" in after["inconsistencies"][-1]["reason"]
    )


def test_a_fold_bug_is_loud() -> None:
    def broken(rules: dict[str, Any], event: Event) -> dict[str, Any]:
        return {**rules, "x": event.data["no such field"]}

    with pytest.raises(Exception, match="cannot be folded"):
        folded(_state(), [Wounded("a", 1)], broken)
    with pytest.raises(SubjectGone):
        _count_wounds(
            {"alive": []}, Event("s", 1, "Wounded", {"combatant": "a", "amount": 1}, "", "", "", "", "")
        )
