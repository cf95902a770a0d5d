"""Issue 25 item 6 (part): the player's sent records, naming their seat, are its complete record, so a
command forged in the seat's name (a note, or a respond answering for the player) is named at its seq."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.tampering import encode, parse, rewrite_chain
from tests.test_verify_cases import SENT, cli_first_bad, fight
from tests.test_verify_tamper import export


def _as_seat(events, command_id: str, seat: str) -> int:
    """The command sent, as the stream says, by the player's seat."""
    run = [e for e in events if e["command_id"] == command_id]
    for e in run:
        e["actor"] = seat
        if "declaration" in e["data"]:
            e["data"]["declaration"]["command"]["actor"] = seat
    return run[0]["seq"]


async def test_a_command_in_the_seats_name_that_no_sent_record_holds_is_named_at_its_seq(tussle, tmp_path):
    enc, _ = await fight(tussle)
    honest = Path(await export(tussle, enc, tmp_path))
    events, _ = parse(honest.read_bytes())
    seat = next(e["actor"] for e in events if e["command_id"] == SENT[0]["command_id"])
    phone, laptop = tmp_path / "phone.jsonl", tmp_path / "laptop.jsonl"
    phone.write_text("".join(json.dumps({**s, "seat": seat[5:]}) + "\n" for s in SENT[:2]))
    laptop.write_text(json.dumps({**SENT[2], "seat": seat[5:]}) + "\n")
    both = ["--sent", str(phone), "--sent", str(laptop)]
    assert await cli_first_bad(honest, *both) is None
    assert await cli_first_bad(honest, "--sent", str(phone)) is not None  # one device's record is not all
    for forged_id in ("the-note", "gm-answer"):  # a forged seat command, a forged respond
        events, trailer = parse(honest.read_bytes())
        seq = _as_seat(events, forged_id, seat)
        rewrite_chain(events, trailer)
        path = tmp_path / f"{forged_id}.jsonl"
        path.write_bytes(encode(events, trailer))
        assert await cli_first_bad(path, *both) == seq, forged_id
