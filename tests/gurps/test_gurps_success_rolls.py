"""Success rolls and Quick Contests (spec section 1)."""

from __future__ import annotations

import pytest

from events.dice import Dice, Modifier
from rules.gurps.success_rolls import judge, quick_contest, success_roll


def roll(faces: list[int], base: int, mods: list[Modifier] | None = None, who: str = "a"):
    return success_roll(
        Dice(stream="t", command_id="c", supplied=[faces]),
        combatant=who,
        purpose="evade",
        base=base,
        base_name="DX",
        modifiers=mods,
    )


@pytest.mark.parametrize(
    "total,skill,expected",
    [
        (12, 22, (True, 10)),
        (9, 11, (True, 2)),
        (11, 11, (True, 0)),
        (12, 11, (False, -1)),
        (3, 1, (True, 0)),
        (4, 2, (True, 0)),
        (4, 10, (True, 6)),  # 3-4 always succeed
        (17, 22, (False, -1)),
        (18, 25, (False, -1)),
        (17, 10, (False, -7)),  # 17-18 always fail
    ],
)
def test_judge_margins_and_automatic_results(total, skill, expected):
    assert judge(total, skill) == expected


def test_die_rolled_carries_target_margin_and_modifiers_with_reasons():
    r = roll(
        [4, 5, 3], 12, [Modifier(5, "from behind"), Modifier(5, "foe lying down"), Modifier(0, "nothing")]
    )
    ev = r.event
    assert ev.target == 22 and ev.total == 12 and ev.outcome == "success by 10" and ev.margin == 10
    assert [(m.value, m.reason) for m in ev.modifiers] == [(5, "from behind"), (5, "foe lying down")]
    assert ev.faces == [4, 5, 3] and ev.purpose == "evade" and ev.combatant == "a"


def test_contest_larger_margin_wins_and_margin_of_victory():
    c = quick_contest(roll([4, 5, 3], 22, who="ana"), roll([2, 3, 4], 11, who="bors"))
    assert (c.winner, c.margin_of_victory) == ("ana", 8)


def test_contest_only_one_succeeds():
    c = quick_contest(roll([6, 6, 5], 22, who="ana"), roll([2, 3, 4], 11, who="bors"))
    assert (c.winner, c.margin_of_victory) == ("bors", 3)


def test_contest_both_fail_smaller_failure_wins():
    c = quick_contest(roll([6, 5, 4], 10, who="a"), roll([6, 6, 2], 12, who="b"))
    assert (c.winner, c.margin_of_victory) == ("b", 3)


def test_contest_tie_nobody_wins():
    c = quick_contest(roll([3, 3, 3], 7, who="cato"), roll([4, 4, 5], 11, who="bors"))
    assert (c.winner, c.margin_of_victory) == (None, 0)


@pytest.mark.parametrize(
    "faces,skill,margin,outcome",
    [
        ([4, 4, 4], 11, -1, "failure by 1"),
        ([1, 1, 2], 2, 0, "success by 0"),  # a 4 always succeeds: margin at least 0
        ([6, 6, 5], 22, -1, "failure by 1"),  # a 17 always fails: margin at most -1
    ],
)
def test_die_rolled_margin_follows_the_automatic_results(faces, skill, margin, outcome):
    ev = roll(faces, skill).event
    assert (ev.margin, ev.outcome) == (margin, outcome)
