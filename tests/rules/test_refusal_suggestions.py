"""Issue 29 item 5: a refusal that names a command names one that could be accepted now, or says what must
change first ("break free first, which takes an Attack maneuver (gurps.break_free)"), never a command that
would refuse too. Over every golden stream, at every seq, each figure's and the GM's commands are built from
the state (rules/offer_checks.schema_offers over every command of the ruleset, unpruned: the offers and their
neighbours); each refusal's mentions of a command are checked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rules.offer_checks import actor_for, schema_offers
from rules.offers import GM, variants
from rules.state import replay
from tests.golden.renders import REGISTRY, read_stream
from tests.rules.test_offers_accepted import refusal

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
STREAMS = sorted([*GOLDEN.glob("scripts/*.jsonl"), *GOLDEN.glob("frozen/*.jsonl")])
COMMON = ("start_phase", "start_turn", "respond")


def mentions(ruleset: Any) -> re.Pattern[str]:
    """A command a message points to: `gurps.break_free` or a common step wherever named; a ruleset
    command's bare name (`draw_dagger`, never an English word nor a reaction's kind) where the message sends
    the player to it ("use join_hth", "stand_up first", "or enter_hth", "draw_dagger readies it") rather
    than naming an action done ("already used this turn's action (hth_attack)")."""
    tags = [c.__struct_config__.tag for c in ruleset.commands]
    bare = [t.split(".", 1)[1] for t in tags if "_" in t.split(".", 1)[-1]]
    bare = [b for b in bare if b not in ruleset.reactions]
    full = "|".join(map(re.escape, sorted({*tags, *COMMON}, key=len, reverse=True)))
    short = "|".join(map(re.escape, sorted(bare, key=len, reverse=True)))
    sent = (
        rf"(?:(?<=\buse )|(?<=\bor ))(?:{short})\b|\b(?:{short})(?= first\b| readies\b)" if bare else "(?!x)x"
    )
    return re.compile(rf"(?<![\w.-])(?:{full})(?![\w-])|{sent}")


def full_name(ruleset: Any, named: str) -> str:
    return named if named in COMMON or "." in named else f"{ruleset.id}.{named}"


# Words by which the clause naming a command says what must come first.
CONDITION = re.compile(r"\b(takes|needs|once|then|after|only in|on a turn|next)\b")
VARIANTS = 4


def _ruleset_for(e: Any) -> Any:
    return REGISTRY.get(e.data["ruleset"])


def _clause(message: str, at: int) -> str:
    """The part of the message a mention belongs to: between the separators around it (';', or the
    'X cannot …:' head)."""
    start = max(message.rfind(";", 0, at), message.rfind(": ", 0, at)) + 1
    end = min([i for i in (message.find(";", at),) if i >= 0] or [len(message)])
    return message[start:end]


class Acceptable:
    """Whether a command type could be accepted now for some of the keys (the sender, the figure the
    refused command was for, the GM): offered to one, or some variant built from the state accepted."""

    def __init__(self, ruleset: Any, state: dict[str, Any]):
        self.ruleset, self.state = ruleset, state
        self.offered = {k: {o["type"] for o in ruleset.offers(state, k)} for k in [*state["combatants"], GM]}
        self.cache: dict[tuple[str, str], bool] = {}

    def __call__(self, keys: list[str], ctype: str) -> bool:
        return any(self._one(k, ctype) for k in dict.fromkeys([*keys, GM]) if k in self.offered)

    def _one(self, key: str, ctype: str) -> bool:
        if ctype in self.offered[key]:
            return True
        if (key, ctype) not in self.cache:
            self.cache[key, ctype] = any(
                refusal(self.state, self.ruleset, body, actor_for(self.state, key)) is None
                for o in schema_offers(self.ruleset, self.state, key, [ctype])
                for body in variants(o, VARIANTS)
            )
        return self.cache[key, ctype]


def problems_at(events: list[Any], seq: int) -> list[str]:
    state = replay(events[:seq], _ruleset_for)
    ruleset = _ruleset_for(events[0])
    if state["closed"]:
        return []
    types = ["move", *(c.__struct_config__.tag for c in ruleset.commands)]
    acceptable = Acceptable(ruleset, state)
    mention = mentions(ruleset)
    out = []
    for key in [*state["combatants"], GM]:
        for o in schema_offers(ruleset, state, key, types):
            for body in variants(o, VARIANTS):
                why = refusal(state, ruleset, body, actor_for(state, key))
                if why is None:
                    continue
                clauses: dict[str, list[str]] = {}
                for m in mention.finditer(why):
                    if full_name(ruleset, m.group(0)) != body["type"]:
                        clauses.setdefault(_clause(why, m.start()), []).append(full_name(ruleset, m.group(0)))
                for clause, named in clauses.items():
                    # A clause naming what must come first passes; else one of its commands (alternatives:
                    # "respond …, or ap-grapple.swing_target") must be acceptable now.
                    if CONDITION.search(clause) or any(
                        acceptable([key, body.get("combatant") or GM], n) for n in named
                    ):
                        continue
                    out.append(
                        f"seq {seq} {key}: {body} refused pointing to {named}, none accepted now: {why}"
                    )
    return out


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_refusal_points_only_to_a_command_that_could_be_accepted(path):
    events = read_stream(path)
    # The states between commands, where a client acts (not the middle of one command's events).
    seqs = [
        s
        for s in range(1, len(events) + 1)
        if s == len(events) or events[s].command_id != events[s - 1].command_id
    ]
    problems = sorted({p for seq in seqs for p in problems_at(events, seq)})
    assert not problems, "\n".join(problems[:40])
