"""The folds are total over real fights, and cannot hide a bug (issue 13 item 4).

Every prefix of every golden script's stream folds, purely, to what replay computes; voiding any one
event leaves later events about its subject listed in `inconsistencies`, never a crash; and a stored
event of a type the fold handles that it cannot apply makes reads of the encounter a 500 naming its seq.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from events.envelope import Event, NewEvent
from events.store.port import Append
from events.store.sqlite import SqliteStore
from projections.log import build_log
from rules.registry import Registry
from rules.state import evolve, initial_state, replay
from tests.golden.scripts import load, play, script_names

REGISTRY = Registry.discover()
UNVOIDABLE = {"EncounterCreated", "EventVoided", "DiceSeedRotated", "EncounterClosed"}


def ruleset_for(e: Event) -> Any:
    return REGISTRY.get(e.data["ruleset"])


def envelope(d: dict[str, Any]) -> Event:
    return Event(**{k: d[k] for k in Event.__struct_fields__})


def voiding(events: list[Event], seq: int) -> Event:
    last = events[-1]
    return Event(
        last.stream,
        last.seq + 1,
        "EventVoided",
        {"seqs": [seq], "reason": "test"},
        "gm",
        "v",
        last.ts,
        last.hash,
        "",
    )


async def fight(tussle, name: str) -> list[Event]:
    enc = await play(tussle, load(name))
    return [envelope(d) for d in await enc.events()]


@pytest.mark.parametrize("name", script_names())
async def test_every_prefix_folds_purely_to_the_replayed_state(tussle, name):
    events = await fight(tussle, name)
    ruleset = ruleset_for(events[0])
    state = {**initial_state(), "rules": ruleset.initial_state(events[0].data["options"])}
    voids_seen = False
    for n, e in enumerate(events, start=1):
        before = copy.deepcopy(state)
        after = evolve(state, e, ruleset)
        assert state == before, f"evolve changed its input at seq {e.seq} ({e.type})"
        state = after
        voids_seen = voids_seen or e.type == "EventVoided"
        replayed = replay(events[:n], ruleset_for)  # every prefix folds; with no void yet, to the live fold
        if not voids_seen:
            assert state["inconsistencies"] == []
            assert replayed == state, [(k, replayed[k], state[k]) for k in state if replayed[k] != state[k]]


@pytest.mark.parametrize("name", script_names())
async def test_voiding_any_one_event_folds_and_names_what_it_left_dangling(tussle, name):
    events = await fight(tussle, name)
    for e in events:
        if e.type in UNVOIDABLE:
            continue
        for end in range(e.seq, len(events) + 1):
            prefix = events[:end]
            with_void = [*prefix, voiding(prefix, e.seq)]
            state = replay(with_void, ruleset_for)
            assert e.seq in state["voided"]
            ruleset = ruleset_for(events[0])
            assert all(isinstance(ruleset.legal_actions(state, c), list) for c in state["combatants"])
            build_log(with_void, ruleset_for)  # every sentence, against the state without the voided event
        if e.type == "CombatantJoined":
            # The last state replayed the whole stream without the join: what named them is listed.
            named = [x.seq for x in events[e.seq :] if f"'{e.data['id']}'" in repr(x.data)]
            listed = {i["seq"] for i in state["inconsistencies"]}
            assert all(seq > e.seq for seq in listed)
            assert bool(listed) == bool(named), (e.seq, listed, named)


# A known event type of each ruleset, stored with data its fold cannot apply.
MALFORMED = {
    "freeform": ("Wounded", {"combatant": "ann"}),
    "tft": ("TftMoveCounted", {"combatant": "simeth"}),
    "gurps": ("ManeuverChosen", {}),
    "ap-grapple": ("APSpent", {}),
    "skirmish": ("CardDrawn", {}),
    "rogue-trader": ("RtSituationSet", {"combatant": "dv"}),
}


@pytest.mark.parametrize("name", script_names())
async def test_a_stored_event_the_fold_cannot_apply_is_a_500_naming_its_seq(server, tussle, name):
    script = load(name)
    enc = await play(tussle, script)
    head = (await enc.get()).body["seq"]
    await server.stop()
    event_type, data = MALFORMED[script["create"]["ruleset"]]
    async with SqliteStore(server.db_path) as store:
        # Appended through the store, so the chain over it verifies: only the fold can notice.
        await store.append(Append(enc.id, head, "malformed", "x", "gm", [NewEvent(event_type, data)]))
    await server.start()
    assert (await enc.get("/verify")).body["chain_ok"] is True
    for read in ("/state", "/log", f"/state?at={head + 1}", "/me"):
        r = await enc.get(read)
        assert r.status == 500, (read, r.status, r.body)
        err = r.body["error"]
        assert (read, err["code"], err["details"]) == (
            read,
            "internal",
            {"seq": head + 1, "type": event_type},
        )
        assert f"event {head + 1} ({event_type})" in err["message"]
    assert (await enc.get(f"/state?at={head}")).status == 200
