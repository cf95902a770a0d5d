"""Issue 18 item 3: a bot author's client, generated from the live /openapi.json by openapi-python-client,
creates a TFT encounter, adds its fighters, sends a TFT command and reads the Markdown log with it."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import aiohttp

from rules.tft.playing import FIRST_TURN
from tests.support.client import RunningServer

PACKAGE = "tussle_generated_client"


def _generate(doc_path: Path, out: Path) -> None:
    tool = (
        shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
        or "openapi-python-client"
    )
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [tool, "generate", "--path", str(doc_path), "--output-path", str(out), "--meta", "none"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    # The generator names what it had to leave out ("Warning(s) encountered ..."): nothing may be.
    assert "Warning" not in said and "Unable" not in said, said


async def test_a_generated_client_plays_a_tft_turn(server: RunningServer, tmp_path: Path) -> None:
    async with aiohttp.ClientSession() as session, session.get(server.base_url + "/openapi.json") as r:
        assert r.status == 200
        (tmp_path / "openapi.json").write_bytes(await r.read())
    _generate(tmp_path / "openapi.json", tmp_path / PACKAGE)
    sys.path.insert(0, str(tmp_path))
    try:
        gen = importlib.import_module(PACKAGE)
        api = importlib.import_module(f"{PACKAGE}.api.default")
        m = importlib.import_module(f"{PACKAGE}.models")
        post_encounters = importlib.import_module(f"{api.__name__}.post_encounters")
        post_command = importlib.import_module(f"{api.__name__}.post_encounters_id_commands")
        get_log = importlib.import_module(f"{api.__name__}.get_encounters_id_log")

        anyone = gen.Client(base_url=server.base_url)
        created = await post_encounters.asyncio(
            client=anyone, body=m.CreateEncounter(name="Generated", ruleset=m.CreateEncounterRuleset("tft"))
        )
        assert isinstance(created, m.EncounterCreatedResponse), created
        gm = gen.AuthenticatedClient(base_url=server.base_url, token=created.gm_token)

        async def send(body: object) -> object:
            answer = await post_command.asyncio(created.id, client=gm, body=body)
            assert isinstance(answer, m.CommandAppended), answer
            return answer

        for c in FIRST_TURN.combatants:
            await send(
                m.AddCombatant(
                    type_=m.AddCombatantType.ADD_COMBATANT,
                    combatant=m.NewCombatant(
                        id=c["id"],
                        name=c["name"],
                        side=c["side"],
                        position=c["position"],
                        facing=c["facing"],
                        stats=m.TftStats.from_dict(c["stats"]),
                    ),
                )
            )
        await send(m.StartTurn(type_=m.StartTurnType.START_TURN, turn=1))
        for phase in ("movement", "action"):
            await send(m.StartPhase(type_=m.StartPhaseType.START_PHASE, phase=phase))
        entered = await send(
            m.TftEnterHth(type_=m.TftEnterHthType.TFT_ENTER_HTH, combatant="simeth", target="troll")
        )
        assert [e.type_ for e in entered.events][0] == "ActionDeclared"

        refused = await post_command.asyncio(
            created.id,
            client=gm,
            body=m.TftPin(type_=m.TftPinType.TFT_PIN, combatant="simeth", target="nobody"),
        )
        assert isinstance(refused, (m.ErrorRuleViolation, m.ErrorBadRequest)), refused

        log = await get_log.asyncio(created.id, client=gm, format_=m.GetEncountersIdLogFormat.MARKDOWN)
        assert isinstance(log, str) and "Simeth" in log and "Troll" in log, log
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_document_names_each_rulesets_schemas_for_it_and_describes_every_option() -> None:
    from rules.registry import Registry
    from server.http.openapi import build_openapi
    from server.http.openapi_generators import camel

    registry = Registry.discover()
    doc = build_openapi(registry)
    schemas = doc["components"]["schemas"]
    mapping = schemas["Command"]["discriminator"]["mapping"]
    assert schemas["Command"]["discriminator"]["propertyName"] == "type"
    for rid, rs in registry.rulesets.items():
        for cls in rs.commands:
            name = mapping[cls.__struct_config__.tag].rsplit("/", 1)[1]
            assert name.startswith(camel(rid)) and schemas[name]["title"] == name, name
            assert "actor" not in schemas[name]["properties"]
        options = schemas[f"{camel(rid)}Options"]
        missing = [f for f, p in options.get("properties", {}).items() if "description" not in p]
        assert not missing, (rid, missing)
    assert {"GurpsGrapple", "SkirmishGrapple", "TftPin", "GurpsPin"} <= set(schemas)
    assert not [n for n in schemas if "." in n and not n.startswith(("Error.", "Commands."))]
    stats = schemas["NewCombatant"]["properties"]["stats"]["anyOf"]
    assert {s["$ref"].rsplit("/", 1)[1] for s in stats} == {f"{camel(r)}Stats" for r in registry.rulesets}
    assert schemas["AddCombatant"]["properties"]["combatant"]["$ref"] == "#/components/schemas/NewCombatant"
    log = doc["paths"]["/encounters/{id}/log"]["get"]
    assert list(log["responses"]["200"]["content"])[:2] == ["text/markdown", "text/plain"]
    fmt = next(p for p in log["parameters"] if p["name"] == "format")
    assert fmt["schema"]["enum"] == ["json", "markdown", "bbcode"]
    assert doc["x-tussle-rulesets"]["tft"]["options"] == {"$ref": "#/components/schemas/TftOptions"}


async def test_datamodel_code_generator_models_play_the_readme_turn(
    server: RunningServer, tmp_path: Path
) -> None:
    """Issue 30 item 1: pydantic models from datamodel-code-generator (default settings) build the README's
    requests with only the fields a person writes (the server's defaults are optional), and read the answers."""
    async with aiohttp.ClientSession() as session:
        async with session.get(server.base_url + "/openapi.json") as r:
            (tmp_path / "openapi.json").write_bytes(await r.read())
        tool = shutil.which("datamodel-codegen", path=str(Path(sys.executable).parent)) or "datamodel-codegen"
        # A directory: the document's dotted names (Error.closed, Commands.tft) become modules.
        done = subprocess.run(
            [tool, "--input", str(tmp_path / "openapi.json"), "--input-file-type", "openapi"]
            + ["--output", str(tmp_path / "dmc_models")],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        sys.path.insert(0, str(tmp_path))
        try:
            m = importlib.import_module("dmc_models")

            async def call(method: str, path: str, model: object | None, token: str | None = None) -> dict:
                body = model.model_dump(mode="json", exclude_unset=True) if model is not None else None
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                async with session.request(method, server.base_url + path, json=body, headers=headers) as r:
                    answer = await r.json()
                    assert r.status in (200, 201), answer
                    return answer

            created = m.EncounterCreatedResponse.model_validate(
                await call("POST", "/encounters", m.CreateEncounter(name="Troll bridge", ruleset="tft"))
            )
            gm, path = created.gm_token, f"/encounters/{created.id}/commands"
            for c in FIRST_TURN.combatants:
                combatant = m.NewCombatant(
                    **{k: c[k] for k in ("id", "name", "side", "position", "facing", "stats")}
                )
                await call("POST", path, m.AddCombatant(type="add_combatant", combatant=combatant), gm)
            await call("POST", path, m.StartTurn(type="start_turn", turn=1), gm)
            for phase in ("movement", "action"):
                await call("POST", path, m.StartPhase(type="start_phase", phase=phase), gm)
            entered = m.CommandAppended.model_validate(
                await call(
                    "POST",
                    path,
                    m.Command.model_validate(
                        {"type": "tft.enter_hth", "combatant": "simeth", "target": "troll"}
                    ).root,
                    gm,
                )
            )
            assert entered.events[0].root.type == "ActionDeclared"  # Envelope: the union of event types
            state = m.EncounterState.model_validate(
                await call("GET", f"/encounters/{created.id}/state", None, gm)
            )
            assert sorted(state.combatants) == ["simeth", "troll"]
        finally:
            sys.path.remove(str(tmp_path))
            for name in [n for n in sys.modules if n == "dmc_models" or n.startswith("dmc_models.")]:
                del sys.modules[name]
