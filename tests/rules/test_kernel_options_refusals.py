"""rules/options.py (one `option()`) and rules/refusals.py (one way to say no)."""

from __future__ import annotations

import msgspec
import pytest

from rules.interface import RuleError
from rules.options import defaults_of, option, reader
from rules.refusals import refusal, refuse, require


class _Opts(msgspec.Struct):
    pins: bool = False
    limit: int | None = 3


def test_a_stored_value_wins_even_null_and_only_a_missing_one_reads_the_default() -> None:
    read = reader(_Opts)
    assert defaults_of(_Opts) == {"pins": False, "limit": 3}
    assert read({"options": {"pins": True, "limit": None}}, "pins") is True
    assert read({"options": {"pins": True, "limit": None}}, "limit") is None, "null is the encounter's choice"
    assert (
        read({"options": {}}, "limit") == 3
        and read({}, "pins") is False
        and read({"options": None}, "limit") == 3
    )
    assert option({"options": {"x": 1}}, "x", {"x": 0}) == 1


def test_an_unknown_option_name_is_loud() -> None:
    with pytest.raises(KeyError):
        reader(_Opts)({"options": {"typo": 1}}, "typo")


def test_require_names_the_rule() -> None:
    require(True, "never")
    with pytest.raises(RuleError) as err:
        require(False, "Brenna has already moved this turn", {"combatant": "b"})
    assert err.value.message == "Brenna has already moved this turn" and err.value.details == {
        "combatant": "b"
    }
    assert err.value.code == "rule_violation"


def test_refuse_names_every_problem_in_one_sentence() -> None:
    refuse([], "Brenna cannot grab")
    with pytest.raises(RuleError) as err:
        refuse(["she is stunned", "Gorbag is not adjacent"], "Brenna cannot grab", {"combatant": "b"})
    assert err.value.message == "Brenna cannot grab: she is stunned; Gorbag is not adjacent."
    assert err.value.details == {"combatant": "b", "problems": ["she is stunned", "Gorbag is not adjacent"]}
    assert refusal(["no AP left."]) == "no AP left."
