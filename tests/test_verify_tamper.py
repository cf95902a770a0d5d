"""Verification (GET /verify and `tussle verify`), tampering, receipts, and void / time travel."""

from __future__ import annotations

import asyncio
import json
import sys

from tests.support.tampering import edited_export, forged_export

ANN = {"id": "ann", "name": "Ann", "side": "heroes", "position": [0, 0]}


CLI_S = 120.0  # generous: it only decides how long a hung command takes to fail


async def tussle_cli(*args: str) -> tuple[int, str]:
    """Run the real `tussle` command line in a subprocess: (exit code, stdout + stderr)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), CLI_S)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"tussle {' '.join(args)} did not finish within {CLI_S:g} s") from None
    return proc.returncode, out.decode()


async def export(tussle, enc, tmp_path, name: str = "export.jsonl") -> str:
    r = await tussle.session.get(
        f"{tussle.base_url}{enc.path}/events",
        headers={"Authorization": f"Bearer {enc.gm_token}", "Accept": "application/x-ndjson"},
    )
    path = tmp_path / name
    path.write_bytes(await r.read())
    return str(path)


async def played(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    await enc.ok(
        "roll", expression="3d6", purpose="a check", combatant="ann", command_id="r-1", entropy="x" * 16
    )
    note = await enc.ok("note", text="the bridge holds")
    await enc.ok("roll", expression="1d100", purpose="another", command_id="r-2")
    await enc.ok("close")
    return enc, note["seq"]


async def test_an_honest_stream_verifies_over_http_and_offline(tussle, tmp_path):
    enc, _ = await played(tussle)
    report = (await enc.get("/verify")).body
    assert report["ok"] and report["chain_ok"] and report["first_bad_seq"] is None
    assert report["rolls_checked"] == report["rolls_verified"] == 2 and report["problems"] == []
    path = await export(tussle, enc, tmp_path)
    code, out = await tussle_cli("verify", path)
    assert code == 0, out
    assert "OK" in out and "2 verified" in out
    # Receipts the client kept (each 201's seq and hash) check out against the stream.
    receipts = tmp_path / "receipts.jsonl"
    receipts.write_text(
        "".join(json.dumps({"seq": e["seq"], "hash": e["hash"]}) + "\n" for e in await enc.events())
    )
    code, out = await tussle_cli("verify", path, "--receipts", str(receipts), "--json")
    assert code == 0 and json.loads(out)["ok"]


async def test_one_changed_byte_in_the_sqlite_file_names_that_seq(server, tussle, tmp_path):
    enc, note_seq = await played(tussle)
    await server.stop()  # the store closes and checkpoints its WAL into the file
    raw = open(server.db_path, "rb").read()
    assert raw.count(b"the bridge holds") == 2  # the note's text, and in its declaration the command's
    with open(server.db_path, "wb") as f:
        f.write(raw.replace(b"the bridge holds", b"the bridge holdz", 1))
    await server.start()
    report = (await enc.get("/verify")).body
    assert not report["ok"] and not report["chain_ok"]
    assert report["first_bad_seq"] == note_seq
    assert [p["seq"] for p in report["problems"]] == [note_seq]
    assert report["problems"][0]["kind"] == "chain"
    path = await export(tussle, enc, tmp_path)
    code, out = await tussle_cli("verify", path)
    assert code == 1
    assert f"first bad seq {note_seq}" in out and f"seq {note_seq}:" in out


async def test_a_changed_die_face_is_named_as_a_dice_problem(tussle, tmp_path):
    enc, _ = await played(tussle)
    path = await export(tussle, enc, tmp_path)
    # A forger changes a face and rewrites the whole chain after it, so the hashes hold ...
    raw, roll_seq = forged_export(open(path, "rb").read())
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(raw)
    code, out = await tussle_cli("verify", str(forged), "--json")
    report = json.loads(out)
    assert code == 1 and report["chain_ok"] and not report["ok"]
    assert report["first_bad_seq"] == roll_seq
    assert [(p["kind"], p["seq"]) for p in report["problems"]] == [("dice", roll_seq)]
    assert report["rolls_failed"] == 1 and report["rolls_verified"] == 1
    # ... but the receipts the table kept do not.
    receipts = tmp_path / "receipts.jsonl"
    receipts.write_text(
        "".join(json.dumps({"seq": e["seq"], "hash": e["hash"]}) + "\n" for e in await enc.events())
    )
    code, out = await tussle_cli("verify", str(forged), "--receipts", str(receipts))
    assert code == 1 and "[receipt]" in out and f"seq {roll_seq}:" in out


async def test_an_unedited_face_with_the_chain_broken_names_both(tussle, tmp_path):
    enc, _ = await played(tussle)
    path = await export(tussle, enc, tmp_path)
    raw, roll_seq = edited_export(open(path, "rb").read())
    (tmp_path / "bad.jsonl").write_bytes(raw)
    code, out = await tussle_cli("verify", str(tmp_path / "bad.jsonl"), "--json")
    report = json.loads(out)
    assert code == 1 and report["first_bad_seq"] == roll_seq
    assert {p["kind"] for p in report["problems"]} == {"chain", "dice"}


async def test_a_voided_roll_leaves_state_and_stays_in_events(tussle):
    enc = await tussle.create("probe")
    await enc.add(ANN)
    await enc.add({"id": "troll", "name": "Troll", "side": "monsters"})
    await enc.ok("probe.grab", combatant="ann", target="troll")
    pending = (await enc.state())["pending"][0]["id"]
    answer = await enc.ok("respond", reaction=pending, choice="yield")
    before = await enc.state()
    assert before["combatants"]["ann"]["group"] and before["pins"]
    pin_seq = next(e["seq"] for e in answer["events"] if e["type"] == "PinApplied")
    voided = await enc.ok("void", seq=pin_seq, reason="the GM misread the rule")
    after = await enc.state()
    assert after["pins"] == [] and after["voided"] == [pin_seq]
    assert after["combatants"]["ann"]["group"] == before["combatants"]["ann"]["group"]  # only that event
    events = await enc.events()
    assert events[pin_seq - 1]["type"] == "PinApplied" and events[-1]["type"] == "EventVoided"
    assert (await enc.state(at=pin_seq))["pins"]  # time travel: before the void it was there
    log = (await enc.get("/log")).body["entries"]
    assert pin_seq not in [e["seq"] for e in log]
    assert log[-1]["text"].startswith(f"Retcon: the GM voids seq {pin_seq} (Ann pins Troll)")
    assert log[-1]["text"].endswith("Reason: the GM misread the rule")
    assert pin_seq in [e["seq"] for e in (await enc.get(f"/log?at={pin_seq}")).body["entries"]]
    assert voided["events"][0]["data"]["seqs"] == [pin_seq]
    await enc.replay_matches_live()
    assert (await enc.get("/verify")).body["ok"]


async def test_a_voided_roll_disappears_from_state_and_the_audit_keeps_it(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    r = await enc.ok("roll", expression="1d6", purpose="a mistake", command_id="oops")
    await enc.ok("void", target_command_id="oops", reason="rolled for the wrong fighter")
    assert r["seq"] in (await enc.state())["voided"]
    assert [e["seq"] for e in await enc.events()][-2] == r["seq"]
    roll = (await enc.get("/audit")).body["rolls"][0]
    assert roll["seq"] == r["seq"] and roll["voided"] is True


async def test_void_errors(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    note = await enc.ok("note", text="x")
    v = await enc.ok("void", seq=note["seq"], reason="r")
    for body in ({"seq": note["seq"]}, {"seq": v["seq"]}, {"seq": 99}, {"seq": 1}):
        r = await enc.command("void", reason="again", **body)
        assert r.status == 422, (body, r.body)
