"""A question the GM answers is offered to the GM once per answer, in every installed ruleset (the GM's
offers once listed each answer twice in gurps and skirmish: the ruleset's own answers, then the
kernel's again)."""

from __future__ import annotations

from collections import Counter

from rules.registry import Registry
from tests.test_acting_seats import _figure


async def test_each_answer_of_a_gm_question_is_offered_once(tussle):
    for ruleset in sorted(Registry.discover().rulesets):
        enc = await tussle.create(ruleset)
        await enc.add(_figure(ruleset, "ana", "a", [0, 0]))  # no seat: the GM answers for her
        await enc.ok("start_turn")
        await enc.ok(
            "ask", combatant="ana", kind="parry_or_dodge", options=["parry", "dodge"], default="dodge"
        )
        st = await enc.state()
        (pending,) = st["pending"]
        answers = Counter(
            o["fields"]["choice"] for o in st["offers"]["gm"] if o.get("reaction") == pending["id"]
        )
        assert answers == {"parry": 1, "dodge": 1}, (ruleset, st["offers"]["gm"])
        assert [o["id"] for o in st["offers"]["gm"]] == list(
            dict.fromkeys(o["id"] for o in st["offers"]["gm"])
        )
