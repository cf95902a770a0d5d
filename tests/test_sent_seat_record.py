"""Issue 25 item 6 (part): the player's sent records, naming their seat, are its complete record, so a
command forged in the seat's name (a note, or a respond answering for the player) is named at its seq."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.tampering import as_seat, encode, parse, rewrite_chain
from tests.test_verify_cases import SENT, cli_first_bad, fight, seat_changed_unseen
from tests.test_verify_tamper import export


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
        seq = as_seat(events, forged_id, seat)
        rewrite_chain(events, trailer)
        path = tmp_path / f"{forged_id}.jsonl"
        path.write_bytes(encode(events, trailer))
        assert await cli_first_bad(path, *both) == seq, forged_id


async def test_a_seat_change_none_of_the_seats_devices_had_seen_before_a_command_in_its_name(
    tussle, tmp_path
):
    """Issue 25 item 6: the operator holds the player's roll, changes the seat (gives it the troll too) and
    then lets the roll through. Each record says the head its page had seen when it sent (`seen_seq`), so
    the SeatChanged is named at its seq; a change the page had seen before sending is no problem."""
    enc, _ = await fight(tussle)
    honest = Path(await export(tussle, enc, tmp_path))
    events, _ = parse(honest.read_bytes())
    seat = next(e["actor"] for e in events if e["command_id"] == SENT[0]["command_id"])[5:]

    def records(events) -> Path:
        first = {}
        for e in events:
            first.setdefault(e["command_id"], e["seq"])
        path = tmp_path / "records.jsonl"
        path.write_text(
            "".join(
                json.dumps({**s, "seat": seat, "seen_seq": first[s["command_id"]] - 1}) + "\n" for s in SENT
            )
        )
        return path

    assert await cli_first_bad(honest, "--sent", str(records(events))) is None
    events, trailer = parse(honest.read_bytes())
    seq = seat_changed_unseen(events, trailer)
    path = tmp_path / "seat_changed.jsonl"
    path.write_bytes(encode(events, trailer))
    kept = records(parse(honest.read_bytes())[0])  # what the page had seen: the stream before the change
    assert await cli_first_bad(path, "--sent", str(kept)) == seq
    # Seen before the roll was sent (the page's head past the change): the seat was not changed behind
    # the player's back.
    assert await cli_first_bad(path, "--sent", str(records(events))) is None
