"""Issue 30 item 4: a bot rolling physical dice reads `details.rolls` of a `dice_needed` refusal (how many
dice of what size, what for, whose) and never the English of `needed`. It plays each ruleset's golden
manual-dice fight (freeform's fight with manual dice) on a live server, sending every command without
faces and rolling only what `rolls` asks; the fight comes out as the golden stream recorded it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.golden.scripts import SCRIPTS, _filled, load
from tests.support.client import Encounter, TussleClient

FIGHTS = {
    "ap-grapple": "ap-grapple-manual-g1",
    "freeform": "freeform-server-dice",
    "gurps": "gurps-manual-grapple",
    "rogue-trader": "rogue-trader-manual-devil",
    "skirmish": "skirmish-manual-e1",
    "tft": "tft-manual-troll",
}


class Table:
    """The physical dice: the faces the golden fight rolled, in order, else any fair faces. Each roll is
    made from `rolls` alone, so a roll the bot is asked for that the fight did not roll fails here."""

    def __init__(self, recorded: list[list[int]] | None):
        self.recorded = list(recorded or [])
        self.random = random.Random(30)

    def roll(self, wanted: dict[str, Any]) -> list[int]:
        assert set(wanted) == {"count", "sides", "purpose", "combatant", "label"}, wanted
        count, sides = wanted["count"], wanted["sides"]
        if not self.recorded:
            return [self.random.randint(1, sides) for _ in range(count)]
        faces = self.recorded.pop(0)
        assert len(faces) == count and all(1 <= f <= sides for f in faces), (wanted, faces)
        return faces


async def send_rolling(client: TussleClient, enc: Encounter, body: dict[str, Any], token: str, table: Table):
    """POST the command; on dice_needed roll what `details.rolls` lists and send it again with the faces."""
    dice: list[list[int]] = []
    while True:
        r = await client.request(
            "POST", f"{enc.path}/commands", {**body, **({"dice": dice} if dice else {})}, token=token
        )
        if r.status != 422 or r.body["error"]["code"] != "dice_needed":
            return r
        rolls = r.body["error"]["details"]["rolls"]
        assert len(rolls) == len(r.body["error"]["details"]["needed"]) > len(dice), r.body
        assert [w["label"] for w in rolls] == r.body["error"]["details"]["needed"]
        dice += [table.roll(w) for w in rolls[len(dice) :]]


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
async def test_a_bot_plays_a_manual_dice_fight_from_details_rolls_alone(tussle: TussleClient, ruleset: str):
    script = load(FIGHTS[ruleset])
    create = {**script["create"], "dice": "manual"}
    if ruleset == "freeform":  # its players roll for themselves: with manual dice, they type the faces
        create["options"] = {**create.get("options", {}), "manual_dice_from": "actor"}
    r = await tussle.request("POST", "/encounters", create)
    assert r.status == 201, r.body
    enc = Encounter(tussle, r.body)
    tokens: dict[str, str] = {}
    rolled = 0
    for i, step in enumerate(script["steps"]):
        if "seat" in step:
            tokens[step["seat"]["name"]] = await enc.seat(step["seat"]["name"], step["seat"]["combatants"])
            continue
        if step["command"]["type"] == "rotate_seed":  # physical dice have no server seed
            continue
        body = await _filled(enc, step["command"])
        token = tokens[step["as"]] if "as" in step else enc.gm_token
        if step.get("expect", 201) != 201:  # a refusal the fight shows: sent as written
            r = await tussle.request("POST", f"{enc.path}/commands", body, token=token)
        else:
            table = Table(body.pop("dice", None))
            r = await send_rolling(tussle, enc, body, token, table)
            assert not table.recorded, (i, "the bot was asked for fewer rolls than the fight made")
            assert r.status == 201, (i, body, r.status, r.body)
            rolled += sum(e["type"] == "DieRolled" for e in r.body["events"])
        assert r.status == step.get("expect", 201), (i, body, r.status, r.body)
    assert rolled, f"{ruleset}'s fight rolled no dice"
    played = [_decided(e) for e in await enc.events()]
    golden = [json.loads(line) for line in (SCRIPTS / f"{FIGHTS[ruleset]}.jsonl").read_text().splitlines()]
    if ruleset == "freeform":  # its golden fight rolls server dice: the same events, other faces
        assert [t for t, _ in played] == [e["type"] for e in golden if e["type"] != "DiceSeedRotated"]
    else:
        assert played == [_decided(e) for e in golden]


def _decided(envelope: dict[str, Any]) -> tuple[str, Any]:
    """An event as the dice decided it: its type, and a roll's purpose, faces, total and outcome (ids and
    keys are the new encounter's own)."""
    d = envelope["data"]
    roll = (d["purpose"], d["faces"], d["total"], d["outcome"]) if envelope["type"] == "DieRolled" else None
    return envelope["type"], roll
