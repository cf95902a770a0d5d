"""The GM's own sent record (`tussle verify --sent`, the page's "Save what I sent"): the GM's answer to a
player's question continues the key the question was asked under (docs/verifying.md §5, "The keying
command"), so its dice, keyed by the player's command, are what the GM sent, not a substitution. A GM
answer whose dice are keyed by anything else is still named at its seq, by the CLI and by the documented
example verifier alike."""

from __future__ import annotations

import json
from pathlib import Path

from server.audit.verifying import verify_export
from tests.support.tampering import encode, parse
from tests.test_verify_cases import (
    aimed,
    cli_first_bad,
    doc_verifier,
    fight,
    repointed_dice_key,
    rolls,
    run_doc_verifier,
)
from tests.test_verify_tamper import export

GM_SENT = [{"command_id": "gm-answer", "entropy": ""}, {"command_id": "the-note", "entropy": ""}]


async def test_the_gms_answer_keyed_by_the_players_command_is_what_the_gm_sent(tussle, tmp_path):
    enc, _ = await fight(tussle)
    honest = Path(await export(tussle, enc, tmp_path))
    events, _ = parse(honest.read_bytes())
    answer = rolls(events, "gm-answer")
    assert answer and {e["data"]["keyed_command_id"] for e in answer} == {"ann-grab"}  # the grab's keys
    sent = tmp_path / "gm.sent.jsonl"
    sent.write_text("".join(json.dumps(s) + "\n" for s in GM_SENT))
    assert await cli_first_bad(honest, "--sent", str(sent)) is None
    assert await run_doc_verifier(doc_verifier(tmp_path), str(honest), "--sent", str(sent)) is None
    report = verify_export(honest.read_bytes(), sent=sent.read_bytes())
    assert report["ok"], report["problems"]

    # The server aims the GM's answer: its die keyed by the GM's own command. A sent problem at its seq.
    for case in (aimed, repointed_dice_key):
        events, trailer = parse(honest.read_bytes())
        seq = case(events, trailer)
        path = tmp_path / f"{case.__name__}.jsonl"
        path.write_bytes(encode(events, trailer))
        assert await cli_first_bad(path, "--sent", str(sent)) == seq, case.__name__
        assert await run_doc_verifier(doc_verifier(tmp_path), str(path), "--sent", str(sent)) == seq
    events, trailer = parse(honest.read_bytes())
    seq = aimed(events, trailer)
    report = verify_export(encode(events, trailer), sent=sent.read_bytes())
    sent_seqs = [p["seq"] for p in report["problems"] if p["kind"] == "sent"]
    assert sent_seqs == [seq], report["problems"]
    assert "not by 'ann-grab', the command whose question it answers" in next(
        p["message"] for p in report["problems"] if p["kind"] == "sent"
    )
