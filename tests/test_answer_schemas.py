"""Issue 30 item 2: every answer of every golden stream, at every seq — GET /state?at=seq, /log?at=seq
and /me, and its /audit — is valid against its ruleset's own document (GET /rulesets/{id}/openapi.json) and against
/openapi.json's unions, with every object of the test's copy closed (`additionalProperties: false`
wherever the document leaves it unsaid, a bare `{type: object}` included), so a key the document does
not name fails as surely as a missing one.

The scripts are played through the API (so /me is read for the GM and every seat after each step); the
frozen streams of earlier versions are restored as stored (server/transfer/importing.py `restore`) and
read by the admin.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import aiohttp
import jsonschema
import pytest

from events.store.sqlite import SqliteStore
from rules.registry import Registry
from rules.state import replay
from server.http.openapi import build_openapi
from server.http.openapi_generators import camel
from server.transfer.importing import restore
from tests.golden.renders import read_stream
from tests.golden.scripts import _filled, load, script_names
from tests.support.client import Encounter, RunningServer, TussleClient

FROZEN = sorted((Path(__file__).parent / "golden" / "frozen").glob("*.jsonl"))
ADMIN = "admin-token-for-answer-schema-tests-0123"
REF = "#/components/schemas/"


def closed(value: Any) -> Any:
    """The schema with every object closed to keys it does not name."""
    if isinstance(value, dict):
        out = {k: closed(v) for k, v in value.items()}
        if ("properties" in out or out.get("type") == "object") and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(value, list):
        return [closed(v) for v in value]
    return value


class Answers:
    """A document's components, every object closed, and a validator per answer schema."""

    def __init__(self, doc: dict[str, Any]):
        schemas = doc["components"]["schemas"]
        # The ruleset's own parts are its shapes.py's (a ref, or a union over the rulesets), no bare object.
        for name, field in (
            ("EncounterState", "rules"),
            ("PendingReaction", "resume"),
            ("AskedReaction", "resume"),
        ):
            prop = schemas[name]["properties"][field]
            assert "anyOf" in prop or "$ref" in prop, f"{name}.{field} is untyped: {prop}"
        components = closed(copy.deepcopy(doc["components"]))
        self.validators = {
            name: jsonschema.Draft202012Validator(
                {"$ref": f"#/components/schemas/{name}", "components": components}
            )
            for name in ("EncounterState", "LogPage", "Me", "AuditReport")
        }

    def check(self, name: str, value: Any, where: str) -> None:
        errors = [
            f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}"
            for e in self.validators[name].iter_errors(value)
        ]
        assert not errors, (where, name, errors[:3])


async def _documents(client: TussleClient, ruleset: str) -> list[Answers]:
    own = (await client.request("GET", f"/rulesets/{ruleset}/openapi.json")).body
    whole = (await client.request("GET", "/openapi.json")).body
    return [Answers(own), Answers(whole)]


async def _every_seq(client: TussleClient, path: str, token: str, head: int, docs: list[Answers]) -> None:
    for at in range(1, head + 1):
        state = (await client.request("GET", f"{path}/state?at={at}", token=token)).body
        log = (await client.request("GET", f"{path}/log?format=json&at={at}", token=token)).body
        for doc in docs:
            doc.check("EncounterState", state, f"{path}/state?at={at}")
            doc.check("LogPage", log, f"{path}/log?at={at}")
    audit = await client.request("GET", f"{path}/audit", token=token)
    assert audit.status == 200, audit.body
    for doc in docs:
        doc.check("AuditReport", audit.body, f"{path}/audit")


@pytest.mark.parametrize("name", script_names())
async def test_every_answer_of_a_played_script_fits_its_rulesets_document(tussle, name) -> None:
    script = load(name)
    docs = await _documents(tussle, script["create"]["ruleset"])
    r = await tussle.request("POST", "/encounters", script["create"])
    assert r.status == 201, r.body
    enc = Encounter(tussle, r.body)
    tokens: dict[str, str] = {"gm": enc.gm_token}

    async def me_of_everyone(step: int) -> None:
        for who, token in tokens.items():
            me = (await tussle.request("GET", f"{enc.path}/me", token=token)).body
            for doc in docs:
                doc.check("Me", me, f"step {step}: /me of {who}")

    for i, step in enumerate(script["steps"]):
        if "seat" in step:
            tokens[step["seat"]["name"]] = await enc.seat(step["seat"]["name"], step["seat"]["combatants"])
        else:
            body = await _filled(enc, step["command"])
            token = tokens[step.get("as", "gm")]
            r = await tussle.request("POST", f"{enc.path}/commands", body, token=token)
            assert r.status == step.get("expect", 201), (i, body, r.status, r.body)
        await me_of_everyone(i)
    head = (await enc.get("")).body["seq"]
    await _every_seq(tussle, enc.path, enc.gm_token, head, docs)


@pytest.mark.parametrize("path", FROZEN, ids=lambda p: p.stem)
async def test_every_answer_of_a_frozen_stream_fits_its_rulesets_document(tmp_path, path: Path) -> None:
    events = read_stream(path)
    db = str(tmp_path / "frozen.db")
    store = SqliteStore(db)
    await store.open()
    try:
        await restore(store, events, None)
    finally:
        await store.close()
    server = await RunningServer(db, admin_token=ADMIN).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, db)
            docs = await _documents(client, events[0].data["ruleset"])
            where = f"/encounters/{events[0].stream}"
            await _every_seq(client, where, ADMIN, events[-1].seq, docs)
            me = (await client.request("GET", f"{where}/me", token=ADMIN)).body
            for doc in docs:
                doc.check("Me", me, f"{path.stem}: /me of the admin")
    finally:
        await server.stop()


def test_no_rulesets_stats_fit_another_rulesets_member_first() -> None:
    """/openapi.json's Combatant.stats is any one ruleset's: a client trying the members in order (as
    openapi-python-client does) must come to the combatant's own ruleset's first, for every combatant of
    every golden stream (TFT stats were parsed as ApGrappleStats when no member required a key)."""
    registry = Registry.discover()
    doc = build_openapi(registry)
    schemas = doc["components"]["schemas"]
    members = [m["$ref"] for m in schemas["Combatant"]["properties"]["stats"]["anyOf"]]
    for path in FROZEN:
        events = read_stream(path)
        state = replay(events, lambda e: registry.get(e.data["ruleset"]))
        own = f"#/components/schemas/{camel(state['ruleset'])}CombatantStats"
        for cid, c in state["combatants"].items():
            first = next(
                ref
                for ref in members
                if jsonschema.Draft202012Validator({"$ref": ref, "components": doc["components"]}).is_valid(
                    c["stats"]
                )
            )
            assert first == own, (path.stem, cid, first)


@pytest.mark.parametrize("name", script_names())
async def test_a_combatant_without_a_required_stat_is_refused(tussle, name) -> None:
    """REQUIRED_STATS is what add_combatant refuses a combatant without: each one left out of a golden
    script's first combatant is refused (so /openapi.json requires no more than the server does)."""

    script = load(name)
    ruleset = Registry.discover().get(script["create"]["ruleset"])
    body = next(
        s["command"]
        for s in script["steps"]
        if s.get("command", {}).get("type") in ("add_combatant", "add_combatants")
    )
    combatant = body["combatant"] if body["type"] == "add_combatant" else body["combatants"][0]
    r = await tussle.request("POST", "/encounters", script["create"])
    enc = Encounter(tussle, r.body)
    for stat in ruleset.required_stats:
        assert stat in combatant["stats"], (name, stat)
        without = {**combatant, "stats": {k: v for k, v in combatant["stats"].items() if k != stat}}
        refused = await enc.command("add_combatant", combatant=without)
        assert refused.status in (400, 422), (name, stat, refused.status, refused.body)
    assert (await enc.command("add_combatant", combatant=combatant)).status == 201


def _sent_combatants(name: str) -> list[dict[str, Any]]:
    """Every combatant a golden script's add_combatant and add_combatants steps send."""
    sent = []
    for step in load(name)["steps"]:
        body = step.get("command") or {}
        if body.get("type") == "add_combatant":
            sent.append(body["combatant"])
        elif body.get("type") == "add_combatants":
            sent.extend(body["combatants"])
    return sent


def test_every_combatant_sent_fits_new_combatant_closed() -> None:
    """The other side of the stats (issue 30 item 2): every combatant a golden script or a guide's first
    turn sends fits NewCombatant — stats, items and talents typed — in its ruleset's own document and in
    /openapi.json, every object closed: a stat, an item field or a type the document does not say fails."""
    registry = Registry.discover()
    whole = closed(copy.deepcopy(build_openapi(registry)["components"]))
    sent: dict[str, list[dict[str, Any]]] = {}
    for name in script_names():
        sent.setdefault(load(name)["create"]["ruleset"], []).extend(_sent_combatants(name))
    for rid, rs in registry.rulesets.items():
        if rs.first_turn is not None:
            sent.setdefault(rid, []).extend(rs.first_turn.combatants)
    for rid, combatants in sent.items():
        own = closed(copy.deepcopy(build_openapi(registry, rid)["components"]))
        for components in (own, whole):
            v = jsonschema.Draft202012Validator({"$ref": f"{REF}NewCombatant", "components": components})
            for c in combatants:
                errors = [
                    f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in v.iter_errors(c)
                ]
                assert not errors, (rid, c["id"], errors[:3])


def test_every_stat_a_ruleset_names_is_typed() -> None:
    """Each stat of each ruleset's guide has a JSON type in its Stats and CombatantStats (freeform has no
    stats of its own: its stats are the GM's, any JSON)."""
    registry = Registry.discover()
    for rid, rs in registry.rulesets.items():
        schemas = build_openapi(registry, rid)["components"]["schemas"]
        for title in (f"{camel(rid)}Stats", f"{camel(rid)}CombatantStats"):
            props = schemas[title].get("properties", {})
            assert set(props) == set(rs.stats), (rid, title)
            untyped = [k for k, p in props.items() if not ({"type", "enum", "anyOf", "const"} & p.keys())]
            assert not untyped, (rid, title, untyped)


@pytest.mark.parametrize("name", script_names())
async def test_a_stat_of_another_type_is_refused(tussle, name) -> None:
    """The server holds each integer stat to its type: a golden script's first combatant with any one
    integer stat sent as text is refused, so the document's integer says what add_combatant checks."""
    script = load(name)
    rid = script["create"]["ruleset"]
    combatant = _sent_combatants(name)[0]
    stats = build_openapi(Registry([Registry.discover().get(rid)]))["components"]["schemas"][
        f"{camel(rid)}Stats"
    ]
    integers = [
        k
        for k, p in stats.get("properties", {}).items()
        if p.get("type") == "integer" and k in combatant["stats"]
    ]
    enc = Encounter(tussle, (await tussle.request("POST", "/encounters", script["create"])).body)
    for stat in integers:
        wrong = {**combatant, "stats": {**combatant["stats"], stat: "twelve"}}
        refused = await enc.command("add_combatant", combatant=wrong)
        assert refused.status in (400, 422), (name, stat, refused.status, refused.body)
    assert (await enc.command("add_combatant", combatant=combatant)).status == 201
