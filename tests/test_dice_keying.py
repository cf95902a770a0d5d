"""Issue 16 item 1: a GM who runs the server and reads the seed cannot aim a player's dice.

The audit's attack: a player's command asks the GM for a reaction; the GM, holding the seed read from
the database, tries many answer command ids (and entropies) offline for one that rolls well for the
GM. Every die of the answer is keyed by the player's command, so every try rolls the same faces.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from events.dice import Dice
from events.envelope import Event
from rules.interface import BadCommand, RuleError
from rules.pipeline import Context, decide_command
from rules.registry import Registry
from rules.state import replay
from tests.golden.scripts import load
from tests.support.client import Encounter
from tests.support.seed_reading import stored_seed

REGISTRY = Registry.discover()
TRIES = 60


def _without_dice(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "dice"}


async def play_until_asked(
    tussle,
    script: str,
    seat_controls: list[str],
    as_seat: int,
    drop_orders: dict[str, dict[str, Any]],
    retarget: str | None = None,
) -> tuple[Encounter, str] | None:
    """A golden script's fight on server dice, with the seat controlling the attackers and sending step
    `as_seat`, stopped at the reaction that step asks of the GM: (encounter, player's command_id), or None
    when it asks nobody."""
    s = load(script)
    create = {k: v for k, v in s["create"].items() if k != "command_id"}
    r = await tussle.request("POST", "/encounters", {**create, "dice": "server"})
    assert r.status == 201, r.body
    enc = Encounter(tussle, r.body)
    token = None
    for i, step in enumerate(s["steps"][: as_seat + 1]):
        if "seat" in step:
            token = await enc.seat(step["seat"]["name"], seat_controls)
            continue
        body = _without_dice(step["command"])
        if body["type"] == "add_combatant" and body["combatant"]["id"] in drop_orders:
            body = {
                **body,
                "combatant": {**body["combatant"], "reactions": {}, **drop_orders[body["combatant"]["id"]]},
            }
        if i == as_seat and retarget:
            body = {**body, "target": retarget}
        if i == as_seat:
            body = {**body, "command_id": "players-attack", "entropy": "p" * 24}
        resp = await tussle.request(
            "POST", f"{enc.path}/commands", body, token=token if i == as_seat else enc.gm_token
        )
        if resp.status != 201:  # the server dice went another way (a card not drawn): play again
            return None
    pending = (await enc.state())["pending"]
    return (enc, "players-attack") if pending and pending[-1]["asked_of"] == "gm" else None


async def asked_of_the_gm(tussle, *scene: Any) -> tuple[Encounter, str]:
    """A fight where the player's attack asks the GM (the attack roll may miss: play it again)."""
    for _ in range(20):
        found = await play_until_asked(tussle, *scene)
        if found is not None:
            return found
    raise AssertionError(f"{scene[0]}: the player's attack never asked the GM in 20 fights")


def offline_answers(events: list[Event], seed: bytes, reaction: dict[str, Any], choice: str) -> set[str]:
    """What the GM's answer rolls for each of many command ids and entropies the GM could pick."""
    state = replay(events, lambda e: REGISTRY.get(e.data["ruleset"]))
    ruleset = REGISTRY.get(state["ruleset"])
    outcomes = set()
    for n in range(TRIES):
        cid, entropy = f"gm-try-{n}", f"aim{n:04d}" * 4
        cmd = REGISTRY.command(
            state["ruleset"],
            {
                "type": "respond",
                "reaction": reaction["id"],
                "choice": choice,
                "command_id": cid,
                "entropy": entropy,
            },
        )
        dice = Dice(stream=state["stream"], command_id=cid, entropy=entropy, keyed_by="client", seed=seed)
        try:
            new = decide_command(state, ruleset, cmd, Context(state["stream"], "gm", cid), dice)
        except (RuleError, BadCommand) as exc:  # a choice the rules refuse whatever the id
            outcomes.add(f"refused: {exc}")
            continue
        rolls = [(ne.data["faces"], ne.data["keyed_command_id"]) for ne in new if ne.type == "DieRolled"]
        outcomes.add(json.dumps(rolls))
    return outcomes


SCENES = [
    # (script, the seat's combatants, the step the seat sends, combatants whose standing orders go (with
    # changes), the attack's new target)
    ("gurps-manual-grapple", ["bram"], 14, {}, None),
    ("skirmish-manual-e1", ["hale"], 5, {}, None),
    # T1 charges T2, made the GM's and an enemy: T2 may stand and fire its laspistol.
    ("rogue-trader-manual-devil", ["t1"], 6, {"t2": {"side": "red"}}, "t2"),
]


async def test_the_gm_cannot_aim_the_dice_of_an_answer_to_a_players_attack(tussle, server):
    drawn_in = []
    for script, seats, step, drop, retarget in SCENES:
        enc, attack = await asked_of_the_gm(tussle, script, seats, step, drop, retarget)
        events = [msgspec.convert(e, Event) for e in await enc.events()]
        state = await enc.state()
        reaction = state["pending"][-1]
        seed = stored_seed(server.db_path, enc.id, events[0].data["commitment"])
        for choice in reaction["options"]:
            outcomes = offline_answers(events, seed, reaction, choice)
            assert len(outcomes) == 1, (script, choice, outcomes)  # nothing to aim: every try rolls alike
            only = outcomes.pop()
            if only.startswith("refused"):
                continue
            rolls = json.loads(only)
            assert all(keyed == attack for _, keyed in rolls), (script, rolls)
            if rolls:
                drawn_in.append(script)
        # The server's own answer rolls what the search foresaw, keyed by the player's attack.
        choice = next(
            c
            for c in reaction["options"]
            if not next(iter(offline_answers(events, seed, reaction, c))).startswith("refused")
        )
        foreseen = offline_answers(events, seed, reaction, choice).pop()
        answer = await enc.ok("respond", reaction=reaction["id"], choice=choice, command_id="the-gms-answer")
        rolled = [
            (e["data"]["faces"], e["data"]["keyed_command_id"])
            for e in answer["events"]
            if e["type"] == "DieRolled"
        ]
        assert json.dumps(rolled) == foreseen
        audit = (await enc.get("/audit")).body["rolls"]
        assert {r["keyed_by"] for r in audit if r["command_id"] == "the-gms-answer"} <= {"client"}
    assert set(drawn_in) == {s[0] for s in SCENES}, drawn_in  # every scene's answer drew dice


async def test_a_gm_roll_nobody_answers_is_marked_gm_keyed_and_a_players_is_not(tussle):
    enc = await tussle.create()
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    token = await enc.seat("Ann's player", ["ann"])
    await enc.ok("roll", expression="1d6", purpose="the GM's")
    r = await enc.command("roll", token=token, expression="1d6", purpose="Ann's", combatant="ann")
    assert r.status == 201
    rolls = (await enc.get("/audit")).body["rolls"]
    assert [x["keyed_by"] for x in rolls] == ["gm", "server"]


async def test_void_and_answer_again_draws_on_never_replaying_faces(tussle):
    enc = await tussle.create("probe")
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    await enc.add({"id": "troll", "name": "Troll", "side": "monsters"})
    token = await enc.seat("Ann's player", ["ann"])
    r = await enc.command(
        "probe.grab", token=token, combatant="ann", target="troll", command_id="ann-grab", entropy="a" * 20
    )
    assert r.status == 201, r.body
    pending = (await enc.state())["pending"][0]["id"]
    first = await enc.ok("respond", reaction=pending, choice="resist", command_id="gm-1")
    await enc.ok("void", target_command_id="gm-1", reason="asked again")
    assert (await enc.state())["pending"][0]["id"] == pending
    second = await enc.ok("respond", reaction=pending, choice="resist", command_id="gm-2")
    draws = [e["data"]["draws"] for ans in (first, second) for e in ans["events"] if e["type"] == "DieRolled"]
    keyed = {
        e["data"]["keyed_command_id"]
        for ans in (first, second)
        for e in ans["events"]
        if e["type"] == "DieRolled"
    }
    assert keyed == {"ann-grab"}
    flat = [d for ds in draws for d in ds]
    assert flat == sorted(set(flat)) and len(flat) > 1  # the second answer draws on past the voided ones
    await enc.ok("close")
    assert (await enc.get("/verify")).body["ok"]
