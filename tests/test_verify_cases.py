"""Issue 16 "Done when": the audit's tamper cases, each caught at the right seq by `tussle verify`, by
`GET /verify` (for what the stored stream alone shows) and by docs/verifying.md's example verifier."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Any

from tests.support.tampering import (
    as_seat,
    encode,
    parse,
    refaced,
    renumbered,
    rewrite_chain,
    rotated_mid_resolution,
)
from tests.test_verify_tamper import export, tussle_cli

DOC = Path(__file__).resolve().parent.parent / "docs" / "verifying.md"
ANN = {"id": "ann", "name": "Ann", "side": "heroes"}
TROLL = {"id": "troll", "name": "Troll", "side": "monsters"}
SENT = [
    {"command_id": "ann-grab", "entropy": "a" * 20},
    {"command_id": "ann-roll", "entropy": "b" * 20},
    {"command_id": "ann-roll-2", "entropy": "c" * 20},
]


async def fight(tussle) -> tuple[Any, list[dict[str, Any]]]:
    """Ann's player grabs the GM's troll, the GM answers (dice keyed by the grab), Ann rolls, a note, the
    seed is rotated, Ann rolls again, close. Returns the encounter and the player's receipts."""
    enc = await tussle.create("probe")
    await enc.add(ANN)
    await enc.add(TROLL)
    token = await enc.seat("Ann's player", ["ann"])
    receipts = []

    async def as_player(type_: str, **fields: Any) -> None:
        r = await enc.command(type_, token=token, **fields)
        assert r.status == 201, r.body
        receipts.append({"seq": r.body["seq"], "hash": r.body["hash"]})

    await as_player("probe.grab", combatant="ann", target="troll", **SENT[0])
    pending = (await enc.state())["pending"][0]["id"]
    await enc.ok("respond", reaction=pending, choice="resist", command_id="gm-answer")
    await as_player("roll", expression="3d6", purpose="a check", combatant="ann", **SENT[1])
    await enc.ok("note", text="the bridge holds", command_id="the-note")
    await enc.ok("rotate_seed")
    await as_player("roll", expression="2d6", purpose="another", combatant="ann", **SENT[2])
    await enc.ok("close")
    return enc, receipts


def seeds_of(events: list[dict[str, Any]]) -> dict[int, bytes]:
    """For each seq, the seed its command drew under (the one in force when the command began)."""
    reveals = [e for e in events if e["type"] == "DiceSeedRotated"]
    out, i, command = {}, 0, None
    for e in events:
        if e["command_id"] != command:
            command = e["command_id"]
            while i < len(reveals) and reveals[i]["seq"] < e["seq"]:
                i += 1
        if i < len(reveals):
            out[e["seq"]] = bytes.fromhex(reveals[i]["data"]["revealed_seed"])
    return out


def rolls(events: list[dict[str, Any]], command_id: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "DieRolled" and e["command_id"] == command_id]


# Each case: a change a forger makes to the exported stream -> the seq it must be named at.
def aimed(events, trailer):
    """The server keys the GM's answer by the GM's own command, faces valid for that key."""
    e = rolls(events, "gm-answer")[0]
    e["data"].update(keyed_command_id="gm-answer", entropy="", draws=[0])
    refaced(e, seeds_of(events)[e["seq"]])
    rewrite_chain(events, trailer)
    return e["seq"]


def chosen_draws(events, trailer):
    """The server shows draws it chose (5, 6, 7) with their true faces."""
    e = rolls(events, "ann-roll")[0]
    e["data"]["draws"] = [n + 5 for n in e["data"]["draws"]]
    refaced(e, seeds_of(events)[e["seq"]])
    rewrite_chain(events, trailer)
    return e["seq"]


def deleted(events, trailer):
    i = next(i for i, e in enumerate(events) if e["command_id"] == "the-note")
    return events.pop(i)["seq"]


def swapped(events, trailer):
    i = next(i for i, e in enumerate(events) if e["command_id"] == "the-note")
    events[i], events[i + 1] = events[i + 1], events[i]
    return events[i + 1]["seq"]


def replaced_seed(events, trailer):
    """The first revealed seed swapped for another, every roll under it recomputed to match."""
    rotate = next(e for e in events if e["type"] == "DiceSeedRotated")
    fake = bytes(range(32))
    rotate["data"]["revealed_seed"] = fake.hex()
    for e in events:
        if e["type"] == "DieRolled" and e["seq"] < rotate["seq"]:
            refaced(e, fake)
    rewrite_chain(events, trailer)
    return rotate["seq"]


def cut_tail(events, trailer):
    """The last three events cut, the trailer written to match: only a head kept elsewhere shows it."""
    cut = events[-3]["seq"]
    del events[-3:]
    trailer.update(head_seq=events[-1]["seq"], head_hash=events[-1]["hash"])
    return cut


def substituted_entropy(events, trailer):
    """The server used entropy of its own for Ann's roll (faces valid for it)."""
    e = rolls(events, "ann-roll")[0]
    e["data"]["entropy"] = "server-chosen-entropy"
    refaced(e, seeds_of(events)[e["seq"]])
    rewrite_chain(events, trailer)
    return e["seq"]


def stripped_key(events, trailer):
    """The GM's answer's die loses keyed_command_id and is drawn under the GM's own command instead."""
    e = rolls(events, "gm-answer")[0]
    del e["data"]["keyed_command_id"]
    e["data"].update(entropy="", draws=list(range(len(e["data"]["draws"]))))
    refaced(e, seeds_of(events)[e["seq"]])
    rewrite_chain(events, trailer)
    return e["seq"]


def repointed_dice_key(events, trailer):
    """The question's dice_key points at a command of the GM's choosing, and the answer draws under it."""
    asked = next(e for e in events if e["type"] == "ReactionRequested")
    asked["data"]["dice_key"] = {
        "command_id": "gm-picked",
        "entropy": "gm",
        "keyed_by": "client",
        "next_draw": 0,
    }
    for e in rolls(events, "gm-answer"):
        e["data"].update(keyed_command_id="gm-picked", entropy="gm")
        refaced(e, seeds_of(events)[e["seq"]])
    rewrite_chain(events, trailer)
    return asked["seq"]


def extra_draw(events, trailer):
    """An extra die under the player's key before the question, so the GM's answer draws on from draw 1:
    the question still says its key draws next at 0."""
    asked = next(i for i, e in enumerate(events) if e["type"] == "ReactionRequested")
    answer = rolls(events, "gm-answer")
    extra = json.loads(json.dumps(answer[0]))
    extra.update(command_id=events[asked]["command_id"], actor=events[asked]["actor"])
    extra["data"].update(draws=[0], purpose="an extra draw")
    seed = seeds_of(events)[answer[0]["seq"]]
    refaced(extra, seed)
    events.insert(asked, extra)
    drawn = 1
    for e in answer:
        e["data"]["draws"] = list(range(drawn, drawn + len(e["data"]["draws"])))
        drawn += len(e["data"]["draws"])
        refaced(e, seed)
    renumbered(events)
    trailer["head_seq"] = events[-1]["seq"]
    rewrite_chain(events, trailer)
    return events[asked + 1]["seq"]


def stripped_declaration(events, trailer):
    """A command's declaration taken out, so the replay would take it as given."""
    e = next(e for e in events if e["command_id"] == "the-note")
    del e["data"]["declaration"]
    rewrite_chain(events, trailer)
    return e["seq"]


def swapped_draws(events, trailer):
    """Two dice of Ann's roll swapped, draws and faces together, the chain rewritten: every face is still
    the seed's for its draw, but the draws no longer run on (draw 1 shown before draw 0)."""
    e = rolls(events, "ann-roll")[0]
    d = e["data"]
    d["draws"][:2], d["faces"][:2] = d["draws"][1::-1], d["faces"][1::-1]
    rewrite_chain(events, trailer)
    return e["seq"]


def version_99(events, trailer):
    """Ann's roll given a forged total and declared as ruleset version "99", which this installation does
    not have, so that a replay would call it "not replayable here"."""
    e = rolls(events, "ann-roll")[0]
    e["data"]["total"] += 5
    e["data"]["declaration"]["version"] = "99"
    rewrite_chain(events, trailer)
    return e["seq"]


def stripped_declarations(events, trailer):
    """Every declaration taken out, so a replay would check "faces and chain only"."""
    declared = [e for e in events if "declaration" in e["data"]]
    for e in declared:
        del e["data"]["declaration"]
    rewrite_chain(events, trailer)
    return declared[0]["seq"]


def player_seat(events) -> str:
    return next(e["actor"] for e in events if e["command_id"] == SENT[0]["command_id"])


def forged_seat_command(events, trailer):
    """The GM's note rewritten as sent by Ann's player: a command in the seat's name the player never sent."""
    seq = as_seat(events, "the-note", player_seat(events))
    rewrite_chain(events, trailer)
    return seq


def forged_respond(events, trailer):
    """The GM's answer to Ann's grab rewritten as the player's own respond."""
    seq = as_seat(events, "gm-answer", player_seat(events))
    rewrite_chain(events, trailer)
    return seq


def seat_changed_unseen(events, trailer):
    """The operator held Ann's second roll, gave her seat the troll too (a SeatChanged) and then let the
    roll through: the player's page sent it having seen nothing of the change."""
    i = next(i for i, e in enumerate(events) if e["command_id"] == SENT[2]["command_id"])
    seat = events[i]["actor"]
    change = {
        **{k: events[i][k] for k in ("stream", "ts")},
        "seq": 0,
        "type": "SeatChanged",
        "data": {"seat": seat[5:], "name": "Ann's player", "combatants": ["ann", "troll"]},
        "actor": "gm",
        "command_id": "gm-changes-the-seat",
        "prev_hash": "",
        "hash": "",
    }
    events.insert(i, change)
    renumbered(events)
    trailer["head_seq"] = events[-1]["seq"]
    rewrite_chain(events, trailer)
    return change["seq"]


def manual_faces(events, trailer):
    """The first server roll rewritten as faces "typed in by the table" (every face its highest): in an
    encounter of server dice no command may supply faces."""
    roll = next(e for e in events if e["type"] == "DieRolled" and e["data"]["source"] == "server")
    d = roll["data"]
    d.update(faces=[d["sides"]] * len(d["faces"]), source="manual", keyed_by="manual", entropy="")
    d["total"] = sum(d["faces"])
    rewrite_chain(events, trailer)
    return roll["seq"]


def held_and_rotated(events, trailer):
    """Nothing in the stream: the operator held the player's command and rotated the seed before letting
    it through, so the server refused it (409 commitment_moved). Only the player's sent record shows it,
    named at the rotation."""
    return next(e["seq"] for e in events if e["type"] == "DiceSeedRotated")


def receipt_of(events, command_id: str) -> int:
    """The seq a command's 201 answer named: its last event's."""
    return max(e["seq"] for e in events if e["command_id"] == command_id)


def forged_receipt(events, trailer):
    """Nothing in the stream: a receipt of Ann's roll with its time altered, as one forged to blame the
    server would be. Its seq and hash match; only its signature shows it."""
    return receipt_of(events, SENT[1]["command_id"])


def doc_verifier(tmp_path: Path) -> Path:
    """docs/verifying.md's complete example verifier, as a stranger would copy it."""
    text = DOC.read_text()
    start = text.index("A complete minimal verifier in Python")
    code = re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)
    path = tmp_path / "doc_verify.py"
    path.write_text(code)
    return path


async def run_doc_verifier(verifier: Path, *args: str) -> int | None:
    """The first bad seq the example verifier names (None: OK)."""
    code, out = await tussle_python(str(verifier), *args)
    if code == 0:
        assert out.strip() == "OK", out
        return None
    m = re.match(r"FAILED at seq (\d+|None)", out)
    assert m, out
    return None if m.group(1) == "None" else int(m.group(1))


async def tussle_python(*args: str) -> tuple[int, str]:
    import asyncio

    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode, out.decode()


async def cli_first_bad(path: Path, *args: str) -> int | None:
    code, out = await tussle_cli("verify", str(path), *args, "--json")
    report = json.loads(out)
    assert (code == 0) == report["ok"], out
    return report["first_bad_seq"] if not report["ok"] else None


async def test_every_tamper_is_named_at_its_seq_offline_and_by_the_documented_verifier(tussle, tmp_path):
    enc, receipts = await fight(tussle)
    honest = Path(await export(tussle, enc, tmp_path))
    verifier = doc_verifier(tmp_path)
    sent = tmp_path / "sent.jsonl"
    sent.write_text("".join(json.dumps(s) + "\n" for s in SENT))
    (tmp_path / "receipts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in receipts))
    events, trailer = parse(honest.read_bytes())
    head = f"{events[-1]['seq']}:{events[-1]['hash']}"
    commitment = events[0]["data"]["commitment"]
    kept = ["--head", head, "--commitment", commitment, "--sent", str(sent)]
    assert await cli_first_bad(honest, *kept) is None
    assert await run_doc_verifier(verifier, str(honest), *kept) is None
    report = (await enc.get(f"/verify?head={head}&commitment={commitment}")).body
    assert report["ok"], report["problems"]

    cases = [
        # (tamper, what the client passes, caught without it?)
        (aimed, [], True),
        (chosen_draws, [], True),
        (deleted, [], True),
        (swapped, [], True),
        (replaced_seed, [], True),
        (cut_tail, ["--head", head], False),
        (cut_tail, ["--receipts", str(tmp_path / "receipts.jsonl")], False),
        (substituted_entropy, ["--sent", str(sent)], False),
        (rotated_mid_resolution, [], True),
        (stripped_key, [], True),
        (repointed_dice_key, [], True),
        (extra_draw, [], True),
        (stripped_declaration, [], True),
        # The rest of issue 25's corpus, with the player's kept files: tests/test_verify_corpus.py.
    ]
    for tamper, args, alone in cases:
        events, trailer = parse(honest.read_bytes())
        seq = tamper(events, trailer)
        path = tmp_path / f"{tamper.__name__}.jsonl"
        path.write_bytes(encode(events, trailer))
        assert await cli_first_bad(path, *args) == seq, (tamper.__name__, args)
        assert await run_doc_verifier(verifier, str(path), *args) == seq, (tamper.__name__, args)
        if not alone:  # honestly: without what the client kept, this one passes
            assert await cli_first_bad(path) is None, tamper.__name__
            assert await run_doc_verifier(verifier, str(path)) is None, tamper.__name__
    # Streams written before stream rules 3 verify as they always did: the rotation passes there.
    events, trailer = parse(honest.read_bytes())
    del events[0]["data"]["stream_rules"]
    rotated_mid_resolution(events, trailer)
    path = tmp_path / "rotated_before_rules_3.jsonl"
    path.write_bytes(encode(events, trailer))
    assert await cli_first_bad(path) is None
    assert await run_doc_verifier(verifier, str(path)) is None
    # The first commitment pinned from the create answer catches a stream rewritten from its start.
    events, trailer = parse(honest.read_bytes())
    events[0]["data"]["commitment"] = "f" * 64
    rewrite_chain(events, trailer)
    path = tmp_path / "recommitted.jsonl"
    path.write_bytes(encode(events, trailer))
    assert await cli_first_bad(path, "--commitment", commitment) == 1
    assert await run_doc_verifier(verifier, str(path), "--commitment", commitment) == 1


def _rewrite_db(
    db: str, stream: str, events: list[dict[str, Any]], head: dict[str, Any] | None = None
) -> None:
    """Put a tampered stream into the SQLite file in place of the real one, as an operator could."""
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM events WHERE stream = ?", (stream,))
        for e in events:
            con.execute(
                "INSERT INTO events (stream, seq, type, data, actor, command_id, ts, prev_hash, hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    stream,
                    e["seq"],
                    e["type"],
                    json.dumps(e["data"]),
                    e["actor"],
                    e["command_id"],
                    e["ts"],
                    e["prev_hash"],
                    e["hash"],
                ),
            )
        if head is not None:
            con.execute(
                "UPDATE streams SET seq = ?, hash = ? WHERE id = ?", (head["seq"], head["hash"], stream)
            )
    con.close()


async def test_get_verify_names_the_same_seqs_from_the_stored_stream(server, tussle, tmp_path):
    enc, _ = await fight(tussle)
    honest = parse(Path(await export(tussle, enc, tmp_path)).read_bytes())
    head = f"{honest[0][-1]['seq']}:{honest[0][-1]['hash']}"
    commitment = honest[0][0]["data"]["commitment"]
    await server.stop()
    backup = tmp_path / "backup.db"
    shutil.copy(server.db_path, backup)

    def swapped_content(events, trailer):
        """In a store read by seq, a swap shows as two events exchanging their content."""
        i = next(i for i, e in enumerate(events) if e["command_id"] == "the-note")
        a, b = events[i], events[i + 1]
        for k in ("type", "data", "actor", "command_id"):
            a[k], b[k] = b[k], a[k]
        return a["seq"]

    cases = [
        (aimed, ""),
        (chosen_draws, ""),
        (deleted, ""),
        (swapped_content, ""),
        (replaced_seed, ""),
        (cut_tail, ""),
        (substituted_entropy, None),
    ]
    for tamper, query in cases:
        shutil.copy(backup, server.db_path)
        for extra in ("-wal", "-shm"):
            if os.path.exists(server.db_path + extra):
                os.remove(server.db_path + extra)
        events, trailer = [dict(e) for e in honest[0]], dict(honest[1])
        events = json.loads(json.dumps(events))
        seq = tamper(events, trailer)
        # A thorough operator rewrites the listing's head too, except where the case is that it did not.
        last = max(events, key=lambda e: e["seq"])
        _rewrite_db(server.db_path, enc.id, events, None if tamper is cut_tail else last)
        await server.start()
        try:
            report = (await enc.get("/verify")).body
            if query is None:  # only the client's own record of what it sent shows this one
                assert report["ok"], (tamper.__name__, report["problems"])
            else:
                assert report["first_bad_seq"] == seq, (tamper.__name__, report["problems"])
            if tamper is cut_tail:  # the listing's head cut too: only the head the client kept shows it
                await server.stop()
                _rewrite_db(
                    server.db_path, enc.id, events, {"seq": events[-1]["seq"], "hash": events[-1]["hash"]}
                )
                await server.start()
                assert (await enc.get("/verify")).body["ok"]
                report = (await enc.get(f"/verify?head={head}&commitment={commitment}")).body
                assert report["first_bad_seq"] == seq, report["problems"]
                assert report["problems"][0]["kind"] == "head"
                # The export of the cut store, verified offline with the kept head, says the same.
                path = Path(await export(tussle, enc, tmp_path, "cut.jsonl"))
                assert await cli_first_bad(path, "--head", head) == seq
        finally:
            await server.stop()
    await server.start()
    r = await enc.get("/verify?head=nonsense")
    assert r.status == 400
