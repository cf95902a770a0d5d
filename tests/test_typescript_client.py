"""Issue 30 item 1: a TypeScript bot's client, as most are made. openapi-typescript generates types from the
live /openapi.json with its default settings, `tsc --noEmit --strict` typechecks tests/typescript/client.mts
against them (the README's first TFT turn, with no field the server defaults), and the script plays that
turn on the live server with openapi-fetch. The npm versions are those of the committed package-lock.json.
Node >= 18 and npm are Debian's (`.ci/run` installs them); without them the test skips, except under CI.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import aiohttp

from tests.support import needs
from tests.support.client import RunningServer

HERE = Path(__file__).parent / "typescript"
HINT = "install Node and npm: apt-get install nodejs npm"


def _node() -> str:
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        needs.missing(HINT)
    major = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    if int(major.strip().lstrip("v").split(".")[0]) < 18:
        needs.missing(f"Node >= 18 (this one is {major.strip()}): {HINT}")
    return node


def _installed() -> Path:
    """tests/typescript/node_modules as the lockfile pins it (`npm ci` again only when the lock changed)."""
    modules, lock = HERE / "node_modules", (HERE / "package-lock.json").read_bytes()
    stamp = modules / ".tussle-lock"
    if not stamp.exists() or stamp.read_bytes() != lock:
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True, capture_output=True, timeout=600
        )
        stamp.write_bytes(lock)
    return modules


async def _run(cwd: Path, *argv: str) -> str:
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    said = out.decode()
    assert proc.returncode == 0, f"{' '.join(argv)}:\n{said}"
    return said


async def test_typescript_types_generated_with_defaults_compile_strict_and_play_a_turn(
    server: RunningServer, tmp_path: Path
) -> None:
    node = _node()
    modules = _installed()
    async with aiohttp.ClientSession() as session, session.get(server.base_url + "/openapi.json") as r:
        assert r.status == 200
        (tmp_path / "openapi.json").write_bytes(await r.read())
    for name in ("client.mts", "tsconfig.json", "package.json"):
        shutil.copy(HERE / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(modules)
    bin_ = modules / ".bin"
    await _run(tmp_path, str(bin_ / "openapi-typescript"), "openapi.json", "-o", "api.d.ts")
    tsc = str(modules / "typescript" / "bin" / "tsc")
    await _run(tmp_path, node, tsc, "--noEmit", "--strict", "-p", ".")
    await _run(tmp_path, node, tsc, "--noCheck", "-p", ".")  # checked just above: only emit
    said = await _run(tmp_path, node, "build/client.mjs", server.base_url)
    played = json.loads(said.strip().splitlines()[-1])
    assert played["your_turn"] is True
    assert played["events"][0] == "ActionDeclared"
    assert played["combatants"] == ["simeth", "troll"]
    assert "Simeth" in played["log"] and "Troll" in played["log"]
    assert played["refused"] in ("rule_violation", "bad_request")


async def test_asyncapi_parser_reads_the_live_document_with_no_error_and_no_anonymous_model(
    server: RunningServer, tmp_path: Path
) -> None:
    """Issue 30 item 3: @asyncapi/parser (what AsyncAPI's generators read a document with) finds no error
    in the live /asyncapi.json, and no object, enum or union it would have to name AnonymousSchema_N."""
    node = _node()
    modules = _installed()
    async with aiohttp.ClientSession() as session, session.get(server.base_url + "/asyncapi.json") as r:
        assert r.status == 200
        (tmp_path / "asyncapi.json").write_bytes(await r.read())
    shutil.copy(HERE / "asyncapi_check.mjs", tmp_path / "asyncapi_check.mjs")
    (tmp_path / "node_modules").symlink_to(modules)
    said = await _run(tmp_path, node, "asyncapi_check.mjs", "asyncapi.json")
    read = json.loads(said.strip().splitlines()[-1])
    assert read["parsed"] and read["errors"] == [], read["errors"]
    assert read["anonymous"] == [], read["anonymous"][:5]
    assert read["messages"] >= 12 and read["schemas"] > 100, read
