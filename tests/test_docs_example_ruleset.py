"""Issue 13 item 7: docs/rulesets.md's example ruleset, copied out of the page, registered beside the
installed ones and played through a live server — so the page a sixth ruleset is written from works."""

from __future__ import annotations

import importlib
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.support.client import Encounter, RunningServer, TussleClient
from tests.support.ruleset_layout import REQUIRED_MODULES

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rulesets.md"
FILES = re.compile(r"^```(?:python|markdown) (shove/[\w./]+)\n(.*?)^```$", re.S | re.M)


@pytest.fixture
def shove(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    files = FILES.findall(DOC.read_text())
    assert files, "docs/rulesets.md has no example files"
    for name, text in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("TUSSLE_EXTRA_RULESETS", "tests.support.probe_ruleset:ruleset,shove:ruleset")
    yield tmp_path / "shove"
    for module in [m for m in sys.modules if m == "shove" or m.startswith("shove.")]:
        del sys.modules[module]


def test_the_example_has_the_layout_it_teaches(shove: Path) -> None:
    names = {p.name for p in shove.iterdir()}
    assert {*REQUIRED_MODULES, "pushing.py"} <= names
    ruleset = importlib.import_module("shove").ruleset
    assert ruleset.id == "shove" and [c.__struct_config__.tag for c in ruleset.commands] == ["shove.push"]


async def test_the_example_plays_through_a_live_server(shove: Path, tmp_path: Path) -> None:
    server = await RunningServer(str(tmp_path / "shove.db")).start()
    try:
        async with aiohttp.ClientSession() as session:
            tussle = TussleClient(server.base_url, session, server.db_path)
            listed = await tussle.request("GET", "/rulesets/shove")
            assert listed.status == 200 and listed.body["reactions"], listed.body
            enc: Encounter = await tussle.create("shove", options={"brace_bonus": 0})
            no_st = await enc.command(
                "add_combatant", combatant={"id": "ann", "name": "Ann", "side": "a", "position": [0, 0]}
            )
            assert no_st.status == 400 and no_st.body["error"]["details"]["field"] == "combatant.stats.st"
            for c in (
                {"id": "ann", "name": "Ann", "side": "a", "position": [0, 0], "stats": {"st": 13}},
                {"id": "bob", "name": "Bob", "side": "b", "position": [1, 0], "stats": {"st": 7}},
                {"id": "cat", "name": "Cat", "side": "a", "position": [5, 5], "stats": {"st": 10}},
            ):
                await enc.add(c)
            far = await enc.command("shove.push", combatant="cat", target="bob")
            assert (
                far.status == 422
                and far.body["error"]["message"] == "Cat cannot push: Bob is not in the next hex."
            )
            assert (await enc.command("gurps.choose_maneuver", combatant="ann")).status == 400

            asked = await enc.ok("shove.push", combatant="ann", target="bob")
            reaction = asked["events"][-1]["data"]["id"]
            state = await enc.state()
            assert state["acting_now"][0]["combatant"] == "bob" and state["legal_actions"]["ann"] == []
            given = await enc.ok("respond", reaction=reaction, choice="give_way")
            types = [e["type"] for e in given["events"]]
            assert types == ["ReactionAnswered", "Shoved", "Moved"], types
            state = await enc.state()
            assert state["combatants"]["bob"]["position"] == [2, 0] and state["rules"]["won"] == {"ann": 1}

            await enc.ok("move", combatant="bob", to=[1, 0])
            braced = await enc.ok("shove.push", combatant="ann", target="bob")
            answer = await enc.ok("respond", reaction=braced["events"][-1]["data"]["id"], choice="brace")
            rolls = [e["data"] for e in answer["events"] if e["type"] == "DieRolled"]
            assert [r["combatant"] for r in rolls] == ["ann", "bob"]
            assert rolls[0]["modifiers"] == [{"value": 1, "reason": "ST 13 (seed §2)"}]
            shoved = next(e["data"] for e in answer["events"] if e["type"] == "Shoved")
            assert shoved["moved"] == (rolls[0]["total"] > rolls[1]["total"])

            log = await tussle.request("GET", f"{enc.path}/log?format=markdown", token=enc.gm_token)
            assert "Ann pushes Bob back a hex." in log.body, log.body
            verify = await tussle.request("GET", f"{enc.path}/verify", token=enc.gm_token)
            assert verify.body["ok"] is True, verify.body
            await enc.replay_matches_live()
    finally:
        await server.stop()


def test_the_quick_try_command_serves_the_example_from_the_root_without_pythonpath(tmp_path: Path) -> None:
    """The page's command line as a reader types it in the directory holding `shove/` (plus a free port)."""
    for name, text in FILES.findall(DOC.read_text()):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (line,) = [ln for ln in DOC.read_text().splitlines() if ln.startswith("TUSSLE_EXTRA_RULESETS=")]
    assignment, program, *args = shlex.split(line)
    name, _, value = assignment.partition("=")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TUSSLE_EXTRA_RULESETS")}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    served = subprocess.Popen(
        [str(ROOT / program), *args, "--port", str(port), "--db", str(tmp_path / "try.db")],
        cwd=tmp_path,
        env={**env, name: value},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(600):
            assert served.poll() is None, served.communicate()[0].decode()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/rulesets/shove") as answer:
                    assert json.load(answer)["id"] == "shove"
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
    finally:
        served.terminate()
        served.wait(timeout=30)
