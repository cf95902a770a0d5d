"""Whoever `acting_now` tells to act has something to click (issue 32's offers: the page, the notices, the bots
and Discord read the offers; a "your turn" with no offer is a dead end at the table). Over every golden fight at
every command boundary, then along seeded random walks from them: each offer picked at random and sent, its dice
at random. The walks found a Rogue Trader stray told "may move" with no move, a Catachan Devil told "fights"
whose every allocation was refused, and a GURPS GM with no way to record an injury."""

from __future__ import annotations

import random
from typing import Any

import pytest

from events.dice import Dice, DiceNeeded
from rules.offers import GM, variants
from rules.pipeline import Context, decide_folded
from rules.state import replay
from tests.golden.renders import REGISTRY, read_stream
from tests.rules.test_offers_accepted import STREAMS, _actor, _ruleset_for

WALKS, STEPS = 4, 60
SKIPPED = {"close", "void", "remove_combatant"}  # ending or undoing the fight: the walk goes on playing it


def dead_ends(state: dict[str, Any], ruleset: Any) -> list[str]:
    out = []
    for entry in ruleset.acting_now(state):
        key = entry.get("combatant") or GM
        if ruleset.offers(state, key):
            continue
        if entry.get("reaction") and ruleset.offers(state, GM):
            continue  # a question the GM answers for the figure
        out.append(f"seq {state['seq']}: {key} is told {entry['why']!r} and offered nothing")
    return out


def boundaries(events: list[Any]) -> list[int]:
    """The seqs after which no command is half-applied (a state a reader can see)."""
    return [
        i
        for i in range(1, len(events) + 1)
        if i == len(events) or events[i].command_id != events[i - 1].command_id
    ]


def _sent(state: dict[str, Any], ruleset: Any, body: dict[str, Any], actor: str, rng: random.Random) -> Any:
    """The command decided with random faces for whatever dice it asks (each roll's faces kept once drawn)."""
    faces: list[list[int]] = []
    for _ in range(50):
        try:
            cmd = REGISTRY.command(ruleset.id, body)
            ctx = Context(stream=state["stream"], actor=actor, command_id=f"walk-{state['seq']}")
            return decide_folded(
                state, ruleset, cmd, ctx, Dice(stream=state["stream"], command_id="w", supplied=faces)
            )
        except DiceNeeded as needed:
            faces = [
                faces[i]
                if i < len(faces) and len(faces[i]) == count
                else [rng.randint(1, sides) for _ in range(count)]
                for i, (count, sides, _, _) in enumerate(needed.rolls)
            ]
    raise AssertionError(f"{body} kept asking for dice")


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_nobody_is_told_to_act_with_nothing_offered(path):
    events = read_stream(path)
    ruleset = _ruleset_for(events[0])
    problems = []
    for seq in boundaries(events):
        state = replay(events[:seq], _ruleset_for)
        if not state["closed"]:
            problems += dead_ends(state, ruleset)
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_random_walks_over_the_offers_meet_no_dead_end_and_no_refusal(path):
    events = read_stream(path)
    ruleset = _ruleset_for(events[0])
    rng = random.Random(path.stem)
    starts = [b for b in boundaries(events) if b >= len(events) // 4] or boundaries(events)
    problems: list[str] = []
    for _ in range(WALKS):
        state = replay(events[: rng.choice(starts)], _ruleset_for)
        for _ in range(STEPS):
            if state["closed"]:
                break
            problems += dead_ends(state, ruleset)
            picks = [
                (key, o, body)
                for key in [*state["combatants"], GM]
                for o in ruleset.offers(state, key)
                if o["type"] not in SKIPPED
                for body in variants(o, 8)
            ]
            if not picks:
                break
            key, o, body = rng.choice(picks)
            try:
                decided = _sent(state, ruleset, body, _actor(state, key, o), rng)
            except Exception as exc:  # an offered variant refused: the offers promised otherwise
                problems.append(f"seq {state['seq']}: {key}'s offer {o['title']!r} {body} refused: {exc}")
                break
            state = decided.states[-1]
    assert not problems, "\n".join(dict.fromkeys(problems))
