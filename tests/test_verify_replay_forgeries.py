"""The replay audit against forgeries shaped to dodge it: an event added to an honest command that makes
the replay skip it, and a forged command before the first declaration (issue 16 item 4, review)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from tests.support.tampering import encode, parse, rewrite_chain
from tests.test_verify_cases import ANN, TROLL
from tests.test_verify_replay import doc_replayer, replayed, tussle_python
from tests.test_verify_tamper import export


def _renumbered(events: list[dict[str, Any]], trailer: dict[str, Any]) -> bytes:
    for seq, e in enumerate(events, 1):
        e["seq"] = seq
    trailer["head_seq"] = len(events)
    rewrite_chain(events, trailer)
    return encode(events, trailer)


async def _open_fight(tussle, tmp_path) -> list[dict[str, Any]]:
    """A server-dice encounter still open (its hidden seed unrevealed): two combatants, a hidden roll, a note."""
    enc = await tussle.create("probe")
    await enc.add(ANN)
    await enc.add(TROLL)
    await enc.ok("roll", expression="3d6", purpose="behind the screen", hidden=True, command_id="hid")
    await enc.ok("note", text="the bridge holds", command_id="the-note")
    raw = Path(await export(tussle, enc, tmp_path)).read_bytes()
    events, trailer = parse(raw)
    return [events, trailer]


async def test_a_hidden_roll_event_added_to_a_forged_command_does_not_excuse_it(tussle, tmp_path):
    events, trailer = await _open_fight(tussle, tmp_path)
    note = next(e for e in events if e["type"] == "NotePosted")
    note["data"]["text"] = "the bridge falls"
    # The hidden roll's event copied into the note's command: the replay must not call it unrevealed.
    extra = copy.deepcopy(next(e for e in events if e["type"] == "HiddenRollMade"))
    extra.update(command_id=note["command_id"], actor=note["actor"], ts=note["ts"])
    del extra["data"]["declaration"]
    events.insert(events.index(note) + 1, extra)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(_renumbered(events, trailer))
    report = await replayed(path)
    assert not report["ok"], report
    problem = next((p for p in report["problems"] if p["kind"] == "replay"), report["problems"])
    assert problem["seq"] == note["seq"] and problem["message"] == (
        f'seq {note["seq"]} (NotePosted): text "the bridge falls", the rules give "the bridge holds"'
    )
    assert report["replay"]["seed_unrevealed"] == 1, report["replay"]  # the real hidden roll only
    code, out = await tussle_python(str(doc_replayer(tmp_path)), str(path))  # docs/verifying.md §8 agrees
    assert code == 1 and f"FAILED at seq {note['seq']}:" in out, out


async def test_a_forged_command_before_the_first_declaration_is_not_silently_given(tussle, tmp_path):
    events, trailer = await _open_fight(tussle, tmp_path)
    added = next(e for e in events if "declaration" in e["data"])
    del added["data"]["declaration"]
    added["data"]["name"] = "Ann the Unbeatable"  # the same forgery, declared, would be named
    path = tmp_path / "forged.jsonl"
    path.write_bytes(_renumbered(events, trailer))
    report = await replayed(path)
    replay = report["replay"]
    assert replay["undeclared"] == 1, replay
    assert "1 command before the first declaration taken as given" in replay["summary"], replay


async def test_a_server_roll_rewritten_as_faces_the_command_supplied_is_caught(tussle, tmp_path):
    enc = await tussle.create("freeform")  # server dice: no command may supply faces
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    await enc.ok("roll", expression="3d6", purpose="to resist", combatant="ann", entropy="m" * 16)
    await enc.ok("close")
    events, trailer = parse(Path(await export(tussle, enc, tmp_path)).read_bytes())
    roll = next(e for e in events if e["type"] == "DieRolled")
    roll["data"]["declaration"]["command"]["entropy"] = ""
    roll["data"].update(
        faces=[6, 6, 6], total=18, outcome="3d6 = 18", source="manual", keyed_by="manual", entropy=""
    )
    path = tmp_path / "forged.jsonl"
    path.write_bytes(_renumbered(events, trailer))
    report = await replayed(path)
    assert not report["ok"] and report["first_bad_seq"] == roll["seq"], report
    [problem] = [p for p in report["problems"] if p["kind"] == "replay"]
    assert "server dice: a command may not supply faces" in problem["message"], problem
    code, out = await tussle_python(str(doc_replayer(tmp_path)), str(path))
    assert code == 1 and f"FAILED at seq {roll['seq']}:" in out, out
