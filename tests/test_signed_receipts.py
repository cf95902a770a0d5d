"""Signed receipts (issue 25 item 7): the server signs each answer's head; `tussle verify --receipts`
checks the signatures, names a tampered or forged receipt at its seq, and old receipts keep verifying
after `tussle keys rotate`."""

from __future__ import annotations

import json
import os
import secrets

import aiohttp
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.store.receipt_key import ENV, KEY_FILE_SUFFIX, ReceiptKeys
from server.audit.verifying import verify_export
from server.cli import main as cli_main
from tests.support.client import RunningServer, TussleClient
from tests.test_verify_tamper import ANN, export, tussle_cli


def _lines(path, rows) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


async def _roll(enc) -> dict:
    return await enc.ok(
        "roll",
        expression="2d6",
        purpose="a check",
        combatant="ann",
        command_id=secrets.token_urlsafe(12),
        entropy=secrets.token_urlsafe(18),
    )


async def test_receipts_verify_fail_when_tampered_and_survive_a_rotation(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)  # the key file beside the database, as a fresh install has it
    db = str(tmp_path / "tussle.db")
    srv = await RunningServer(db).start()
    async with aiohttp.ClientSession() as session:
        tussle = TussleClient(srv.base_url, session, db)
        enc = await tussle.create()
        created = enc.created
        assert created["receipt"]["seq"] == created["seq"] and created["receipt"]["hash"] == created["hash"]
        await enc.add(ANN)
        first = await _roll(enc)
        old_keys = (await tussle.request("GET", "/keys")).body["keys"]
        assert [k["current"] for k in old_keys] == [True]
        assert first["receipt"]["key_id"] == old_keys[0]["key_id"]
        await srv.stop()

        assert cli_main(["keys", "rotate", "--db", db]) == 0
        await srv.start()
        second = await _roll(enc)
        keys = await tussle.request("GET", "/keys")
        assert keys.status == 200
        new_keys = keys.body["keys"]
        assert [k["key_id"] for k in new_keys][0] == old_keys[0]["key_id"]
        assert [k["current"] for k in new_keys] == [False, True]
        assert second["receipt"]["key_id"] == new_keys[1]["key_id"] != first["receipt"]["key_id"]
        exported = await export(tussle, enc, tmp_path)
        await srv.stop()

    keys_file = tmp_path / "keys.json"
    keys_file.write_text(json.dumps({"keys": new_keys}))
    # Kept as a player keeps them: a whole answer, a bare receipt, the create answer.
    kept = _lines(tmp_path / "receipts.jsonl", [created, first, second["receipt"]])
    code, out = await tussle_cli("verify", exported, "--receipts", kept, "--keys", str(keys_file))
    assert code == 0, out
    # The export's trailer lists the keys too.
    assert verify_export(open(exported, "rb").read(), open(kept, "rb").read())["ok"]

    # The first roll's receipt with its hash changed, or moved to another (real) seq and hash, was never
    # signed so; nor can a receipt signed by a key of someone else's making be blamed on the server.
    events = [json.loads(line) for line in open(exported) if '"trailer"' not in line]
    other = next(e for e in events if e["seq"] == first["seq"] - 1)
    mine = ReceiptKeys([Ed25519PrivateKey.generate().private_bytes_raw()], "a forger")
    forged = [
        {**first["receipt"], "hash": other["hash"]},
        {**first["receipt"], "seq": other["seq"], "hash": other["hash"]},
        mine.sign(enc.id, second["seq"], second["hash"], second["receipt"]["time"]),
    ]
    path = _lines(tmp_path / "tampered.jsonl", forged)
    code, out = await tussle_cli("verify", exported, "--receipts", path, "--keys", str(keys_file))
    assert code == 1, out
    for r in forged:
        assert f"seq {r['seq']}: the signed receipt does not verify" in out, out
    assert f"key {mine.current_id!r}, which is not among the server's published keys" in out, out

    # The keys live beside the database, never in it.
    key_lines = open(db + KEY_FILE_SUFFIX).read().split()
    assert len(key_lines) == 2
    stored = b"".join(
        open(db + suffix, "rb").read() for suffix in ("", "-wal") if os.path.exists(db + suffix)
    )
    assert not any(k.encode() in stored for k in key_lines)


async def test_every_store_signs_and_publishes_its_key(serve):
    """SQLite and PostgreSQL (whose processes share a key derived from TUSSLE_SEED_KEY) alike."""
    srv = await serve()
    async with aiohttp.ClientSession() as session:
        tussle = TussleClient(srv.base_url, session, srv.db_path)
        enc = await tussle.create()
        await enc.add(ANN)
        answer = await _roll(enc)
        keys = (await tussle.request("GET", "/keys")).body
        r = await session.get(
            f"{tussle.base_url}{enc.path}/events",
            headers={"Authorization": f"Bearer {enc.gm_token}", "Accept": "application/x-ndjson"},
        )
        exported = await r.read()
    kept = json.dumps(answer).encode()
    assert verify_export(exported, kept, receipt_keys=json.dumps(keys).encode())["ok"]
    trailer = json.loads(exported.splitlines()[-1])["trailer"]
    assert trailer["receipt_keys"] == keys["keys"]
    forged = json.dumps({**answer["receipt"], "time": "2020-01-01T00:00:00.000000Z"}).encode()
    report = verify_export(exported, forged)
    assert [(p["kind"], p["seq"]) for p in report["problems"]] == [("receipt", answer["seq"])]
