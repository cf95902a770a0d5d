"""Issue 16 item 4, the replay audit: every declared command decided again, by `tussle verify --replay` and
`GET /verify?replay=1`, on a real server with a real SQLite file."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from projections.audit import commitment_timeline
from projections.forum_export import forum_posts
from projections.log import build_log
from server.guides.guide import published
from server.guides.guide_turns import first_turn_steps
from tests.golden.renders import REGISTRY, read_stream, renders
from tests.golden.scripts import SCRIPTS, load, play, script_names
from tests.support.client import Encounter
from tests.support.guide_play import play_steps
from tests.support.tampering import encode, parse, rewrite_chain
from tests.test_verify_cases import DOC, _rewrite_db, fight
from tests.test_verify_tamper import export, tussle_cli

FROZEN = Path(__file__).parent / "golden" / "frozen"
ROOT = Path(__file__).resolve().parent.parent


async def replayed(path: Path | str, *args: str) -> dict[str, Any]:
    """`tussle verify --replay --json`'s report (its exit code agreeing with `ok`)."""
    code, out = await tussle_cli("verify", str(path), "--replay", "--json", *args)
    report = json.loads(out)
    assert code == (0 if report["ok"] else 1), out
    return report


def all_agree(report: dict[str, Any]) -> None:
    replay = report["replay"]
    assert report["ok"], report["problems"]
    assert replay["declared"] > 0 and replay["agreed"] == replay["declared"], replay
    assert replay["differed"] == replay["seed_unrevealed"] == replay["not_replayable"] == 0, replay


@pytest.mark.parametrize("name", script_names())
async def test_every_golden_fight_replays_exactly(tussle, tmp_path, name):
    enc = await play(tussle, load(name))
    all_agree(await replayed(await export(tussle, enc, tmp_path)))
    report = (await enc.get("/verify?replay=1")).body
    all_agree(report)
    plain = (await enc.get("/verify")).body
    assert "replay" not in plain and plain["ok"]


async def _play_first_turn(tussle, rid: str) -> Encounter:
    """The guide's first turn as its curl lines send it."""
    made: list[Encounter] = []

    async def created(enc: Encounter) -> None:
        made.append(enc)

    await play_steps(tussle, first_turn_steps(published().rulesets[rid]), created)
    return made[0]


@pytest.mark.parametrize("rid", sorted(published().rulesets))
async def test_each_guides_first_turn_replays_once_its_seed_is_revealed(tussle, tmp_path, rid):
    enc = await _play_first_turn(tussle, rid)
    # While the seed is secret, commands that drew server dice cannot be decided again: said, not failed.
    before = (await enc.get("/verify?replay=1")).body
    assert before["ok"], before["problems"]
    drew = {e["command_id"] for e in await enc.events() if e["type"] == "DieRolled"}
    assert before["replay"]["seed_unrevealed"] == len(drew)
    assert all(s["reason"] == "not yet replayable (seed unrevealed)" for s in before["replay"]["skipped"])
    code, out = await tussle_cli("verify", await export(tussle, enc, tmp_path, "open.jsonl"), "--replay")
    assert code == 0 and ("not yet replayable (seed unrevealed)" in out) == bool(drew), out
    await enc.ok("close")
    all_agree(await replayed(await export(tussle, enc, tmp_path)))
    all_agree((await enc.get("/verify?replay=1")).body)


async def test_a_reaction_answered_by_the_gm_and_a_rotated_seed_replay(tussle, tmp_path):
    enc, _ = await fight(tussle)  # a player's grab answered by the GM, rolls, a rotated seed, close
    report = await replayed(await export(tussle, enc, tmp_path))
    all_agree(report)
    events = await enc.events()
    answer = next(e for e in events if e["command_id"] == "gm-answer")
    assert answer["type"] == "ReactionAnswered"
    assert answer["data"]["declaration"] == {
        "command": {
            "type": "respond",
            "actor": "gm",
            "entropy": "",
            "reaction": answer["data"]["id"],
            "choice": "resist",
            "params": {},
        },
        "keyed_by": "client",
        "ruleset": "probe",
        "version": answer["data"]["declaration"]["version"],
    }


def _forged(raw: bytes, change) -> tuple[bytes, int, list[dict[str, Any]]]:
    """The export with `change` made to its events and every hash after it recomputed, as a forger would."""
    events, trailer = parse(raw)
    seq = change(events)
    rewrite_chain(events, trailer)
    return encode(events, trailer), seq, events


def forged_total(events: list[dict[str, Any]]) -> int:
    roll = next(e for e in events if e["type"] == "DieRolled" and e["data"]["modifiers"])
    roll["data"]["total"] += 1
    return roll["seq"]


def forged_outcome(events: list[dict[str, Any]]) -> int:
    wound = next(e for e in events if e["type"] == "Wounded")
    wound["data"]["amount"] += 2
    return wound["seq"]


async def test_a_forged_total_rehashed_into_a_valid_chain_is_caught_only_by_replay(server, tussle, tmp_path):
    enc = await play(tussle, load("tft-manual-troll"))
    honest = Path(await export(tussle, enc, tmp_path)).read_bytes()
    await server.stop()
    backup = tmp_path / "backup.db"
    shutil.copy(server.db_path, backup)
    for change, what in ((forged_total, "total"), (forged_outcome, "amount")):
        raw, seq, events = _forged(honest, change)
        stored = next(e for e in events if e["seq"] == seq)["data"][what]
        path = tmp_path / f"{change.__name__}.jsonl"
        path.write_bytes(raw)
        # Chain, seeds, faces and trailer all hold: without the replay the forgery passes.
        code, out = await tussle_cli("verify", str(path))
        assert code == 0, out
        report = await replayed(path)
        assert not report["ok"] and report["chain_ok"] and report["first_bad_seq"] == seq, report["problems"]
        [problem] = report["problems"]
        assert problem["kind"] == "replay" and problem["seq"] == seq
        assert (
            f"seq {seq} " in problem["message"]
            and f"{what} {stored}, the rules give {stored - 1 if what == 'total' else stored - 2}"
            in problem["message"]
        ), problem
        code, out = await tussle_cli("verify", str(path), "--replay")
        assert code == 1 and f"first bad seq {seq}" in out and "the rules give" in out, out
        # The same forgery in the store: GET /verify passes it, GET /verify?replay=1 names it.
        shutil.copy(backup, server.db_path)
        for extra in ("-wal", "-shm"):
            if os.path.exists(server.db_path + extra):
                os.remove(server.db_path + extra)
        _rewrite_db(server.db_path, enc.id, events, events[-1])
        await server.start()
        try:
            assert (await enc.get("/verify")).body["ok"]
            report = (await enc.get("/verify?replay=1")).body
            assert report["first_bad_seq"] == seq and [p["kind"] for p in report["problems"]] == ["replay"]
            assert report["problems"][0]["message"] == problem["message"]
            assert (await enc.get("/verify?replay=maybe")).status == 400
        finally:
            await server.stop()
    await server.start()


async def test_a_ruleset_version_this_installation_lacks_is_not_replayable_not_tampered(
    server, tussle, tmp_path
):
    enc = await play(tussle, load("tft-manual-troll"))

    def older(events: list[dict[str, Any]]) -> int:
        """The stream as an installation of tft version 0 would have written it: announced at creation, and
        every declaration naming it."""
        events[0]["data"]["ruleset_version"] = "0"
        for e in events:
            if "declaration" in e["data"]:
                e["data"]["declaration"]["version"] = "0"
        return next(
            e["seq"]
            for e in events
            if e["data"].get("declaration", {}).get("command", {}).get("type") == "tft.hth_attack"
        )

    raw, seq, events = _forged(Path(await export(tussle, enc, tmp_path)).read_bytes(), older)
    path = tmp_path / "older.jsonl"
    path.write_bytes(raw)
    report = await replayed(path)
    assert report["ok"], report["problems"]
    replay = report["replay"]
    old = replay["not_replayable"]
    assert old == replay["declared"] > 1 and replay["agreed"] == 0  # every command, none of them tampered
    skipped = replay["skipped"]
    assert seq in [s["seq"] for s in skipped] and all(
        "version 0" in s["reason"] and "this installation has" in s["reason"] for s in skipped
    )
    code, out = await tussle_cli("verify", str(path), "--replay")
    assert code == 0 and "not replayable" in out and "decided by tft version 0" in out, out
    # The same stream in the store: GET /verify?replay=1 says the same.
    await server.stop()
    _rewrite_db(server.db_path, enc.id, events, events[-1])
    await server.start()
    report = (await enc.get("/verify?replay=1")).body
    assert report["ok"] and report["replay"]["not_replayable"] == old, report
    assert report["replay"]["skipped"] == replay["skipped"]


@pytest.mark.parametrize("name", sorted(p.stem for p in FROZEN.glob("*.jsonl")))
async def test_a_stream_written_before_declarations_says_faces_and_chain_only(name):
    report = await replayed(FROZEN / f"{name}.jsonl")
    assert report["ok"], report["problems"]
    assert (
        report["replay"]["declared"] == 0
        and report["replay"]["summary"] == "no declarations: faces and chain only"
    )
    code, out = await tussle_cli("verify", str(FROZEN / f"{name}.jsonl"), "--replay")
    assert code == 0 and "Replay: no declarations: faces and chain only." in out, out


async def test_a_command_stripped_of_its_declaration_is_named(tussle, tmp_path):
    enc = await play(tussle, load("skirmish-manual-e1"))

    def stripped(events: list[dict[str, Any]]) -> int:
        first = [e for e in events if "declaration" in e["data"]][-1]
        del first["data"]["declaration"]
        return first["seq"]

    raw, seq, _ = _forged(Path(await export(tussle, enc, tmp_path)).read_bytes(), stripped)
    path = tmp_path / "stripped.jsonl"
    path.write_bytes(raw)
    report = await replayed(path)
    # Named twice at its seq: by the plain check (a stream of stream rules 3 declares every command) and
    # by the replay, which cannot check it.
    assert report["first_bad_seq"] == seq, report["problems"]
    kinds = {p["kind"]: p for p in report["problems"] if p["seq"] == seq}
    assert {"declaration", "replay"} <= set(kinds), report["problems"]
    assert "without a declaration" in kinds["replay"]["message"]


def doc_replayer(tmp_path: Path) -> Path:
    """docs/verifying.md §8's replay check, as a stranger would copy it."""
    text = DOC.read_text()
    start = text.index("## 8. Replaying the rules")
    code = re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)
    path = tmp_path / "doc_replay.py"
    path.write_text(code)
    return path


async def tussle_python(script: str, *args: str) -> tuple[int, str]:
    """Run a copied script with this checkout importable (the test-only probe ruleset lives in tests/)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        script,
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode, out.decode()


async def test_the_documented_replay_check_names_the_same_seqs(tussle, tmp_path):
    replayer = doc_replayer(tmp_path)
    enc = await play(tussle, load("tft-manual-troll"))
    honest = Path(await export(tussle, enc, tmp_path))
    code, out = await tussle_python(str(replayer), str(honest))
    assert code == 0 and out.strip().endswith("OK"), out
    for change in (forged_total, forged_outcome):
        raw, seq, _ = _forged(honest.read_bytes(), change)
        path = tmp_path / f"{change.__name__}.jsonl"
        path.write_bytes(raw)
        assert (await replayed(path))["first_bad_seq"] == seq
        code, out = await tussle_python(str(replayer), str(path))
        assert code == 1 and f"FAILED at seq {seq}:" in out, out
    code, out = await tussle_python(str(replayer), str(FROZEN / "tft-manual-troll.jsonl"))
    assert code == 0 and "no declarations: faces and chain only" in out, out
    # The GM's hidden rolls, one shown by reveal_roll and one by close, which reveals the hidden seed.
    enc = await tussle.create("freeform")
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    made = await enc.ok("roll", expression="3d6+1", hidden=True, command_id="behind-1", entropy="h" * 16)
    await enc.ok("reveal_roll", seq=made["events"][0]["seq"])
    await enc.ok("roll", expression="1d20", hidden=True, command_id="behind-2")
    open_ = Path(await export(tussle, enc, tmp_path, "hidden-open.jsonl"))
    assert (await replayed(open_))["replay"]["seed_unrevealed"] == 3
    code, out = await tussle_python(str(replayer), str(open_))
    assert code == 0 and out.count("not yet replayable (seed unrevealed)") == 3, out
    await enc.ok("close")
    hidden = Path(await export(tussle, enc, tmp_path, "hidden.jsonl"))
    all_agree(await replayed(hidden))
    code, out = await tussle_python(str(replayer), str(hidden))
    assert code == 0 and out.strip() == "OK", out


@pytest.mark.parametrize("name", script_names())
def test_declarations_leave_every_reader_as_it_was(name):
    """The state, the log, the audit and the forum posts of a golden stream are what they would be
    without its declarations: only the replay reads them."""
    events = read_stream(SCRIPTS / f"{name}.jsonl")
    assert any("declaration" in e.data for e in events)
    bare = [
        msgspec.structs.replace(e, data={k: v for k, v in e.data.items() if k != "declaration"})
        for e in events
    ]
    with_, without = renders(events), renders(bare)
    for reader in ("state", "log", "audit"):
        assert with_[reader] == without[reader], reader
    assert "declaration" not in msgspec.json.encode(with_["state"]).decode()

    def posts(stream: list[Any], flavour: str) -> list[str]:
        entries = msgspec.to_builtins(build_log(stream, lambda e: REGISTRY.get(e.data["ruleset"])).entries)
        return forum_posts(
            entries,
            name=name,
            commitments=commitment_timeline(stream),
            head={"seq": stream[-1].seq, "hash": stream[-1].hash},
            flavour=flavour,
        )

    for flavour in ("markdown", "bbcode"):
        assert posts(events, flavour) == posts(bare, flavour)


async def test_a_timeout_answer_and_a_standing_order_replay(tussle, tmp_path):
    enc = await tussle.create("probe", options={"reaction_timeout_s": 1})
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    await enc.add({"id": "troll", "name": "Troll", "side": "monsters"})
    await enc.add({"id": "imp", "name": "Imp", "side": "monsters", "reactions": {"probe_defence": "resist"}})
    token = await enc.seat("Ann's player", ["ann"])
    # The imp's standing order answers at once, inside the grab; the troll's question waits for the clock.
    r = await enc.command(
        "probe.grab", token=token, combatant="ann", target="imp", command_id="grab-imp", entropy="i" * 16
    )
    assert r.status == 201 and "ReactionAnswered" in [e["type"] for e in r.body["events"]], r.body
    r = await enc.command(
        "probe.grab", token=token, combatant="ann", target="troll", command_id="grab-troll", entropy="t" * 16
    )
    assert r.status == 201, r.body
    for _ in range(300):
        if not (await enc.state())["pending"]:
            break
        await asyncio.sleep(0.1)
    events = await enc.events()
    timeout = next(e for e in events if e["type"] == "ReactionAnswered" and e["actor"] == "system")
    assert timeout["data"]["declaration"]["command"]["actor"] == "system"
    assert timeout["data"]["declaration"]["command"]["choice"] == "default"
    await enc.ok("close")
    all_agree(await replayed(await export(tussle, enc, tmp_path)))
    all_agree((await enc.get("/verify?replay=1")).body)


async def test_mixed_dice_replay_with_the_faces_a_command_supplied(tussle, tmp_path):
    enc = await tussle.create("freeform", dice="mixed")
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    await enc.ok("roll", expression="2d6+1", purpose="table dice", combatant="ann", dice=[[3, 4]])
    await enc.ok("roll", expression="3d6", purpose="server dice", combatant="ann", entropy="m" * 16)
    await enc.ok("close")
    report = await replayed(await export(tussle, enc, tmp_path))
    all_agree(report)
    assert report["rolls_manual"] == 1 and report["rolls_verified"] == 1
