"""A server roll rewritten as faces "typed in by the table" and rehashed (issue 16, review): with server
dice no command may supply faces, so `tussle verify` (no --replay), `GET /verify` and docs/verifying.md's
example verifier name it at its seq from the stream alone (and `GET /audit` marks it failed), while manual faces the encounter allows still
verify as manual."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.tampering import encode, manual_faces_export, parse, rewrite_chain
from tests.test_verify_cases import (
    ANN,
    _rewrite_db,
    cli_first_bad,
    doc_verifier,
    run_doc_verifier,
)
from tests.test_verify_tamper import export, tussle_cli

PHRASE = "manual faces in an encounter whose dice are the server's"


async def _server_dice_fight(tussle):
    """Ann's player rolls with server dice, then close (the seed revealed, every roll recomputable)."""
    enc = await tussle.create("freeform")
    await enc.add(ANN)
    token = await enc.seat("Ann's player", ["ann"])
    r = await enc.command(
        "roll",
        token=token,
        expression="3d6",
        purpose="to resist",
        combatant="ann",
        command_id="ann-roll",
        entropy="m" * 20,
    )
    assert r.status == 201, r.body
    await enc.ok("roll", expression="1d20", purpose="the GM's", command_id="gm-roll")
    await enc.ok("close")
    return enc


async def test_a_server_roll_rewritten_as_manual_is_caught_without_replay(tussle, tmp_path):
    enc = await _server_dice_fight(tussle)
    honest = Path(await export(tussle, enc, tmp_path))
    forged, seq = manual_faces_export(honest.read_bytes())
    path = tmp_path / "forged.jsonl"
    path.write_bytes(forged)
    code, out = await tussle_cli("verify", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"] and report["first_bad_seq"] == seq, report
    [problem] = report["problems"]
    assert problem["kind"] == "dice" and problem["seq"] == seq, problem
    assert problem["message"].startswith(f"seq {seq}: {PHRASE}: faces [6, 6, 6] (to resist)"), problem
    assert (
        report["rolls_checked"],
        report["rolls_verified"],
        report["rolls_failed"],
        report["rolls_manual"],
        report["rolls_unverifiable"],
    ) == (2, 1, 1, 0, 0), report
    code, text = await tussle_cli("verify", str(path))  # the person-readable report names it too
    assert code == 1 and f"[dice] seq {seq}: {PHRASE}" in text, text
    verifier = doc_verifier(tmp_path)
    assert await run_doc_verifier(verifier, str(honest)) is None
    assert await run_doc_verifier(verifier, str(path)) == seq
    # The client's own record: the roll claiming to be manual is not skipped, its entropy was dropped.
    sent = tmp_path / "sent.jsonl"
    sent.write_text(json.dumps({"command_id": "ann-roll", "entropy": "m" * 20}) + "\n")
    assert await cli_first_bad(honest, "--sent", str(sent)) is None
    code, out = await tussle_cli("verify", str(path), "--sent", str(sent), "--json")
    kinds = {(p["kind"], p.get("seq")) for p in json.loads(out)["problems"]}
    assert kinds == {("dice", seq), ("sent", seq)}, out
    assert await run_doc_verifier(verifier, str(path), "--sent", str(sent)) == seq


async def test_a_manual_forgery_rewritten_in_the_store_is_named_by_get_verify(server, tussle, tmp_path):
    enc = await _server_dice_fight(tussle)
    forged, seq = manual_faces_export(Path(await export(tussle, enc, tmp_path)).read_bytes())
    events, _ = parse(forged)
    await server.stop()
    _rewrite_db(server.db_path, enc.id, events, {"seq": events[-1]["seq"], "hash": events[-1]["hash"]})
    await server.start()
    report = (await enc.get("/verify")).body
    assert not report["ok"] and report["first_bad_seq"] == seq, report
    assert [(p["kind"], p["seq"]) for p in report["problems"]] == [("dice", seq)], report["problems"]
    assert report["problems"][0]["message"].startswith(f"seq {seq}: {PHRASE}"), report["problems"]
    # The dice audit a player reads (and the page's roll badges) says the same of that roll.
    audit = (await enc.get("/audit")).body
    [roll] = [r for r in audit["rolls"] if r["seq"] == seq]
    assert roll["mark"] == "failed" and roll["problem"].startswith(f"seq {seq}: {PHRASE}"), roll
    assert audit["counts"]["failed"] == 1 and audit["counts"]["manual"] == 0, audit["counts"]


async def test_manual_faces_the_encounter_allows_still_verify_as_manual(tussle, tmp_path):
    enc = await tussle.create("freeform", dice="mixed", options={"manual_dice_from": "actor"})
    await enc.add(ANN)
    token = await enc.seat("Ann's player", ["ann"])
    await enc.ok("roll", expression="2d6", purpose="the GM's table dice", dice=[[3, 4]])
    r = await enc.command(
        "roll", token=token, expression="1d6", purpose="Ann's own die", combatant="ann", dice=[[5]]
    )
    assert r.status == 201, r.body
    await enc.ok("roll", expression="1d20", purpose="a server die")
    await enc.ok("close")
    honest = Path(await export(tussle, enc, tmp_path))
    code, out = await tussle_cli("verify", str(honest), "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"], report["problems"]
    assert (report["rolls_manual"], report["rolls_verified"], report["rolls_failed"]) == (2, 1, 0), report
    assert (await enc.get("/verify")).body["ok"]
    verifier = doc_verifier(tmp_path)
    assert await run_doc_verifier(verifier, str(honest)) is None
    # With the option back at its default (the GM's dice only), the player's faces are a dice problem.
    events, trailer = parse(honest.read_bytes())
    events[0]["data"]["options"]["manual_dice_from"] = "gm"
    rewrite_chain(events, trailer)
    path = tmp_path / "gm-only.jsonl"
    path.write_bytes(encode(events, trailer))
    player_roll = next(e for e in events if e["type"] == "DieRolled" and e["actor"] != "gm")
    code, out = await tussle_cli("verify", str(path), "--json")
    report = json.loads(out)
    assert report["first_bad_seq"] == player_roll["seq"], report
    assert "only the GM may supply dice faces" in report["problems"][0]["message"], report["problems"]
    assert await run_doc_verifier(verifier, str(path)) == player_roll["seq"]


async def test_the_create_answers_receipt_pins_seq_1_against_a_forged_dice_source(tussle, tmp_path):
    """A forger who also rewrites seq 1 (server dice turned mixed, anyone's faces allowed) keeps the first
    commitment, so --commitment alone cannot see it; the create answer's own receipt (seq 1 and its hash) can."""
    enc = await _server_dice_fight(tussle)
    created = enc.created
    assert created["seq"] == 1, created
    stored = (await enc.get("/events?limit=1")).body["events"][0]
    assert stored["hash"] == created["hash"], "the create answer's receipt is the stored seq 1"
    honest = Path(await export(tussle, enc, tmp_path))
    forged, seq = manual_faces_export(honest.read_bytes())
    events, trailer = parse(forged)
    events[0]["data"]["dice"] = "mixed"
    events[0]["data"]["options"]["manual_dice_from"] = "actor"
    rewrite_chain(events, trailer)
    path = tmp_path / "forged-source.jsonl"
    path.write_bytes(encode(events, trailer))
    receipt = tmp_path / "receipts.jsonl"
    receipt.write_text(json.dumps({"seq": created["seq"], "hash": created["hash"]}) + "\n")
    assert await cli_first_bad(honest, "--receipts", str(receipt)) is None
    assert await cli_first_bad(path, "--receipts", str(receipt)) == 1
