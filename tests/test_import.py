"""`tussle import`: an encounter exported on one server continues on another (docs/deploy.md) —
same seqs and hashes, the dice its chain committed to, every player's link — or is refused whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.support.client import Encounter, RunningServer, TussleClient

ANN = {"id": "ann", "name": "Ann", "side": "red"}


def tussle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", *args], capture_output=True, text=True, timeout=120
    )


def export(db: str, encounter: str, out: Path, *extra: str) -> Path:
    run = subprocess.run(
        [sys.executable, "-m", "server", "export", encounter, "--db", db, *extra],
        capture_output=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    out.write_bytes(run.stdout)
    return out


async def played(db: str, *, close: bool = False) -> tuple[str, str, str]:
    """(encounter id, GM token, seat token) of a short fight with server dice on a server at `db`."""
    server = await RunningServer(db).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await TussleClient(server.base_url, session, db).create("freeform")
            await enc.add(ANN)
            seat = await enc.seat("Ann's player", ["ann"])
            for n in range(3):
                assert (
                    await enc.command("roll", token=seat, expression="3d6", purpose=f"try {n}")
                ).status == 201
            await enc.ok("rotate_seed")
            await enc.ok("roll", expression="1d20", purpose="after the rotation")
            if close:
                await enc.ok("close")
            return enc.id, enc.gm_token, seat
    finally:
        await server.stop()


async def on_server(db: str, work: Any) -> Any:
    server = await RunningServer(db).start()
    try:
        async with aiohttp.ClientSession() as session:
            return await work(TussleClient(server.base_url, session, db))
    finally:
        await server.stop()


def envelopes(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith('{"stream"')]


async def test_a_live_encounter_continues_on_the_new_server_with_its_dice_and_links(tmp_path):
    old, new = str(tmp_path / "old.db"), str(tmp_path / "new.db")
    encounter, gm_token, seat = await played(old)
    moving = export(old, encounter, tmp_path / "moving.jsonl", "--with-secrets")

    run = tussle("import", str(moving), "--db", new)
    assert run.returncode == 0, run.stderr
    assert f"imported encounter {encounter}" in run.stdout

    async def carry_on(client: TussleClient) -> list[dict[str, Any]]:
        enc = Encounter(client, {"id": encounter, "gm_token": gm_token})
        # The player's link works here: the token hashes came along.
        r = await enc.command("roll", token=seat, expression="2d6", purpose="on the new server")
        assert r.status == 201, r.body
        await enc.ok("close")  # reveals the seed the old server committed to
        return await enc.events()

    after = await on_server(new, carry_on)
    before = envelopes(moving)
    assert [(e["seq"], e["hash"], e["ts"]) for e in after[: len(before)]] == [
        (e["seq"], e["hash"], e["ts"]) for e in before
    ]
    # The roll made on the new server verifies under the commitment made on the old one.
    final = export(new, encounter, tmp_path / "final.jsonl")
    verified = tussle("verify", str(final), "--json")
    assert verified.returncode == 0, verified.stdout
    report = json.loads(verified.stdout)
    assert (
        report["ok"] and report["rolls_failed"] == 0 and report["rolls_verified"] == report["rolls_checked"]
    )


async def test_a_live_encounter_without_its_secrets_is_refused_and_nothing_is_written(tmp_path):
    old, new = str(tmp_path / "old.db"), str(tmp_path / "new.db")
    encounter, _, _ = await played(old)
    plain = export(old, encounter, tmp_path / "plain.jsonl")
    run = tussle("import", str(plain), "--db", new)
    assert run.returncode == 1
    assert "still live and the file holds no secrets" in run.stderr and "--with-secrets" in run.stderr

    async def listing(client: TussleClient) -> Any:
        return (await client.request("GET", "/encounters")).body

    assert (await on_server(new, listing))["encounters"] == []


async def test_a_closed_encounter_imports_from_a_plain_export(tmp_path):
    old, new = str(tmp_path / "old.db"), str(tmp_path / "new.db")
    encounter, _, _ = await played(old, close=True)
    plain = export(old, encounter, tmp_path / "plain.jsonl")
    assert tussle("import", str(plain), "--db", new).returncode == 0
    again = export(new, encounter, tmp_path / "again.jsonl")
    assert envelopes(again) == envelopes(plain)


@pytest.mark.parametrize("tamper", ["changed face", "second import"])
async def test_a_file_that_does_not_verify_or_an_id_already_here_is_refused(tmp_path, tamper):
    old, new = str(tmp_path / "old.db"), str(tmp_path / "new.db")
    encounter, _, _ = await played(old, close=True)
    path = export(old, encounter, tmp_path / "plain.jsonl")
    if tamper == "changed face":
        lines = path.read_text().splitlines()
        i = next(n for n, line in enumerate(lines) if '"DieRolled"' in line)
        lines[i] = lines[i].replace('"faces":[', '"faces":[9,', 1)
        path.write_text("\n".join(lines) + "\n")
        expected = "does not verify"
    else:
        assert tussle("import", str(path), "--db", new).returncode == 0
        expected = f"already has an encounter {encounter}"
    run = tussle("import", str(path), "--db", new)
    assert run.returncode == 1 and expected in run.stderr, run.stderr


async def test_an_encounter_moves_from_sqlite_to_postgresql(tmp_path, pg_schema_dsn):
    old = str(tmp_path / "old.db")
    encounter, _, seat = await played(old)
    moving = export(old, encounter, tmp_path / "moving.jsonl", "--with-secrets")
    run = tussle("import", str(moving), "--pg", pg_schema_dsn)
    assert run.returncode == 0, run.stderr
    back = subprocess.run(
        [sys.executable, "-m", "server", "export", encounter, "--pg", pg_schema_dsn],
        capture_output=True,
        timeout=120,
    )
    assert back.returncode == 0, back.stderr
    (tmp_path / "back.jsonl").write_bytes(back.stdout)
    assert envelopes(tmp_path / "back.jsonl") == envelopes(moving)
