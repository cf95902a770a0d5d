"""The results the GM owes (spec 4.7, 4.8; GM DATA): a damage chart result, a fall result, a morale test. Each
is a reaction asked of the GM; the `skirmish.record_*` commands answer it as `respond` would."""

from __future__ import annotations

from typing import Any

from events.common import ReactionAnswered
from rules.interface import Answer, BadCommand, RuleError
from rules.skirmish import flow, grapple
from rules.skirmish.charts import RESULTS
from rules.skirmish.commands import RecordDamageResult, RecordFall, RecordMorale
from rules.skirmish.damage import DAMAGE_REACTION
from rules.working import Working

GM_RESULT_REACTIONS = (DAMAGE_REACTION, grapple.FALL_REACTION, grapple.MORALE_REACTION)


def _words(kind: str) -> str:
    return kind.replace("_", " ")


def record_problems(state: dict[str, Any], kind: str) -> list[str]:
    """Why the GM's result of this kind cannot be recorded now (empty: it can)."""
    if any(p.get("kind") == kind for p in state.get("pending", [])):
        return []
    return [f"no {_words(kind)} is awaited from the GM now"]


def _answer(command: RecordDamageResult | RecordFall | RecordMorale) -> tuple[str, str]:
    if isinstance(command, RecordDamageResult):
        return DAMAGE_REACTION, command.result
    if isinstance(command, RecordFall):
        return grapple.FALL_REACTION, command.result
    return grapple.MORALE_REACTION, "pass" if command.passed else "fail"


def record(w: Working, command: RecordDamageResult | RecordFall | RecordMorale) -> None:
    """The GM's Record* commands answer the matching pending reaction, as `respond` would (spec 4.7, 4.8)."""
    kind, choice = _answer(command)
    problems = record_problems(w.state, kind)
    if problems:
        raise RuleError("; ".join(problems) + ".", {"problems": problems})
    pending = next(p for p in w.state.get("pending", []) if p.get("kind") == kind)
    w.emit(ReactionAnswered(pending["id"], choice, {}, "gm"))
    resume(w, pending, Answer(choice, {}, "gm"))


def resume(w: Working, pending: dict[str, Any], answer: Answer) -> None:
    """Go on with the flow chart after the GM's result."""
    kind = pending.get("kind")
    if answer.params:
        raise BadCommand(
            f"the GM's {_words(kind)} takes only a choice, not {', '.join(sorted(answer.params))}",
            sorted(answer.params)[0],
        )
    valid = ("pass", "fail") if kind == grapple.MORALE_REACTION else RESULTS
    if answer.choice not in valid:
        raise RuleError(f"{answer.choice!r} is not a {_words(kind)}: choose one of {', '.join(valid)}.")
    r = pending.get("resume", {})
    if any(r.get(k) not in w.state["combatants"] for k in ("attacker", "defender")):
        flow.withdraw(w, pending, "a figure of this hand to hand has left the encounter")
        return
    if r.get("flow") == "strike":
        flow.after_damage_result(w, r, answer.choice)
    else:
        grapple.resume(w, pending, answer.choice)
