"""Offers (issue 27 item 2): over every golden stream, at every seq, every offered variant is accepted by
the engine's pipeline with supplied dice — not one refusal — and the offers agree with `legal_actions`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from events.dice import Dice, DiceNeeded
from rules.acting import asked_of
from rules.offers import GM, variants
from rules.pipeline import Context, decide_command
from rules.state import replay
from tests.golden.renders import REGISTRY, read_stream

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
STREAMS = sorted([*GOLDEN.glob("scripts/*.jsonl"), *GOLDEN.glob("frozen/*.jsonl")])
VARIANTS_PER_OFFER = 24


def _ruleset_for(e: Any) -> Any:
    return REGISTRY.get(e.data["ruleset"])


def _actor(state: dict[str, Any], key: str, offer: dict[str, Any]) -> str:
    """Who sends it: the GM for the GM's steps, else the seat the answer or the figure belongs to."""
    if key == GM:
        return "gm"
    pending = next((p for p in state["pending"] if p["id"] == offer.get("reaction")), None)
    seat = pending["asked_of"] if pending else asked_of(state, key)
    return "gm" if seat == "gm" else f"seat:{seat}"


def refusal(state: dict[str, Any], ruleset: Any, body: dict[str, Any], actor: str) -> str | None:
    """Why the pipeline refuses `body` sent by `actor` (None: accepted), supplying whatever dice it asks."""
    supplied: list[list[int]] = []
    for _ in range(50):
        try:
            cmd = REGISTRY.command(ruleset.id, body)
            ctx = Context(stream=state["stream"], actor=actor, command_id="offer-probe")
            dice = Dice(stream=state["stream"], command_id="offer-probe", supplied=supplied)
            decide_command(state, ruleset, cmd, ctx, dice)
            return None
        except DiceNeeded as needed:
            supplied = [[(sides + 1) // 2] * count for count, sides, _, _ in needed.rolls]
        except Exception as exc:  # every refusal: 400, 403, 422 — and any bug
            return f"{type(exc).__name__}: {getattr(exc, 'message', exc)}"
    return "the command kept asking for dice"


def _targets(o: dict[str, Any]) -> list[Any]:
    """The figures an offer may target: its fixed target and every value of a target choice, nested too."""

    def walk(choices: list[dict[str, Any]]) -> list[Any]:
        found = []
        for ch in choices:
            for opt in ch["options"]:
                if ch["field"] in ("target", "targets"):
                    found += opt["value"] if isinstance(opt["value"], list) else [opt["value"]]
                found += walk(opt.get("then", []))
        return found

    return [o["fields"].get("target"), *walk(o["choices"])]


def problems_at(events: list[Any], seq: int) -> list[str]:
    state = replay(events[:seq], _ruleset_for)
    ruleset = _ruleset_for(events[0])
    if state["closed"]:
        return []
    out = []
    for key in [*state["combatants"], GM]:
        offers = ruleset.offers(state, key)
        ids = [o["id"] for o in offers]
        if len(ids) != len(set(ids)):
            out.append(f"seq {seq} {key}: offer ids repeat: {ids}")
        if key != GM:
            legal = set(ruleset.legal_actions(state, key)) | {"respond"}
            out += [
                f"seq {seq} {key}: {o['id']} offered but {o['type']} is not in legal_actions {sorted(legal)}"
                for o in offers
                if o["type"] not in legal
            ]
        for o in offers:
            if key != GM and key in _targets(o):
                out.append(f"seq {seq} {key}: {o['id']} targets the acting figure itself")
            for body in variants(o, VARIANTS_PER_OFFER):
                why = refusal(state, ruleset, body, _actor(state, key, o))
                if why is not None:
                    out.append(f"seq {seq} {key}: {o['id']} {body} refused: {why}")
                    break
    return out


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_offered_variant_is_accepted_at_every_seq(path):
    events = read_stream(path)
    problems = [p for seq in range(1, len(events) + 1) for p in problems_at(events, seq)]
    assert not problems, "\n".join(problems[:40])
