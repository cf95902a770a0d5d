"""/openapi.json: every route, every command type of every installed ruleset, every error shape — and
real responses of a real server validated against it."""

from __future__ import annotations

import re
from typing import Any

import aiohttp
import jsonschema
import pytest

from rules.registry import Registry
from tests.support.client import Encounter, Resp, RunningServer, TussleClient

ADMIN = "admin-token-for-openapi-tests-0123456789"


class Contract:
    """The server's own OpenAPI document, used to check what the server answers."""

    def __init__(self, doc: dict[str, Any]):
        self.doc = doc
        self.templates = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$"), p) for p in doc["paths"]]
        self.checked: set[tuple[str, str, str]] = set()

    def _schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        # Refs are "#/components/schemas/...": give the validated schema the document's components.
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": self.doc["components"],
            "allOf": [schema],
        }

    def validate(self, schema: dict[str, Any], value: Any) -> None:
        jsonschema.validate(value, self._schema(schema), cls=jsonschema.Draft202012Validator)

    def template(self, path: str) -> str:
        path = path.split("?", 1)[0]
        matches = [t for rx, t in self.templates if rx.match(path)]
        assert matches, f"{path} is not in /openapi.json"
        return min(matches, key=lambda t: t.count("{"))  # /encounters/{id} before /{a}/{b}

    def check(self, method: str, path: str, r: Resp) -> None:
        """The response's status is listed for this operation and its JSON body fits the schema."""
        if not any(rx.match(path.split("?", 1)[0]) for rx, _ in self.templates):
            assert r.status == 404, (path, r.status)
            self.validate({"$ref": "#/components/schemas/Error.not_found"}, r.body)
            return
        template = self.template(path)
        op = self.doc["paths"][template].get(method.lower())
        if op is None:  # a wrong method on a known path
            assert r.status == 405, (method, template, r.status)
            self.validate({"$ref": "#/components/schemas/Error.method_not_allowed"}, r.body)
            self.checked.add((method.upper(), template, "405"))
            return

        response = op["responses"].get(str(r.status)) or op["responses"]["default"]
        if r.status >= 400:
            assert str(r.status) in op["responses"] or r.status in (405, 413, 500), (
                method,
                template,
                r.status,
            )
        content = response.get("content")
        if content is None:
            assert r.body in (None, ""), (method, template, r.status, r.body)
        else:
            media = content.get("application/json")
            if media is not None and not isinstance(r.body, str):
                self.validate(media["schema"], r.body)
        if r.status == 429:
            assert r.headers.get("Retry-After", "").isdigit()
        self.checked.add((method.upper(), template, str(r.status)))


class CheckedClient(TussleClient):
    """A TussleClient whose every response is validated against the contract."""

    contract: Contract

    async def request(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Resp:
        r = await super().request(method, path, body, **kwargs)
        self.contract.check(method, path, r)
        if body is not None and path.endswith("/commands") and method == "POST" and r.status in (200, 201):
            self.contract.validate({"$ref": "#/components/schemas/Command"}, body)  # accepted: so it fits
        return r


@pytest.fixture
async def checked(tmp_path):
    server = await RunningServer(
        str(tmp_path / "t.db"), admin_token=ADMIN, rate_commands=0.001, rate_burst=60_000
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(server.base_url + "/openapi.json") as r:
                assert r.status == 200 and r.content_type == "application/json"
                doc = await r.json()
            client = CheckedClient(server.base_url, session, server.db_path)
            client.contract = Contract(doc)
            yield client, server
    finally:
        await server.stop()


async def test_the_document_names_every_route_command_type_and_error_code(checked):
    client, server = checked
    doc = client.contract.doc
    assert doc["openapi"].startswith("3.1")
    jsonschema.Draft202012Validator.check_schema(
        client.contract._schema({"$ref": "#/components/schemas/Command"})
    )
    for route in server.app.router.routes():
        resource = route.resource
        if route.method in ("HEAD", "*") or resource is None:
            continue
        template = resource.canonical
        assert template in doc["paths"], f"route {template} is missing from /openapi.json"
        assert route.method.lower() in doc["paths"][template], f"{route.method} {template} is missing"
    mapping = doc["components"]["schemas"]["Command"]["discriminator"]["mapping"]
    registry = Registry.discover()
    assert set(mapping) == set(registry.command_owner)
    for rid, rs in registry.rulesets.items():
        assert rid in doc["x-tussle-rulesets"]
        per = doc["components"]["schemas"][f"Commands.{rid}"]["discriminator"]["mapping"]
        assert {c.__struct_config__.tag for c in rs.commands} <= set(per)
    assert "probe.grab" in mapping  # the test-only ruleset is installed too: nothing is hard-coded
    grab = doc["components"]["schemas"][mapping["probe.grab"].rsplit("/", 1)[1]]
    assert {"combatant", "target"} <= set(grab["required"]) and grab["additionalProperties"] is False
    codes = {
        "bad_request",
        "unauthenticated",
        "forbidden",
        "not_found",
        "method_not_allowed",
        "seq_conflict",
        "command_id_reused",
        "closed",
        "too_large",
        "rule_violation",
        "reaction_pending",
        "dice_needed",
        "rate_limited",
    }
    assert codes <= {
        name.split(".", 1)[1] for name in doc["components"]["schemas"] if name.startswith("Error.")
    }
    assert doc["x-tussle-unschematised-rulesets"] == {}
    for template, ops in doc["paths"].items():  # a generator needs every {name} of a path declared
        for method, op in ops.items():
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert set(re.findall(r"{(\w+)}", template)) == declared, (
                f"{method} {template} declares {declared}"
            )


def _undescribed(value: Any, where: str) -> list[str]:
    """Every schema property and parameter under `value` without a description, named by its place."""
    found: list[str] = []
    if isinstance(value, list):
        for v in value:
            found += _undescribed(v, where)
        return found
    if not isinstance(value, dict):
        return found
    for name, prop in (value.get("properties") or {}).items():
        here = f"{where}.{name}"
        if not (isinstance(prop, dict) and str(prop.get("description", "")).strip()):
            found.append(here)
        found += _undescribed(prop, here)
    for p in value.get("parameters") or []:
        if not str(p.get("description", "")).strip():
            found.append(f"{where} {p['in']} parameter {p['name']}")
    for key, v in value.items():
        if key not in ("properties", "parameters"):
            found += _undescribed(v, where)
    return found


async def test_every_field_and_parameter_says_what_it_is(checked):
    """A generated client's docstrings come from these: a field a player must guess at is a gap."""
    client, _ = checked
    doc = client.contract.doc
    missing = [m for name, schema in doc["components"]["schemas"].items() for m in _undescribed(schema, name)]
    missing += [
        m
        for path, ops in doc["paths"].items()
        for method, op in ops.items()
        for m in _undescribed(op, f"{method.upper()} {path}")
    ]
    assert not missing, f"{len(missing)} without a description:\n" + "\n".join(missing)


async def test_real_responses_fit_the_document(checked):
    client, _ = checked
    c = client
    await c.request("GET", "/healthz")
    await c.request("GET", "/rulesets")
    created = await c.request(
        "POST", "/encounters", {"name": "Checked", "ruleset": "freeform", "command_id": "mk-1"}, token=ADMIN
    )
    assert created.status == 201
    again = await c.request(
        "POST", "/encounters", {"name": "Checked", "ruleset": "freeform", "command_id": "mk-1"}, token=ADMIN
    )
    assert again.status == 200
    enc = Encounter(c, created.body)
    gm = enc.gm_token
    await c.request("GET", "/encounters", token=ADMIN)
    await c.request("GET", "/encounters")
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
    await enc.add({"id": "bob", "name": "Bob", "side": "blue", "position": [1, 0]})
    seat = await c.request(
        "POST", f"{enc.path}/seats", {"name": "Ann's player", "combatants": ["ann"]}, token=gm
    )
    assert seat.status == 201
    seat_id, seat_token = seat.body["seat"], seat.body["token"]
    assert (
        await c.request("PATCH", f"{enc.path}/seats/{seat_id}", {"name": "Ann's"}, token=gm)
    ).status == 200
    rotated = await c.request("POST", f"{enc.path}/seats/{seat_id}/token", token=gm)
    assert rotated.status == 201
    seat_token = rotated.body["token"]
    read = await c.request("POST", f"{enc.path}/read-tokens", token=gm)
    assert read.status == 201
    await c.request("GET", f"{enc.path}/me", token=seat_token)
    await c.request("GET", f"{enc.path}/me", token=gm)
    roll = await enc.command(
        "roll", expression="3d6+1", purpose="test", command_id="roll-1", entropy="e" * 16
    )
    assert roll.status == 201
    assert (
        await enc.command("roll", expression="3d6+1", purpose="test", command_id="roll-1", entropy="e" * 16)
    ).status == 200
    await enc.command("note", text="hello", token=seat_token)
    await enc.command("move", combatant="ann", to=[0, 1], token=seat_token)
    await c.request("GET", enc.path, token=gm)
    await c.request("GET", f"{enc.path}/events?from=2&limit=3", token=gm)
    await c.request("GET", f"{enc.path}/state", token=read.body["token"])
    await c.request("GET", f"{enc.path}/state?at=3", token=gm)
    for suffix in ("/log", "/log?format=markdown", "/audit", "/verify"):
        await c.request("GET", enc.path + suffix, token=gm)  # whatever the live routes answer must fit too

    # Every error status, each in the one shape.
    assert (await c.request("POST", f"{enc.path}/commands", raw=b"{not json", token=gm)).status == 400
    assert (await enc.command("roll", expression="1d6", surprise=1)).status == 400
    assert (await c.request("GET", f"{enc.path}/events?limit=0", token=gm)).status == 400
    assert (await c.request("GET", f"{enc.path}/state")).status == 401
    assert (await c.request("POST", "/encounters", {"name": "x", "ruleset": "freeform"})).status == 401
    assert (
        await c.request("POST", "/encounters", {"name": "x", "ruleset": "freeform"}, token=gm)
    ).status == 403
    assert (await enc.command("move", combatant="bob", to=[2, 2], token=seat_token)).status == 403
    assert (await enc.command("note", text="no", token=read.body["token"])).status == 403
    assert (await c.request("GET", "/encounters/nope/state", token=gm)).status == 404
    assert (await c.request("GET", "/nowhere")).status == 404
    assert (await c.request("PUT", f"{enc.path}/commands", {}, token=gm)).status == 405
    assert (await enc.command("note", text="late", expected_seq=1)).status == 409
    assert (await enc.command("note", text="other body", command_id="roll-1")).status == 409
    assert (await enc.command("void", seq=999, reason="no such")).status == 422
    asked = await enc.command(
        "ask", combatant="bob", kind="parry_or_dodge", options=["parry", "dodge"], default="dodge"
    )
    assert asked.status == 201
    assert (await enc.command("move", combatant="bob", to=[3, 3])).status == 422  # reaction_pending
    big = b'{"type": "note", "text": "' + b"x" * (300 * 1024) + b'"}'
    assert (await c.request("POST", f"{enc.path}/commands", raw=big, token=gm)).status == 413
    manual = await c.request(
        "POST", "/encounters", {"name": "Table", "ruleset": "freeform", "dice": "manual"}, token=ADMIN
    )
    table = Encounter(c, manual.body)
    assert (await table.command("roll", expression="2d6")).status == 422  # dice_needed
    assert (await table.command("roll", expression="2d6", dice=[[7, 1]])).status == 400
    assert (await table.command("roll", expression="2d6", dice=[[3, 4]])).status == 201
    await enc.command("respond", reaction=asked.body["events"][0]["data"]["id"], choice="parry")
    assert (await enc.command("close")).status == 201
    assert (await enc.command("note", text="after")).status == 409

    # Ending things, with their empty 204s.
    assert (
        await c.request("DELETE", f"{enc.path}/read-tokens/{read.body['token_id']}", token=gm)
    ).status in (204, 409)
    assert (await c.request("POST", f"{table.path}/gm-token", token=table.gm_token)).status == 201
    assert (await c.request("DELETE", table.path, token=ADMIN)).status == 204

    statuses = {s for _, _, s in c.contract.checked}
    assert {"200", "201", "204", "400", "401", "403", "404", "405", "409", "413", "422"} <= statuses


async def test_a_rate_limited_response_fits_the_document(tmp_path):
    server = await RunningServer(str(tmp_path / "t.db"), rate_reads=0.001, rate_burst=2000).start()  # 2 reads
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(server.base_url + "/openapi.json") as r:
                contract = Contract(await r.json())  # the first read of this address
            client = TussleClient(server.base_url, session, server.db_path)
            first = await client.request("GET", "/rulesets")
            limited = await client.request("GET", "/rulesets")
            assert (first.status, limited.status) == (200, 429)
            contract.check("GET", "/rulesets", limited)
    finally:
        await server.stop()
